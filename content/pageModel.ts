/**
 * The page as Tether understands it: named fields, named actions, readable regions and sign-in,
 * found by the site's adapter when there is one, or inferred by the generic adapter otherwise.
 * The adapters come in their own module (siteReader.ts), only into pages they claim; their reading
 * is checked against the generic one there.
 */
import type { ActionKind, SignIn } from '../shared/pageProtocol.ts';
import { genericActionKind } from './actionWords.ts';
import { EDITABLE_CANDIDATES, editableFrom, isHiddenInput, isVisible, type Editable } from './editables.ts';
import { isFormattingControl } from './formattingControls.ts';
import { sitesHook } from './sitesHook.ts';

export interface LocatedField {
  name: string;
  label: string;
  editable: Editable;
  draftIfNonEmpty: boolean;
  /** The element the adapter's selector (or the generic scan) pointed at; the editable is in it. */
  located: Element;
}

export interface LocatedAction {
  name: string;
  kind: ActionKind;
  label: string;
  element: HTMLElement;
}

/** A named read-only region: its text, and its element when it has one (for markdown). */
export interface ReadableRegion {
  text(): string;
  element(): Element | null;
}

export interface PageModel {
  adapterId: string;
  /** Why the adapter's reading was replaced or extended by the generic one; absent when it was not. */
  adapterProblem?: string;
  fields: LocatedField[];
  actions: LocatedAction[];
  /** Named read-only regions, read only when a request asks for them by name. */
  readable: Map<string, ReadableRegion>;
  signIn: SignIn;
  draftBanner: boolean;
}

export function textOf(element: Element | null | undefined): string {
  return ((element as HTMLElement | null | undefined)?.innerText ?? element?.textContent ?? '').trim();
}

export function elementRegion(find: () => Element | null): ReadableRegion {
  return { text: () => textOf(find()), element: find };
}

const TITLE_HINT = /title|subject|제목/i;
const SIGN_OUT = /^(log ?out|sign ?out|로그아웃)$/i;
const SIGN_IN = /^(log ?in|sign ?in|로그인)$/i;
/** What the text of a sign-in or sign-out link holds at least. */
const SIGN_WORDS = /log|sign|로그/i;
const ACCOUNT_SELECTORS = ['[data-account]', '.account-name', '.user-name', '.username', '.nickname', '.profile-name'];

