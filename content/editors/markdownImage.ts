/**
 * Images into a markdown editor that uploads on paste (CodeMirror 6's family `image`, via
 * `custom`): the site's own paste handler uploads the File and writes the image's markup into
 * the source, as GitHub's, GitLab's, Discourse's and Forem's composers do. Verified by text: the
 * field's source, read back (below: how), is what it was with exactly one image's markup inserted
 * at the caret (and the site's line breaks around it), in one of the forms sites write
 * (markdownImageText.ts): `![alt](stored-url)`, Discourse's `![name|WxH](upload://short.ext)`, or
 * GitHub's `<img width height alt src />`; the address http(s) or on the site (or Discourse's
 * short URL), never data:/blob:/empty (the placeholder a site shows while uploading is waited out,
 * with the limit of every upload; a data:/blob: image still there at the limit is taken out).
 *
 * The alt: the site writes its own (the file's name, "image", or none). Tether then takes the
 * site's insertion back with the editor's undo (Ctrl+Z, as the person would; as many steps as the
 * site's placeholder and answer took, read back to the text before) and pastes the same insertion
 * with the alt as text, in the site's own form (Discourse's `|WxH` and GitHub's width and height
 * kept): one paste, one step of the person's undo, the address the site's.
 *
 * A failed upload: the site takes its placeholder out (the text is as it was: nothing to do), or
 * leaves it (taken out here, exactly that piece of text, by a delete of its range). A rollback
 * deletes exactly the markup this put in, read back. Without a paste handler (CodeMirror's own
 * paste inserts only a clipboard's text) nothing goes in: refused when nothing went into the source
 * and nothing on the whole page changed for NO_UPLOAD_QUIET_MS after the paste; a placeholder, or
 * anything on the page moving, waits out the limit.
 *
 * The source: read from the lines the editor draws when it has drawn all of them (no main world).
 * CodeMirror draws only what is near its viewport, and a longer document shows gaps instead of
 * lines: then it is read from CodeMirror's own state (`view.state.doc`, in the main world,
 * codemirrorMain.ts), believed only when every drawn run of lines is consecutive lines of it, and
 * a place far below is selected with the view's own dispatch (which draws it), believed when the
 * DOM's caret stands there.
 */
import { asTether, callWorker } from '../act/actHost.ts';
import { codemirrorAnswerSchema, type CodemirrorAnswer } from '../../shared/page/codemirrorCall.ts';
import { readEditable, type Editable } from '../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from './families/family.ts';
import { focus, paste, undoKeys, view, waitFor, waitForRead, waitQuiet } from './imageEvents.ts';
import { agreesWithDrawn, imageMarkups, lineAfter, lineOfOffset, storedUrl, uploadState, withAlt, type UploadState } from './markdownImageText.ts';
import { selectAndSync } from './settle.ts';
import { pageTransfer } from './pasteEvent.ts';

/** What each image this put in inserted (by its stored address): a rollback deletes exactly that. */
const insertedBy = new Map<string, string>();

/**
 * A drawn line whose text is its whole line: a `.cm-line` with no widget in it (CodeMirror's
 * widgets are contenteditable=false; a very long line is drawn in part, a LineGapWidget standing
 * for the rest — @codemirror/view 6.43.15 — and its text would read short).
 */
const wholeLine = (element: Element) => element.classList.contains('cm-line') && !element.querySelector('[contenteditable="false"]');

/** The editor's lines (its document, one `.cm-line` each), or null when it shows anything else (a gap of an undrawn part, a widget). */
function lineElements(root: HTMLElement): HTMLElement[] | null {
  const lines = Array.from(root.children) as HTMLElement[];
  return lines.every(wholeLine) ? lines : null;
}

/** The source as drawn, when the editor has drawn all of it (no gap), else null. */
function drawnSource(root: HTMLElement): string | null {
  const lines = lineElements(root);
  return lines ? lines.map((line) => line.textContent ?? '').join('\n') : null;
}

