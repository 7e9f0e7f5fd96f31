/**
 * Writing SmartEditor ONE (Naver Blog, Naver Cafe) by the path its model honours, and checking
 * every word the page says.
 *
 * 1. `document-service`: the editor's own document model, read and written in the page's main
 *    world (SmartEditor._editors.<key>.getDocumentData / setDocumentData, as public posting
 *    scripts do), through the worker, for the bound document only, on the Naver adapters' hosts
 *    only (background/adapters/mainWorld.ts), once per call. Only fields a Naver adapter marks
 *    (`smartEditor`) take this path. Before writing, the model must read as what the page shows
 *    (the isolated world reads the rendered document); after, the model must hold the write AND
 *    the rendered document must show it.
 * 2. `buffer-paste`, where that model is missing or shaped otherwise: one synthetic paste into the
 *    editor's hidden input buffer, at the end of the title or the body (a click there puts the
 *    caret). It can add to a field, or fill an empty one; it cannot replace or clear text (the
 *    editor's select-all takes the whole document, title included), so those are refused with
 *    nothing sent. Read back from the rendered document alone.
 *
 * Ctrl+Z: a setDocumentData write is not in the editor's undo history as far as anyone has
 * shown (the record is silent; the suite's fixture clears the history on setDocumentData), so the
 * step result says `undo: "tether"` (Tether's rollback puts it back, the person's Ctrl+Z does
 * not); a paste is an edit the editor records, `undo: "editor"`. No path that writes a whole
 * field exactly keeps the editor's undo, so the model path is used where it exists.
 */
import { normalizeFieldText } from '../../../shared/page/fieldText.ts';
import { UPLOAD_WAIT_MS, type ImageType as SmartEditorUploadType } from '../../../shared/imageBytes.ts';
import {
  MAX_MODEL_CHARS,
  type SmartEditorAnswer,
  type SmartEditorCall,
  type SmartEditorRef,
  smartEditorAnswerSchema,
} from '../../../shared/page/smartEditorCall.ts';
import { asTether, callWorker } from '../../act/actHost.ts';
import { settle } from '../settle.ts';
import type { Mode, Payload } from '../../pageTypes.ts';
import { blocksOf } from './blocks.ts';
import type { FamilyDriver } from '../families/family.ts';
import { caretTarget, documentRoot, renderedCounts, renderedText, TITLE } from './rendered.ts';
import {
  bodyComponents,
  bodyText,
  buildComponents,
  countConstructs,
  documentAfter,
  keptAndDropped,
  MODEL_NAMES,
  parseDocumentData,
  titleText,
  type Block,
  type Inline,
  type JsonObject,
  type ModelName,
  type SeDocumentData,
} from './seModel.ts';

export interface SmartEditorField {
  element: HTMLElement;
  doc: Document;
  smartEditor?: SmartEditorRef;
}

export type { SmartEditorRef };
export type SmartEditorPath = 'document-service' | 'buffer-paste';

export interface SmartEditorOutcome {
  path: SmartEditorPath | null;
  tried: SmartEditorPath[];
  verified: boolean;
  /** The field's text as the page shows it now. */
  text: string;
  kept: string[];
  dropped: string[];
  /** Whether the person's Ctrl+Z undoes the write ("editor"), or only Tether's rollback does ("tether"). */
  undo?: 'editor' | 'tether';
  /** What each path met (why nothing was written, why a path was passed over). */
  why?: string;
  /** False when nothing was sent to the editor (a model read, a check, then no write). */
  sent?: false;
}

export interface SmartEditorSnapshot {
  part: 'title' | 'body';
  title: string;
  body: string;
  /** The editor's model as it was (the page's word, checked against the page when taken); null: read from the page alone. */
  model: string | null;
}