function slug(text: string, fallback: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return cleaned || fallback;
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${wanted}_${suffix}`;
  taken.add(name);
  return name;
}

function area(element: Element): number {
  const target = element.tagName.toLowerCase() === 'body' ? (element.ownerDocument.defaultView?.frameElement ?? element) : element;
  const rect = target.getBoundingClientRect();
  return rect.width * rect.height;
}

function labelFor(element: Element): string {
  const html = element as HTMLInputElement;
  const id = html.id;
  const explicit = id ? element.ownerDocument.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
  return (textOf(explicit) || element.getAttribute('aria-label') || element.getAttribute('placeholder') || element.getAttribute('name') || id || '').slice(
    0,
    200,
  );
}

/** An editable the generic scan found, and the candidate element it found it from. */
export interface GenericEditable {
  element: Element;
  editable: Editable;
}

/**
 * The visible editables on the page, one per editor, in document order: what the generic adapter
 * names fields after. Visibility is checked last, only for candidates that hold an editable (radios,
 * checkboxes and frames without an editor need no layout read); every check is a pure read, so the
 * order does not change which editables are found. Editables `leaveOut` picks are left out before
 * their visibility is read (with every candidate that leads to the same editor).
 */
export function genericEditables(doc: Document, leaveOut?: (editable: Editable) => boolean): GenericEditable[] {
  const editables: GenericEditable[] = [];
  const seen = new Set<Element>();
  for (const element of Array.from(doc.querySelectorAll(EDITABLE_CANDIDATES))) {
    if (isHiddenInput(element)) continue;
    const editable = editableFrom(element);
    if (!editable || seen.has(editable.element)) continue;
    if (editable.kind === 'contenteditable' && editable.element.parentElement?.isContentEditable) continue;
    if (leaveOut?.(editable) || !isVisible(element)) continue;
    seen.add(editable.element);
    editables.push({ element, editable });
  }
  return editables;
}

/** The generic adapter's fields: a title input, the largest text area or editor as body, then the rest. */
export function inferFields(doc: Document, taken: Set<string>): LocatedField[] {
  return namedFields(genericEditables(doc), taken);
}

/** Names and labels the generic editables: the title, the body, then the rest (30 at most). */
export function namedFields(editables: GenericEditable[], taken: Set<string>): LocatedField[] {
  const fields: LocatedField[] = [];
  const title = editables.find(
    ({ element, editable }) =>
      editable.kind === 'input' &&
      TITLE_HINT.test(
        `${element.getAttribute('name') ?? ''} ${element.id} ${element.getAttribute('placeholder') ?? ''} ${element.getAttribute('aria-label') ?? ''}`,
      ),
  );
  if (title)
    fields.push({
      name: uniqueName('title', taken),
      label: labelFor(title.element) || 'Title',
      editable: title.editable,
      draftIfNonEmpty: false,
      located: title.element,
    });
  const bodies = editables.filter(({ editable }) => editable.kind !== 'input' && editable.kind !== 'select').sort((a, b) => area(b.element) - area(a.element));
  const body = bodies[0];
  if (body)
    fields.push({
      name: uniqueName('body', taken),
      label: labelFor(body.element) || 'Body',
      editable: body.editable,
      draftIfNonEmpty: false,
      located: body.element,
    });
  for (const { element, editable } of editables) {
    if (element === title?.element || element === body?.element || fields.length >= 30) continue;
    const wanted = slug(element.getAttribute('name') ?? element.id ?? '', `field_${fields.length + 1}`);
    fields.push({ name: uniqueName(wanted, taken), label: labelFor(element), editable, draftIfNonEmpty: false, located: element });
  }
  return fields;
}

export function inferActions(doc: Document): LocatedAction[] {
  const actionNames = new Set<string>();
  const actions: LocatedAction[] = [];
  for (const element of Array.from(doc.querySelectorAll<HTMLElement>('button, input[type="submit"], [role="button"]'))) {
    if (actions.length >= 30 || !isVisible(element) || isFormattingControl(element)) continue;
    const label = (textOf(element) || (element as HTMLInputElement).value || element.getAttribute('aria-label') || '').slice(0, 200);
    if (!label) continue;
    const kind = genericActionKind(label);
    actions.push({ name: uniqueName(slug(label, 'action'), actionNames), kind, label, element });
  }
  return actions;
}

export function inferReadable(doc: Document): Map<string, ReadableRegion> {
  const readable = new Map<string, ReadableRegion>();
  readable.set('title', { text: () => doc.title, element: () => null });
  const main = doc.querySelector('article, main, [role="main"]');
  if (main)
    readable.set(
      'main',
      elementRegion(() => main),
    );
  return readable;
}

export function inferSignIn(doc: Document): SignIn {
  // Only links and buttons whose words could say it: innerText lays the page out, and a post with
  // 5,000 comments has 15,000 Reply / Like / Report buttons (0.14 s of innerText there). Their
  // textContent holds every character their innerText can show, so the filter drops none.
  const clickable = Array.from(doc.querySelectorAll('a, button')).filter((element) => SIGN_WORDS.test(element.textContent ?? ''));
  // Each one's text is read once, for both tests below.
  const texts: Array<string | undefined> = [];
  const textAt = (index: number): string => (texts[index] ??= textOf(clickable[index]));
  let signIn: SignIn = { state: 'unknown', account: null, via: 'generic' };
  if (clickable.some((_, index) => SIGN_OUT.test(textAt(index)))) {
    const account = ACCOUNT_SELECTORS.map((selector) => doc.querySelector(selector)).find((element) => element && textOf(element));
    signIn = { state: 'signed_in', account: account ? textOf(account) : null, via: 'generic:sign-out-link' };
  } else if (clickable.some((_, index) => SIGN_IN.test(textAt(index)))) {
    signIn = { state: 'signed_out', account: null, via: 'generic:sign-in-link' };
  }
  return signIn;
}

/** The generic adapter: infers a title and a body, other fields, actions and sign-in on any site. */
export function inferred(doc: Document): PageModel {
  return {
    adapterId: 'generic',
    fields: inferFields(doc, new Set()),
    actions: inferActions(doc),
    readable: inferReadable(doc),
    signIn: inferSignIn(doc),
    draftBanner: false,
  };
}

/** The page as the adapter that claims it reads it (once the site adapters are here), or as the generic model does. */
export function readPageModel(doc: Document = document): PageModel {
  return sitesHook()?.module?.read(doc) ?? inferred(doc);
}