/** The runs of lines the editor has drawn, split where it shows anything else (a gap); a line drawn in part (a widget in it) by its text before the widget, ending its run. */
function drawnRuns(root: HTMLElement): Array<Array<string | { prefix: string }>> {
  const runs: Array<Array<string | { prefix: string }>> = [[]];
  for (const child of Array.from(root.children)) {
    if (wholeLine(child)) runs.at(-1)?.push(child.textContent ?? '');
    else if (child.classList.contains('cm-line')) {
      const widget = child.querySelector('[contenteditable="false"]');
      const range = child.ownerDocument.createRange();
      range.setStart(child, 0);
      if (widget) range.setEndBefore(widget);
      runs.at(-1)?.push({ prefix: widget ? range.toString() : '' });
      runs.push([]);
    } else if ((runs.at(-1) ?? []).length > 0) runs.push([]);
  }
  return runs.filter((run) => run.length > 0);
}

/** The DOM point of a text offset into the drawn source (drawnSource's: every line drawn). */
function pointAt(root: HTMLElement, offset: number): { node: Node; offset: number } | null {
  const lines = lineElements(root) ?? [];
  let left = offset;
  for (const line of lines) {
    const length = (line.textContent ?? '').length;
    if (left <= length) {
      const walker = line.ownerDocument.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const size = (node.textContent ?? '').length;
        if (left <= size) return { node, offset: left };
        left -= size;
      }
      return { node: line, offset: line.childNodes.length > 0 && line.lastChild?.nodeName === 'BR' ? 0 : line.childNodes.length };
    }
    left -= length + 1;
  }
  return null;
}

/** CodeMirror's own state, read in the main world (codemirrorMain.ts), for a document not all drawn. */
async function askState(editable: Editable, op: 'read' | 'select', extra: { from?: number; to?: number; length?: number } = {}): Promise<CodemirrorAnswer> {
  if (editable.frame) return { ok: false, reason: 'host', message: 'CodeMirror inside a frame is not called' };
  const index = Array.from(editable.doc.querySelectorAll('.cm-content')).indexOf(editable.element);
  if (index < 0) return { ok: false, reason: 'missing', message: 'the field is not a CodeMirror editor' };
  const answer = codemirrorAnswerSchema.safeParse(await callWorker({ kind: 'codemirror', op, index, ...extra }, 12_000));
  return answer.success ? answer.data : { ok: false, reason: 'invalid', message: 'The worker answered in an unexpected shape.' };
}

/**
 * The whole source: as drawn when the editor has drawn all of it; else CodeMirror's state, believed
 * only when every run of drawn lines is consecutive lines of it, in order (agreesWithDrawn; read
 * once more when the page drew a change between the two reads). Null: neither could be read.
 */
async function readSource(editable: Editable): Promise<string | null> {
  const drawn = drawnSource(editable.element);
  if (drawn !== null) return drawn;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const state = await askState(editable, 'read');
    if (state.ok && agreesWithDrawn(state.text, drawnRuns(editable.element))) return state.text;
    if (!state.ok && state.reason !== 'invalid') return null;
  }
  return null;
}

/** The DOM selection's place as a line of the drawn source and a column in it (for checking the state's selection). */
function domCaret(editable: Editable): { text: string; column: number } | null {
  const selection = editable.doc.getSelection();
  const node = selection?.focusNode ?? null;
  if (!selection || !node || !selection.isCollapsed) return null;
  let line: Node | null = node;
  while (line && line.parentNode !== editable.element) line = line.parentNode;
  if (!(line instanceof HTMLElement) || !line.classList.contains('cm-line')) return null;
  const range = editable.doc.createRange();
  range.setStart(line, 0);
  range.setEnd(node, selection.focusOffset);
  return { text: line.textContent ?? '', column: range.toString().length };
}

