/**
 * Observe and inspect, inside one document. Small on purpose: an agent pays for every byte, so
 * the answer holds names, kinds, lengths and hashes, and text only for what was asked by name.
 */
import { fieldHash } from '../shared/fieldText.ts';
import type { DraftState, FieldInfo, PageInspection, PageObservation } from '../shared/pageProtocol.ts';
import type { MarkdownReader } from './actHook.ts';
import { isFocused, readEditable, selectOptions, typingSurface } from './editables.ts';
import { elementId } from './elementIds.ts';
import { pageInstance } from './pageInstance.ts';
import { readPageModel, type LocatedField, type PageModel } from './pageModel.ts';
import { editedByPerson, watchDocument } from './personActivity.ts';

const MAX_TEXT = 50_000;

/** The hash Tether left in each field it wrote, so its own text is never taken for a person's draft. */
const lastTetherHash = new WeakMap<Element, string>();

export function rememberTetherWrite(element: Element, text: string): void {
  lastTetherHash.set(element, fieldHash(text));
}

function watchEditorFrames(model: PageModel): void {
  for (const field of model.fields) {
    if (field.editable.doc !== document) watchDocument(field.editable.doc);
    if (field.editable.buffer) watchDocument(field.editable.buffer.doc);
  }
}

/** A field's text and its hash, as read at one moment. */
interface FieldText {
  text: string;
  hash: string;
}

export type FieldReader = (field: LocatedField) => FieldText;

export function readFieldText(field: LocatedField): FieldText {
  const text = readEditable(field.editable);
  return { text, hash: fieldHash(text) };
}

/**
 * Reads each field once for one answer: the draft check and the field's description both need its
 * text, and a rich editor's text costs a layout pass. Only within one synchronous answer, where the
 * page cannot change in between.
 */
function onceEach(): FieldReader {
  const read = new Map<LocatedField, FieldText>();
  return (field) => {
    let found = read.get(field);
    if (!found) {
      found = readFieldText(field);
      read.set(field, found);
    }
    return found;
  };
}

function personDraftIn(field: LocatedField, readField: FieldReader): string | null {
  const { text, hash } = readField(field);
  if (text.trim() === '') return null;
  if (lastTetherHash.get(field.editable.element) === hash) return null;
  if (editedByPerson(typingSurface(field.editable))) return `person-typed:${field.name}`;
  if (field.draftIfNonEmpty && field.editable.kind !== 'select') return `unsaved-text:${field.name}`;
  return null;
}

export function draftState(model: PageModel, readField: FieldReader = readFieldText): DraftState {
  const reasons: string[] = [];
  if (model.draftBanner) reasons.push('autosave-banner');
  for (const field of model.fields) {
    const reason = personDraftIn(field, readField);
    if (reason) reasons.push(reason);
  }
  return { inProgress: reasons.length > 0, reasons };
}

export function observePage(model: PageModel = readPageModel(), readField: FieldReader = readFieldText): PageObservation {
  watchEditorFrames(model);
  return {
    url: location.href,
    title: document.title,
    pageInstance: pageInstance(),
    adapter: model.adapterId,
    ...(model.adapterProblem === undefined ? {} : { adapterProblem: model.adapterProblem }),
    signIn: model.signIn,
    draft: draftState(model, readField),
    fieldElements: Object.fromEntries(model.fields.map((field) => [field.name, elementId(field.editable.element)])),
  };
}

export function describeField(field: LocatedField, readField: FieldReader = readFieldText): FieldInfo {
  const { text, hash } = readField(field);
  const info: FieldInfo = {
    name: field.name,
    kind: field.editable.kind,
    label: field.label,
    length: text.length,
    hash,
    focused: isFocused(field.editable),
    editedByPerson: editedByPerson(typingSurface(field.editable)),
  };
  const options = selectOptions(field.editable);
  if (options) info.options = options;
  return info;
}

/**
 * `markdown` (from the act module) turns what `read` names into markdown; plain text without it.
 * `model` is the page as read for this request's last-moment checks, when they read it.
 */
export function inspectPage(read: string[], markdown: MarkdownReader | null = null, model: PageModel = readPageModel()): PageInspection {
  const readField = onceEach();
  const observation = observePage(model, readField);
  const inspection: PageInspection = {
    ...observation,
    fields: model.fields.map((field) => describeField(field, readField)),
    actions: model.actions.map((action) => ({
      name: action.name,
      kind: action.kind,
      label: action.label,
      ...(action.repeated === undefined ? {} : { repeated: action.repeated }),
    })),
    readable: [...model.readable.keys()],
  };
  if (read.length > 0) {
    const text: Record<string, string> = {};
    const unknown: string[] = [];
    for (const name of read) {
      const field = model.fields.find((candidate) => candidate.name === name);
      const region = model.readable.get(name);
      const element = region?.element() ?? null;
      if (field) text[name] = (markdown ? markdown.field(field.editable) : readField(field).text).slice(0, MAX_TEXT);
      else if (region) text[name] = (markdown && element ? markdown.region(element) : region.text()).slice(0, MAX_TEXT);
      else unknown.push(name);
    }
    inspection.text = text;
    if (unknown.length > 0) inspection.unknown = unknown;
  }
  return inspection;
}
