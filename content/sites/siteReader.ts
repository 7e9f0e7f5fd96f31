/**
 * How a site adapter reads the page it claims (the site adapters' module, content-sites.js), and
 * the check that keeps it honest: its reading is compared with the generic model's
 * (adapterVerdict). A page it claims but does not match is still read, fields it does not name
 * are added, and the model says so.
 */
import { adapterFor } from './adapters/index.ts';
import { editableFrom, isVisible, type Editable } from '../editables.ts';
import { SMART_EDITOR_FRAMES } from '../../shared/page/smartEditorNames.ts';
import { controlOptions, readControl } from '../siteControlRead.ts';
import {
  elementRegion,
  inferActions,
  genericEditables,
  namedFields,
  inferReadable,
  inferSignIn,
  textOf,
  type LocatedAction,
  type LocatedField,
  type PageModel,
  type ReadableRegion,
} from '../pageModel.ts';
import type { SignIn } from '../../shared/page/pageProtocol.ts';
import { adapterVerdict, type SiteAdapter } from '../siteAdapter.ts';

/** The documents an adapter's selectors are tried in: the page, then the same-origin frames it names. */
interface SearchRoot {
  doc: Document;
  frame: HTMLIFrameElement | null;
  /** The adapter's selector of that frame (null: the page itself). */
  selector: string | null;
}

function searchRoots(adapter: SiteAdapter, doc: Document): SearchRoot[] {
  const roots: SearchRoot[] = [{ doc, frame: null, selector: null }];
  for (const selector of adapter.frames ?? []) {
    for (const frame of Array.from(doc.querySelectorAll<HTMLIFrameElement>(selector))) {
      try {
        if (frame.contentDocument) roots.push({ doc: frame.contentDocument, frame, selector });
      } catch {
        // cross-origin: not ours to read
      }
    }
  }
  return roots;
}

function first(roots: SearchRoot[], selectors: string[]): { element: Element; frame: HTMLIFrameElement | null; frameSelector: string | null } | null {
  for (const selector of selectors) {
    for (const root of roots) {
      const element = root.doc.querySelector(selector);
      if (element) return { element, frame: root.frame, frameSelector: root.selector };
    }
  }
  return null;
}

/**
 * The editable of an adapter's field: a widget it declares (a listbox, a chip input) as that
 * widget; a SmartEditor ONE part it marks with the editor's key and the frame it is in (only
 * where the markup is SmartEditor ONE's: a redesign is read as whatever it is).
 */
function adapterEditable(field: SiteAdapter['fields'][number], found: { element: Element; frameSelector: string | null }): Editable | null {
  const element = found.element as HTMLElement;
  if (field.control) {
    const control = field.control;
    const family = control.kind === 'listbox' ? 'listbox' : 'tag-chips';
    const controlRead = { text: () => readControl(element, control), options: () => controlOptions(element, control) };
    return { kind: control.kind === 'listbox' ? 'select' : 'input', family, element, doc: element.ownerDocument, frame: null, control, controlRead };
  }
  const editable = editableFrom(element);
  if (!editable || !field.smartEditor || editable.family !== 'smarteditor-one') return editable;
  const frame = SMART_EDITOR_FRAMES.find((selector) => selector === found.frameSelector) ?? null;
  if (found.frameSelector !== null && frame === null) return editable;
  return { ...editable, smartEditor: { key: field.smartEditor.key, part: field.smartEditor.part, frame } };
}