/**
 * Selects source[from, to) in `text` (what readSource answered). Drawn whole: a DOM selection
 * CodeMirror reads, as a person's. Otherwise the view's own selection (dispatch with
 * scrollIntoView, which draws that line), believed when CodeMirror has put the DOM's selection
 * there: a caret on a drawn line that reads as that line of `text`, at that column; a range whose
 * text is that piece of `text`.
 */
async function select(editable: Editable, from: number, to: number, text: string): Promise<boolean> {
  if (drawnSource(editable.element) === text) {
    const start = pointAt(editable.element, from);
    const end = pointAt(editable.element, to);
    const selection = editable.doc.getSelection();
    if (!start || !end || !selection) return false;
    const range = editable.doc.createRange();
    range.setStart(start.node, start.offset);
    range.setEnd(end.node, end.offset);
    await selectAndSync(editable.doc, () => {
      selection.removeAllRanges();
      selection.addRange(range);
    });
    return true;
  }
  const answer = await askState(editable, 'select', { from, to, length: text.length });
  if (!answer.ok || answer.text !== text || answer.anchor !== from || answer.head !== to) return false;
  const want = lineOfOffset(text, from);
  const wantText = text.split('\n')[want.line] ?? '';
  const placed = await waitFor(
    editable,
    () => {
      if (from !== to) return editable.doc.getSelection()?.toString() === text.slice(from, to) ? true : null;
      const caret = domCaret(editable);
      return caret && caret.text === wantText && caret.column === want.column ? true : null;
    },
    1500,
  );
  return placed === true;
}

function keys(editable: Editable, key: string, shift = false): void {
  const win = view(editable);
  const init = { key, code: `Key${key.toUpperCase()}`, ctrlKey: true, shiftKey: shift, bubbles: true, cancelable: true, composed: true };
  editable.element.dispatchEvent(new win.KeyboardEvent('keydown', init));
  editable.element.dispatchEvent(new win.KeyboardEvent('keyup', init));
}

/** Waits until the source reads `want` (true), or the limit passes (false). */
async function sourceBecomes(editable: Editable, want: string, limitMs = 3000): Promise<boolean> {
  return (await waitForRead(editable, async () => ((await readSource(editable)) === want ? true : null), limitMs)) === true;
}

/**
 * Deletes `piece` at source[from] through the editor's own input handling, read back. Only while
 * the source still holds exactly that piece there: between the read that found it and this one
 * the person may have typed, or the site swapped its placeholder (then nothing is deleted).
 */
async function deleteRange(editable: Editable, from: number, piece: string): Promise<boolean> {
  const now = await readSource(editable);
  if (now === null || piece === '' || now.slice(from, from + piece.length) !== piece) return false;
  const length = piece.length;
  const want = now.slice(0, from) + now.slice(from + length);
  focus(editable);
  if (!(await select(editable, from, from + length, now))) return false;
  asTether(() => editable.doc.execCommand('delete', false));
  return sourceBecomes(editable, want);
}

/**
 * The site's insertion taken back with the editor's undo until the source reads `before` (the
 * site may have made it two steps: its placeholder, then the answer). Anything else read back
 * (the undo took something that was not the site's) is redone, and false says so.
 */
async function undoInsertion(editable: Editable, before: string, at: number): Promise<boolean> {
  let undone = 0;
  for (let step = 0; step < 3; step += 1) {
    const was = await readSource(editable);
    asTether(() => undoKeys(editable));
    undone += 1;
    await waitForRead(editable, async () => ((await readSource(editable)) !== was ? true : null), 2000);
    const now = await readSource(editable);
    if (now === before) return true;
    if (now === null || was === null) break;
    const state = uploadState(before, now, editable.doc.baseURI, at);
    // Still the site's piece, only part undone (its placeholder): once more.
    if (now !== was && state.state !== 'other' && state.state !== 'waiting' && state.at === at) continue;
    break;
  }
  for (; undone > 0; undone -= 1) asTether(() => keys(editable, 'y'));
  return false;
}