/** Comparing rendered text: blank lines and runs of spaces do not count (the editor normalizes both). */
export function loose(text: string): string {
  return normalizeFieldText(text)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** A v4 UUID, as the editor's own ids ("SE-" + uuid); getRandomValues, since randomUUID needs a secure context. */
export function random(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type CallBody =
  { op: 'read' } | { op: 'write'; data: string; title: string | null } | { op: 'upload'; name: string; type: SmartEditorUploadType; bytes: string };

export async function callModel(ref: SmartEditorRef, request: CallBody): Promise<SmartEditorAnswer> {
  const call = { ...request, frame: ref.frame, key: ref.key } as SmartEditorCall;
  // An upload waits for the site's answer (UPLOAD_WAIT_MS, as every family's upload does).
  const parsed = smartEditorAnswerSchema.safeParse(await callWorker(call, request.op === 'upload' ? UPLOAD_WAIT_MS + 5_000 : 20_000));
  return parsed.success ? parsed.data : { ok: false, reason: 'invalid', message: 'The worker answered in an unexpected shape.' };
}

export function rendered(field: SmartEditorField): { root: HTMLElement; title: string; body: string } | null {
  const root = documentRoot(field.element);
  return root ? { root, title: renderedText(root, 'title'), body: renderedText(root, 'body') } : null;
}

/** The model, if it reads as what the page shows (what the page says of it is never believed alone). */
export async function checkedModel(
  field: SmartEditorField,
  ref: SmartEditorRef,
): Promise<{ data: SeDocumentData; text: string } | { fallback: string } | { refuse: string }> {
  const answer = await callModel(ref, { op: 'read' });
  if (!answer.ok) {
    const why = `document-service: ${answer.reason}${answer.message ? ` (${answer.message})` : ''}`;
    // No model, or one shaped otherwise (Naver renamed it), or not a page Tether calls: the buffer is the way left.
    return answer.reason === 'missing' || answer.reason === 'shape' || answer.reason === 'host' ? { fallback: why } : { refuse: why };
  }
  const data = parseDocumentData(answer.data);
  if (!data) return { fallback: 'document-service: the model is not shaped as SmartEditor ONE documents are' };
  const page = rendered(field);
  if (!page || loose(titleText(data)) !== loose(page.title) || loose(bodyText(data)) !== loose(page.body)) {
    return { refuse: 'document-service: the editor’s model does not read as what the page shows; Tether writes neither way' };
  }
  return { data, text: answer.data };
}

/** Waits until the page shows `title` and `body` (or stops changing); true when it does. */
export async function shows(field: SmartEditorField, title: string, body: string): Promise<boolean> {
  const check = () => {
    const page = rendered(field);
    return page !== null && loose(page.title) === loose(title) && loose(page.body) === loose(body);
  };
  const root = documentRoot(field.element);
  return settle(root ? [root] : [field.doc.body], check, { quietMs: 250, deadlineMs: 5000 });
}

function payloadBlocks(mode: Mode, payload: Payload | null): { blocks: Block[]; unplaced: string[] } {
  if (mode === 'clear' || !payload) return { blocks: [], unplaced: [] };
  return blocksOf(payload);
}

/** kept: in the model and, where the record says how it renders, on the page too; dropped: the rest. */
function report(
  written: JsonObject[],
  before: SeDocumentData,
  after: SeDocumentData,
  mode: Mode,
  root: HTMLElement | null,
  beforeCounts: Partial<Record<ModelName, number>>,
  extra: string[],
) {
  const counts = keptAndDropped(countConstructs(written), countConstructs(bodyComponents(before)), countConstructs(bodyComponents(after)), mode);
  const shown = root ? renderedCounts(root) : {};
  const writtenCounts = countConstructs(written);
  const kept: string[] = [];
  const dropped: string[] = [...counts.dropped];
  for (const name of counts.kept) {
    const now = shown[name];
    const gained = now === undefined ? Infinity : mode === 'fill' ? now : now - (beforeCounts[name] ?? 0);
    (gained >= writtenCounts[name] ? kept : dropped).push(name);
  }
  return { kept, dropped: [...dropped, ...extra] };
}

/** fill / append / clear one part through the model; null when that path is not there (fall back). */
async function throughModel(
  field: SmartEditorField,
  ref: SmartEditorRef,
  mode: Mode,
  payload: Payload | null,
  removed: string[],
): Promise<SmartEditorOutcome | { fallback: string }> {
  const found = await checkedModel(field, ref);
  if ('fallback' in found) return found;
  const tried: SmartEditorPath[] = ['document-service'];
  const text = () => (field.smartEditor?.part === 'title' ? rendered(field)?.title : rendered(field)?.body) ?? '';
  if ('refuse' in found) return { path: null, tried, verified: false, text: text(), kept: [], dropped: [], why: found.refuse, sent: false };
  const { data } = found;
  const root = documentRoot(field.element);
  const beforeCounts = root ? renderedCounts(root) : {};
  let written: JsonObject[] = [];
  let unplaced: string[] = [];
  let next: JsonObject;
  if (ref.part === 'title') {
    // The title is one line of text: what a step carries there is its text.
    const line = payload ? payload.htmlText.split('\n').join(' ') : '';
    next = documentAfter(data, 'title', mode, line, random);
  } else {
    const converted = payloadBlocks(mode, payload);
    unplaced = converted.unplaced;
    written = buildComponents(converted.blocks, random);
    next = documentAfter(data, 'body', mode, written, random);
  }
  const nextText = JSON.stringify(next);
  const expected = parseDocumentData(nextText);
  if (!expected || nextText.length > MAX_MODEL_CHARS)
    return { path: null, tried, verified: false, text: text(), kept: [], dropped: [], why: 'document-service: the document would be too large', sent: false };
  // A write in the main world fires no trusted input event: it is never taken for the person's edit.
  const answer = await callModel(ref, { op: 'write', data: nextText, title: titleText(expected) });
  const wantTitle = titleText(expected);
  const wantBody = bodyText(expected);
  if (!answer.ok) {
    // It threw or failed: whatever it says, the page is checked for a change it left.
    const unchanged = await shows(field, titleText(data), bodyText(data));
    return {
      path: unchanged ? null : 'document-service',
      tried,
      verified: false,
      text: text(),
      kept: [],
      dropped: [],
      undo: 'tether',
      why: `document-service: ${answer.reason}${answer.message ? ` (${answer.message})` : ''}`,
    };
  }
  const after = parseDocumentData(answer.data);
  const modelHolds = after !== null && loose(titleText(after)) === loose(wantTitle) && loose(bodyText(after)) === loose(wantBody);
  const pageShows = await shows(field, wantTitle, wantBody);
  const verified = modelHolds && pageShows;
  const outcome: SmartEditorOutcome = { path: 'document-service', tried, verified, text: text(), kept: [], dropped: [], undo: 'tether' };
  if (!verified)
    outcome.why = !modelHolds
      ? 'document-service: the editor’s model does not hold the write'
      : 'document-service: the page does not show what the editor’s model says';
  if (verified && after && ref.part === 'body' && payload && payload.format !== 'text') {
    const { kept, dropped } = report(written, data, after, mode, root, beforeCounts, [...unplaced, ...removed]);
    outcome.kept = kept;
    outcome.dropped = dropped;
  }
  return outcome;
}

// ---- the input buffer ----

function bufferBody(field: SmartEditorField): HTMLElement | null {
  const frame = field.doc.querySelector<HTMLIFrameElement>('iframe[id^="input_buffer"]');
  try {
    return frame?.contentDocument?.body ?? null;
  } catch {
    return null;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Blocks as the HTML a paste carries: a <div> per paragraph (so styles do not bleed into the next: HAN). */
function pasteHtml(blocks: Block[]): string {
  const inline = (inlines: Inline[]) =>
    inlines
      .map((run) => {
        let html = escapeHtml(run.text);
        if (run.strike) html = `<s>${html}</s>`;
        if (run.italic) html = `<i>${html}</i>`;
        if (run.bold) html = `<b>${html}</b>`;
        if (run.link) html = `<a href="${escapeHtml(run.link)}">${html}</a>`;
        return html;
      })
      .join('') || '<br>';
  let html = '';
  let list: 'bullet' | 'decimal' | null = null;
  const close = () => {
    if (list) html += list === 'bullet' ? '</ul>' : '</ol>';
    list = null;
  };
  for (const block of blocks) {
    if (block.kind === 'quotation') {
      close();
      html += `<blockquote>${block.paragraphs.map((runs) => `<p>${inline(runs)}</p>`).join('')}</blockquote>`;
      continue;
    }
    const type = block.list?.type ?? null;
    if (type !== list) {
      close();
      if (type) html += type === 'bullet' ? '<ul>' : '<ol>';
      list = type;
    }
    if (type) html += `<li>${inline(block.inlines)}</li>`;
    else if (block.heading) html += `<h${block.heading}>${inline(block.inlines)}</h${block.heading}>`;
    else html += `<div>${inline(block.inlines)}</div>`;
  }
  close();
  return html;
}

function bufferCounts(root: HTMLElement | null): Partial<Record<ModelName, number>> {
  return root ? renderedCounts(root) : {};
}

async function throughBuffer(
  field: SmartEditorField,
  part: 'title' | 'body',
  mode: Mode,
  payload: Payload | null,
  removed: string[],
  why: string,
): Promise<SmartEditorOutcome> {
  const page = rendered(field);
  const body = bufferBody(field);
  const current = part === 'title' ? (page?.title ?? '') : (page?.body ?? '');
  const nothing = (reason: string): SmartEditorOutcome => ({
    path: null,
    tried: [],
    verified: false,
    text: current,
    kept: [],
    dropped: [],
    why: `${why}; buffer-paste: ${reason}`,
    sent: false,
  });
  if (!page || !body) return nothing('no input buffer');
  if (mode === 'clear' || (mode === 'fill' && loose(current) !== ''))
    return nothing('the input buffer cannot select one field’s text alone (its select-all takes the whole document)');
  const target = caretTarget(page.root, part);
  if (!target) return nothing('no place to put the caret');
  const converted = part === 'body' && payload ? blocksOf(payload) : { blocks: [], unplaced: [] };
  const line = payload ? payload.htmlText.split('\n').join(' ') : '';
  const startsBlock = part === 'body' && loose(current) !== '';
  const blocks: Block[] = [...(startsBlock ? [{ kind: 'paragraph' as const, inlines: [] }] : []), ...converted.blocks];
  const beforeCounts = bufferCounts(page.root);
  asTether(() => {
    // A click puts the editor's caret at the end of the paragraph (and focus in its buffer).
    const view = field.doc.defaultView ?? window;
    target.dispatchEvent(new view.MouseEvent('mousedown', { bubbles: true, cancelable: true, view }));
    target.dispatchEvent(new view.MouseEvent('mouseup', { bubbles: true, cancelable: true, view }));
    const bufferView = (body.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
    const data = new bufferView.DataTransfer();
    if (part === 'title') data.setData('text/plain', line);
    else {
      data.setData('text/html', pasteHtml(blocks));
      data.setData('text/plain', payload?.text ?? '');
    }
    body.focus({ preventScroll: true });
    body.dispatchEvent(new bufferView.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  const wantPart =
    part === 'title'
      ? current + line
      : [
          current,
          ...blocks.map((block) =>
            block.kind === 'quotation'
              ? block.paragraphs.map((runs) => runs.map((run) => run.text).join('')).join('\n')
              : block.inlines.map((run) => run.text).join(''),
          ),
        ].join('\n');
  const wantTitle = part === 'title' ? wantPart : page.title;
  const wantBody = part === 'body' ? wantPart : page.body;
  const verified = await shows(field, wantTitle, wantBody);
  const now = rendered(field);
  const text = part === 'title' ? (now?.title ?? '') : (now?.body ?? '');
  const changed = loose(text) !== loose(current);
  const outcome: SmartEditorOutcome = {
    path: changed ? 'buffer-paste' : null,
    tried: ['buffer-paste'],
    verified,
    text,
    kept: [],
    dropped: [],
    undo: 'editor',
    why,
  };
  if (!verified) outcome.why = `${why}; buffer-paste: ${changed ? 'the editor took the paste otherwise than sent' : 'the editor did not take the paste'}`;
  if (verified && part === 'body' && payload && payload.format !== 'text') {
    // No model to read: what the page shows is all there is (links, lists, quotations).
    const written = countConstructs(buildComponents(converted.blocks, random));
    const shown = bufferCounts(now?.root ?? null);
    for (const name of Object.values(MODEL_NAMES)) {
      if (written[name] === 0) continue;
      const seen = shown[name];
      if (seen === undefined) outcome.dropped.push(`unchecked: ${name}`);
      else (seen - (beforeCounts[name] ?? 0) >= written[name] ? outcome.kept : outcome.dropped).push(name);
    }
    outcome.dropped.push(...converted.unplaced, ...removed);
  }
  return outcome;
}

/** Writes one SmartEditor ONE field (title or body). */
export async function writeSmartEditor(field: SmartEditorField, part: 'title' | 'body', mode: Mode, payload: Payload | null): Promise<SmartEditorOutcome> {
  const removed = payload?.removed ?? [];
  const ref = field.smartEditor;
  let why = 'document-service: not a field a Naver adapter marks (no model path)';
  if (ref) {
    const viaModel = await throughModel(field, ref, mode, payload, removed);
    if (!('fallback' in viaModel)) return viaModel;
    why = viaModel.fallback;
    const outcome = await throughBuffer(field, part, mode, payload, removed, why);
    return { ...outcome, tried: ['document-service', ...outcome.tried] };
  }
  return throughBuffer(field, part, mode, payload, removed, why);
}

/** What a rollback puts back: the model when it reads as the page, else the page's text. */
export async function snapshotSmartEditor(field: SmartEditorField, part: 'title' | 'body'): Promise<SmartEditorSnapshot> {
  const page = rendered(field);
  const snapshot: SmartEditorSnapshot = { part, title: page?.title ?? '', body: page?.body ?? '', model: null };
  if (!field.smartEditor) return snapshot;
  const found = await checkedModel(field, field.smartEditor);
  if ('data' in found) snapshot.model = found.text;
  return snapshot;
}

/**
 * Puts the document back as the snapshot has it: through the model (setDocumentData of the
 * model as it was), or, with no model, the editor's own undo (Ctrl+Z in its buffer, which it may
 * ignore when synthetic). Verified like a write: the page must show the title and body it showed.
 */
export async function restoreSmartEditor(field: SmartEditorField, snapshot: SmartEditorSnapshot): Promise<boolean> {
  if (await shows(field, snapshot.title, snapshot.body)) return true;
  if (snapshot.model !== null && field.smartEditor) {
    const before = parseDocumentData(snapshot.model);
    const answer = await callModel(field.smartEditor, { op: 'write', data: snapshot.model, title: before ? titleText(before) : null });
    const after = answer.ok ? parseDocumentData(answer.data) : null;
    const modelHolds =
      after !== null && before !== null && loose(titleText(after)) === loose(titleText(before)) && loose(bodyText(after)) === loose(bodyText(before));
    return (await shows(field, snapshot.title, snapshot.body)) && modelHolds;
  }
  const body = bufferBody(field);
  if (!body) return false;
  asTether(() => {
    const view = (body.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
    body.focus({ preventScroll: true });
    body.dispatchEvent(new view.KeyboardEvent('keydown', { key: 'z', code: 'KeyZ', keyCode: 90, ctrlKey: true, bubbles: true, cancelable: true }));
  });
  return shows(field, snapshot.title, snapshot.body);
}

/** A field is the title when it is (or is in) the title component, else the body. */
function partOf(editable: { element: HTMLElement; smartEditor?: { part: 'title' | 'body' } }): 'title' | 'body' {
  return editable.smartEditor?.part ?? (editable.element.closest(TITLE) ? 'title' : 'body');
}

/** The family's driver (families/index.ts joins it to the smarteditor-one descriptor, in the act module only). */
export const smartEditorOneDriver: FamilyDriver = {
  write: (editable, mode, payload) => writeSmartEditor(editable, partOf(editable), mode, payload),
  snapshot: (editable) => snapshotSmartEditor(editable, partOf(editable)),
  restore: (editable, snapshot) => restoreSmartEditor(editable, snapshot as SmartEditorSnapshot),
};