function fromAdapter(adapter: SiteAdapter, doc: Document): PageModel {
  const roots = searchRoots(adapter, doc);
  const fields: LocatedField[] = [];
  for (const field of adapter.fields) {
    const found = first(roots, field.selectors);
    const editable = found ? adapterEditable(field, found) : null;
    if (!found || !editable) continue;
    // An editor found inside one of the adapter's frames is focused through that frame.
    const inFrame = editable.frame === null && found.frame !== null ? { ...editable, frame: found.frame } : editable;
    fields.push({ name: field.name, label: field.label, editable: inFrame, draftIfNonEmpty: field.draftIfNonEmpty === true, located: found.element });
  }
  const actions: LocatedAction[] = [];
  for (const action of adapter.actions) {
    const found = first(roots, action.selectors);
    if (found) actions.push({ name: action.name, kind: action.kind, label: action.label, element: found.element as HTMLElement });
  }
  const readable = new Map<string, ReadableRegion>();
  for (const region of adapter.readable) {
    if (first(roots, region.selectors))
      readable.set(
        region.name,
        elementRegion(() => first(roots, region.selectors)?.element ?? null),
      );
  }
  const signedIn = first(roots, adapter.signIn.signedIn)?.element;
  let signIn: SignIn;
  if (signedIn && isVisible(signedIn)) {
    signIn = { state: 'signed_in', account: textOf(first(roots, adapter.signIn.account)?.element) || null, via: `adapter:${adapter.id}` };
  } else if (first(roots, adapter.signIn.signedOut)) {
    signIn = { state: 'signed_out', account: null, via: `adapter:${adapter.id}` };
  } else {
    signIn = { state: 'unknown', account: null, via: `adapter:${adapter.id}` };
  }
  const draftBanner = adapter.draft.banners.some((selector) =>
    roots.some(({ doc: rootDoc }) => {
      const banner = rootDoc.querySelector(selector);
      return banner !== null && isVisible(banner);
    }),
  );
  return { adapterId: adapter.id, fields, actions, readable, signIn, draftBanner };
}

/**
 * Whether one of the adapter's fields already stands for these elements of the generic scan: the
 * same editor, or one inside the other. The same element is looked for across all fields first
 * (the usual case), so most checks need no containment walk.
 */
function coveredBy(fields: LocatedField[], theirs: Element[]): boolean {
  return (
    fields.some((field) => theirs.includes(field.located) || theirs.includes(field.editable.element)) ||
    fields.some((field) => [field.located, field.editable.element].some((mine) => theirs.some((other) => mine.contains(other) || other.contains(mine))))
  );
}

/** The adapter's reading, checked against the generic one: never an empty page where the generic model sees fields. */
function checkedAgainstGeneric(adapter: SiteAdapter, doc: Document, model: PageModel): PageModel {
  // Every generic field is one of the generic editables. An editor an adapter field covers is
  // covered from whichever element the scan finds it, so its visibility is not read; when the rest
  // are covered too (the adapter's own page, the usual case), nothing is unnamed and the generic
  // fields need no names or labels.
  const allCovered = genericEditables(doc, (editable) => coveredBy(model.fields, [editable.element])).every(({ element, editable }) =>
    coveredBy(model.fields, [element, editable.element]),
  );
  const unnamed = allCovered
    ? []
    : namedFields(genericEditables(doc), new Set([...model.fields, ...model.actions].map((named) => named.name))).filter(
        (generic) => !coveredBy(model.fields, [generic.located, generic.editable.element]),
      );
  const verdict = adapterVerdict({
    adapter,
    named: adapter.fields.map((field) => field.name),
    found: model.fields.map((field) => field.name),
    unnamed: unnamed.map((field) => field.name),
  });
  switch (verdict.use) {
    case 'adapter':
      return model;
    case 'adapter+generic':
      return { ...model, adapterProblem: verdict.problem, fields: [...model.fields, ...unnamed] };
    case 'generic':
      // The adapter does not know this page; what it did find (a named button, a region, the
      // account) still beats a guess, and the generic model fills in the rest. Nothing was
      // covered, so the unnamed fields are all the generic model's fields.
      return {
        adapterId: verdict.adapter,
        adapterProblem: verdict.problem,
        fields: unnamed,
        actions: model.actions.length > 0 ? model.actions : inferActions(doc, new Set(unnamed.map((field) => field.name))),
        readable: new Map([...inferReadable(doc), ...model.readable]),
        signIn: model.signIn.state !== 'unknown' ? model.signIn : inferSignIn(doc),
        draftBanner: model.draftBanner,
      };
  }
}

/** The page as the adapter that claims it reads it, or null when none does (a marker is missing). */
export function readSitePage(doc: Document): PageModel | null {
  const adapter = adapterFor(new URL(doc.location.href), doc);
  return adapter ? checkedAgainstGeneric(adapter, doc, fromAdapter(adapter, doc)) : null;
}