/**
 * How long after the paste the source and the whole page may stay still before the editor is
 * called one whose paste does not upload. Markdown composers put their placeholder in at the
 * paste (GitHub's `![Uploading …]()`, Discourse's `[Uploading: …]()`), and sites show an upload's
 * progress somewhere; a page that shows nothing at all for this long has taken no upload. Anything
 * that moves (a placeholder, a progress bar, any change on the page) waits out the limit instead.
 */
export const NO_UPLOAD_QUIET_MS = 3000;

/** When anything in the page last changed (a sign of a site at work), since `mark()` (the paste). */
function pageStill(doc: Document): { mark(): void; quietFor(): number; since(): number; stop(): void } {
  let start = Date.now();
  let last = start;
  const observer = new MutationObserver(() => {
    last = Date.now();
  });
  observer.observe(doc.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
  return {
    mark: () => {
      start = Date.now();
      last = start;
    },
    quietFor: () => Date.now() - last,
    since: () => Date.now() - start,
    stop: () => observer.disconnect(),
  };
}

async function insertMarkdownImage(request: CustomImageInsert): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const refuse = (problem: string, src?: string): CustomImageOutcome => ({ ok: false, problem, text: readEditable(editable), ...(src ? { src } : {}) });
  // CodeMirror's history (@codemirror/commands newGroupDelay, 500 ms) joins changes close in time: the image is a step of its own.
  await waitQuiet(editable, 500, 1500);
  const before = await readSource(editable);
  if (before === null) return refuse('the editor shows only part of its document, and its own state could not be read to check the rest');
  const lines = before.split('\n');
  let at = before.length;
  if (after !== undefined) {
    const found = lineAfter(lines, after);
    if ('problem' in found) return refuse(found.problem);
    at = lines.slice(0, found.line + 1).join('\n').length;
  }
  const previousFocus = document.activeElement;
  const still = pageStill(editable.doc);
  try {
    focus(editable);
    if (!(await select(editable, at, at, before))) return refuse('the page gives no selection to place the image at');
    const win = view(editable);
    const data = pageTransfer(win, { files: [file] });
    still.mark();
    asTether(() => paste(editable, data));
    const base = editable.doc.baseURI;
    const limitMs = request.limitMs ?? 30_000;
    let shown = false;
    let last = { state: 'waiting' } as UploadState;
    const settled = await waitForRead<UploadState | 'gone' | 'no-sign'>(
      editable,
      async () => {
        const now = await readSource(editable);
        if (now === null) {
          last = { state: 'other', why: 'the editor’s text could not be read back' };
          return last;
        }
        last = uploadState(before, now, base, at);
        if (last.state !== 'waiting') shown = true;
        else if (shown) return 'gone';
        // Nothing in the source and nothing anywhere on the page since the paste: the site shows no sign of an upload.
        else if (still.quietFor() >= NO_UPLOAD_QUIET_MS && still.since() >= NO_UPLOAD_QUIET_MS) return 'no-sign';
        return last.state === 'stored' ? last : null;
      },
      limitMs,
    );
    if (settled === 'gone') return refuse('the editor took the image’s placeholder out again: the site’s upload failed');
    if (settled === 'no-sign')
      return refuse(
        `the editor did not take the image: nothing went into its text and nothing on the page moved in ${NO_UPLOAD_QUIET_MS / 1000} s after the paste, so its paste does not upload images (Tether never writes a link instead)`,
      );
    if (!settled || settled.state !== 'stored') {
      const seconds = Math.round(limitMs / 1000);
      if (last.state === 'waiting')
        return refuse(`the editor did not take the image in ${seconds} s: its paste does not upload images (Tether never writes a link instead)`);
      if (last.state === 'uploading') {
        // Deleted by its range; where that cannot be selected (a line drawn in part: a long data: address), by the editor's undo, read back to the text before.
        const gone = (await deleteRange(editable, last.at, last.inserted)) || (await undoInsertion(editable, before, last.at));
        const what = last.local ? 'its image' : 'its placeholder';
        const taken = gone ? `; ${what} was taken out` : `, and ${what} could not be taken out`;
        // A data: or blob: address is the page's own bytes: no copy the site stored (the post would carry it inline, or lose it).
        if (last.local) return refuse(`the site wrote the image at a data: or blob: address, not a copy it stored, for ${seconds} s${taken}`);
        return refuse(`the site’s upload did not finish in ${seconds} s${taken}`);
      }
      return refuse(
        `the text changed in a way Tether did not expect with the image (${last.state === 'other' ? last.why : 'no image'}); nothing was taken out`,
      );
    }
    let { inserted } = settled;
    const { src, markup } = settled;
    let path = 'paste-file';
    if (alt !== '' && markup.alt !== alt) {
      path = 'paste-file+repaste';
      const wanted = withAlt(inserted, markup, alt);
      if (!(await undoInsertion(editable, before, settled.at))) {
        return refuse('the editor’s undo did not take the site’s image markup back, so its alt could not be set', src);
      }
      if (!(await select(editable, settled.at, settled.at, before))) return refuse('the page gives no selection to place the image at');
      const text = pageTransfer(win, { strings: [['text/plain', wanted]] });
      asTether(() => paste(editable, text));
      const want = before.slice(0, settled.at) + wanted + before.slice(settled.at);
      if (!(await sourceBecomes(editable, want))) return refuse('the editor did not keep the image’s markup with its alt', src);
      inserted = wanted;
    }
    // Read back once more: exactly the one markup, at the stored address, with the alt.
    const now = uploadState(before, (await readSource(editable)) ?? '', base, settled.at);
    if (now.state !== 'stored' || now.src !== src || (alt !== '' && now.markup.alt !== alt) || now.inserted !== inserted) {
      return refuse('the editor did not keep the image’s markup as written', src);
    }
    insertedBy.set(src, inserted);
    return { ok: true, src, text: readEditable(editable), path };
  } finally {
    still.stop();
    if (previousFocus instanceof HTMLElement && previousFocus !== document.body) previousFocus.focus({ preventScroll: true });
  }
}

