/**
 * Observe and inspect, inside one document. Small on purpose: an agent pays for every byte, so
 * the answer holds names, kinds, lengths and hashes, and text only for what was asked by name.
 */
import { fieldHash } from '../shared/page/fieldText.ts';
import type { DraftState, FieldInfo, PageInspection, PageObservation } from '../shared/page/pageProtocol.ts';
import { pieceOf, type Truncation } from '../shared/page/textPiece.ts';
import type { MarkdownReader } from './act/actContract.ts';
import { commentsIn, type CommentsRegion } from './commentsRegion.ts';
import { acceptOf, isFocused, readEditable, selectOptions, typingSurface } from './editables.ts';
import { elementId } from './elementIds.ts';
import { pageInstance } from './pageInstance.ts';
import { readPageModel, textOf, type LocatedField, type PageModel } from './pageModel.ts';
import { editedByPerson, watchDocument } from './personActivity.ts';
import { readerSlot } from './moduleSlot.ts';

/** Regions every page has (the reader view's article) or has where it keeps comments; a site adapter's own regions of these names win. */
const ARTICLE = 'article';
const COMMENTS = 'comments';

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
  if (field.editable.kind === 'file') {
    // What it takes ([]: any file) and whether one choice may hold several.
    info.accept = acceptOf(field.editable.element).slice(0, 20);
    info.multiple = (field.editable.element as HTMLInputElement).multiple;
  }
  return info;
}

/**
 * Whether reading `read` needs the reader module (Readability, the comments' text) in this page:
 * the article, where no adapter region gives it, and the comments, where the page has them.
 */
export function needsReader(read: string[]): boolean {
  // Whatever is read, its images are listed by the reader module (imageList.ts).
  return read.length > 0 && !readerSlot.module();
}

/**
 * The article: the adapter's post title and body where it has them (it knows the site; the reader
 * view guesses), else the reader view's; when that finds none or cannot read the page, the page's
 * main region (or body), and `fallback` says why.
 */
function articleText(model: PageModel, markdown: MarkdownReader | null, comments: CommentsRegion | null, fallback: Record<string, string>): string {
  const regionText = (name: string) => {
    const region = model.readable.get(name);
    const element = region?.element() ?? null;
    return region ? (markdown && element ? markdown.region(element) : region.text()) : '';
  };
  if (model.readable.has('post.body')) {
    const title = model.readable.get('post.title')?.text() ?? '';
    return [title && markdown ? `# ${title}` : title, regionText('post.body')].filter(Boolean).join('\n\n');
  }
  const reader = readerSlot.module();
  const reading = reader?.article(document, comments?.container ?? null, markdown && ((element) => markdown.region(element))) ?? {
    problem: 'The reader module is not in this page.',
  };
  if ('text' in reading) return reading.text;
  fallback[ARTICLE] = `${reading.problem} This is the page's main text, read without the reader view.`;
  const main = model.readable.get('main')?.element() ?? document.body;
  return markdown && main ? markdown.region(main) : textOf(main);
}

/**
 * `markdown` (from the act module) turns what `read` names into markdown; plain text without it.
 * `model` is the page as read for this request's last-moment checks, when they read it. `from`
 * says where each named text is read on from (a `truncated.next` of an earlier answer).
 */
export function inspectPage(
  read: string[],
  markdown: MarkdownReader | null = null,
  model: PageModel = readPageModel(),
  from: Record<string, number> = {},
): PageInspection {
  const readField = onceEach();
  const observation = observePage(model, readField);
  const comments = commentsIn(document);
  const readable = [...model.readable.keys()];
  if (!readable.includes(ARTICLE)) readable.push(ARTICLE);
  if (comments && !readable.includes(COMMENTS)) readable.push(COMMENTS);
  const inspection: PageInspection = {
    ...observation,
    fields: model.fields.map((field) => describeField(field, readField)),
    actions: model.actions.map((action) => ({
      name: action.name,
      kind: action.kind,
      label: action.label,
      ...(action.repeated === undefined ? {} : { repeated: action.repeated }),
    })),
    readable,
  };
  if (read.length > 0) {
    const text: Record<string, string> = {};
    const truncated: Record<string, Truncation> = {};
    const fallback: Record<string, string> = {};
    const unknown: string[] = [];
    for (const name of read) {
      const field = model.fields.find((candidate) => candidate.name === name);
      const region = model.readable.get(name);
      const element = region?.element() ?? null;
      let whole: string | null = null;
      if (field) whole = markdown ? markdown.field(field.editable) : readField(field).text;
      else if (region) whole = markdown && element ? markdown.region(element) : region.text();
      else if (name === ARTICLE) whole = articleText(model, markdown, comments, fallback);
      else if (name === COMMENTS && comments) whole = readerSlot.module()?.comments(comments.container, comments.count) ?? null;
      if (whole === null) {
        unknown.push(name);
        continue;
      }
      const piece = pieceOf(whole, from[name]);
      text[name] = piece.text;
      if (piece.truncated) truncated[name] = piece.truncated;
    }
    inspection.text = text;
    const images = readerSlot.module()?.images(read, model);
    if (images?.length) inspection.images = images;
    if (Object.keys(truncated).length > 0) inspection.truncated = truncated;
    if (Object.keys(fallback).length > 0) inspection.fallback = fallback;
    if (unknown.length > 0) inspection.unknown = unknown;
  }
  return inspection;
}