/** A rollback's: exactly the markup this put in for `src` out of the source, read back (a markup for it written otherwise: that markup only). */
async function removeMarkdownImage(request: { editable: Editable; src: string }): Promise<boolean> {
  const { editable, src } = request;
  const now = await readSource(editable);
  if (now === null) return false;
  const inserted = insertedBy.get(src);
  const at = inserted === undefined ? -1 : now.indexOf(inserted);
  if (inserted !== undefined && at >= 0 && now.indexOf(inserted, at + 1) < 0) {
    const gone = await deleteRange(editable, at, inserted);
    if (gone) insertedBy.delete(src);
    return gone;
  }
  const held = imageMarkups(now).filter((markup) => storedUrl(markup.url, editable.doc.baseURI, markup.form) === src);
  if (held.length === 0) return true;
  if (held.length > 1 || !held[0]) return false;
  return deleteRange(editable, held[0].start, now.slice(held[0].start, held[0].end));
}

export const markdownPasteImage: ImageUpload = {
  via: 'custom',
  alt: 'repaste',
  quietMs: 500,
  insert: insertMarkdownImage,
  remove: removeMarkdownImage,
  checked:
    '@codemirror/view 6.43.15 EditorView.domEventHandlers paste/drop, EditorView.findFromDOM (cmTile.root.view; 6.x before it cmView.rootView.view), InputState.handlers; @codemirror/commands 6.11.1 history (newGroupDelay 500, Mod-z/Mod-y); placeholders as GitHub’s and Discourse’s composers write them; the codemirror page of e2e images.spec with a paste handler uploading to the site, 2026-12-01',
};
