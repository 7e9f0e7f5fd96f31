/**
 * Images into a markdown editor that uploads on paste (CodeMirror 6's family `image`, via
 * `custom`): the site's own paste handler uploads the File and writes the image's markup into
 * the source, as GitHub's, GitLab's, Discourse's and Forem's composers do. Verified by text: the
 * field's source, read back from the lines the editor renders of its document, is what it was
 * with exactly one `![alt](stored-url)` inserted at the caret (and the site's line breaks around
 * it), the address http(s) or on the site, never data:/blob:/empty (the placeholder a site shows
 * while uploading is waited out, with the limit of every upload).
 *
 * The alt: the site writes its own (the file's name, "image", or none). Tether then takes the
 * site's insertion back with the editor's undo (Ctrl+Z, as the person would; as many steps as the
 * site's placeholder and answer took, read back to the text before) and pastes the same insertion
 * with the alt as text: one paste, one step of the person's undo, the address the site's.
 *
 * A failed upload: the site takes its placeholder out (the text is as it was: nothing to do), or
 * leaves it (taken out here, exactly that piece of text, by a delete of its range). A rollback
 * deletes exactly the markup this put in, read back. Without a paste handler (CodeMirror's own
 * paste inserts only a clipboard's text) nothing goes in, and the step is refused after the limit.
 *
 * Read from the rendered lines: CodeMirror draws only what is near its viewport, and a document
 * longer than that shows gaps instead of lines; such a field is refused (read wrong, it would
 * verify wrong), as is one whose lines are not all `.cm-line`.
 */
import { asTether } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from './families/family.ts';
import { focus, paste, undoKeys, view, waitFor, waitQuiet } from './imageEvents.ts';
import { imageMarkups, lineAfter, storedUrl, uploadState, withAlt, type UploadState } from './markdownImageText.ts';
import { selectAndSync } from './settle.ts';
import { pageTransfer } from './pasteEvent.ts';

/** What each image this put in inserted (by its stored address): a rollback deletes exactly that. */
const insertedBy = new Map<string, string>();

/** The editor's lines (its document, one `.cm-line` each), or null when it shows anything else (a gap of an unrendered part). */
function lineElements(root: HTMLElement): HTMLElement[] | null {
  const lines = Array.from(root.children) as HTMLElement[];
  return lines.every((line) => line.classList.contains('cm-line')) ? lines : null;
}

function sourceOf(root: HTMLElement): string | null {
  const lines = lineElements(root);
  return lines ? lines.map((line) => line.textContent ?? '').join('\n') : null;
}

/** The DOM point of a text offset into the source (sourceOf's). */
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

async function select(editable: Editable, from: number, to: number): Promise<boolean> {
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

function keys(editable: Editable, key: string, shift = false): void {
  const win = view(editable);
  const init = { key, code: `Key${key.toUpperCase()}`, ctrlKey: true, shiftKey: shift, bubbles: true, cancelable: true, composed: true };
  editable.element.dispatchEvent(new win.KeyboardEvent('keydown', init));
  editable.element.dispatchEvent(new win.KeyboardEvent('keyup', init));
}

const source = (editable: Editable) => sourceOf(editable.element) ?? '';

/** Waits until the source reads `want` (true), or the limit passes (false). */
async function sourceBecomes(editable: Editable, want: string, limitMs = 3000): Promise<boolean> {
  return (await waitFor(editable, () => (sourceOf(editable.element) === want ? true : null), limitMs)) === true;
}

/** Deletes exactly source[from, from + length) through the editor's own input handling, read back. */
async function deleteRange(editable: Editable, from: number, length: number): Promise<boolean> {
  const now = source(editable);
  const want = now.slice(0, from) + now.slice(from + length);
  focus(editable);
  if (!(await select(editable, from, from + length))) return false;
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
    const was = source(editable);
    asTether(() => undoKeys(editable));
    undone += 1;
    await waitFor(editable, () => (source(editable) !== was ? true : null), 2000);
    const now = source(editable);
    if (now === before) return true;
    const state = uploadState(before, now, editable.doc.baseURI, at);
    // Still the site's piece, only part undone (its placeholder): once more.
    if (now !== was && state.state !== 'other' && state.state !== 'waiting' && state.at === at) continue;
    break;
  }
  for (; undone > 0; undone -= 1) asTether(() => keys(editable, 'y'));
  return false;
}

async function insertMarkdownImage(request: CustomImageInsert): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const refuse = (problem: string, src?: string): CustomImageOutcome => ({ ok: false, problem, text: readEditable(editable), ...(src ? { src } : {}) });
  // CodeMirror's history (@codemirror/commands newGroupDelay, 500 ms) joins changes close in time: the image is a step of its own.
  await waitQuiet(editable, 500, 1500);
  const before = sourceOf(editable.element);
  if (before === null) return refuse('the editor shows only part of its document (a long one): Tether cannot read it back whole here');
  const lines = before.split('\n');
  let at = before.length;
  if (after !== undefined) {
    const found = lineAfter(lines, after);
    if ('problem' in found) return refuse(found.problem);
    at = lines.slice(0, found.line + 1).join('\n').length;
  }
  const previousFocus = document.activeElement;
  try {
    focus(editable);
    if (!(await select(editable, at, at))) return refuse('the page gives no selection to place the image at');
    const win = view(editable);
    const data = pageTransfer(win, { files: [file] });
    asTether(() => paste(editable, data));
    const base = editable.doc.baseURI;
    let shown = false;
    let last = { state: 'waiting' } as UploadState;
    const settled = await waitFor<UploadState | 'gone'>(
      editable,
      () => {
        const now = sourceOf(editable.element);
        if (now === null) return { state: 'other', why: 'the editor shows only part of its document' };
        last = uploadState(before, now, base, at);
        if (last.state !== 'waiting') shown = true;
        else if (shown) return 'gone';
        return last.state === 'stored' ? last : null;
      },
      request.limitMs ?? 30_000,
    );
    if (settled === 'gone') return refuse('the editor took the image’s placeholder out again: the site’s upload failed');
    if (!settled || settled.state !== 'stored') {
      const seconds = Math.round((request.limitMs ?? 30_000) / 1000);
      if (last.state === 'waiting')
        return refuse(`the editor did not take the image in ${seconds} s: its paste does not upload images (Tether never writes a link instead)`);
      if (last.state === 'uploading') {
        const gone = await deleteRange(editable, last.at, last.inserted.length);
        return refuse(
          `the site’s upload did not finish in ${seconds} s${gone ? '; its placeholder was taken out' : ', and its placeholder could not be taken out'}`,
        );
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
      if (!(await select(editable, settled.at, settled.at))) return refuse('the page gives no selection to place the image at');
      const text = pageTransfer(win, { strings: [['text/plain', wanted]] });
      asTether(() => paste(editable, text));
      const want = before.slice(0, settled.at) + wanted + before.slice(settled.at);
      if (!(await sourceBecomes(editable, want))) return refuse('the editor did not keep the image’s markup with its alt', src);
      inserted = wanted;
    }
    // Read back once more: exactly the one markup, at the stored address, with the alt.
    const now = uploadState(before, source(editable), base, settled.at);
    if (now.state !== 'stored' || now.src !== src || (alt !== '' && now.markup.alt !== alt) || now.inserted !== inserted) {
      return refuse('the editor did not keep the image’s markup as written', src);
    }
    insertedBy.set(src, inserted);
    return { ok: true, src, text: readEditable(editable), path };
  } finally {
    if (previousFocus instanceof HTMLElement && previousFocus !== document.body) previousFocus.focus({ preventScroll: true });
  }
}

/** A rollback's: exactly the markup this put in for `src` out of the source, read back (a markup for it written otherwise: that markup only). */
async function removeMarkdownImage(request: { editable: Editable; src: string }): Promise<boolean> {
  const { editable, src } = request;
  const now = sourceOf(editable.element);
  if (now === null) return false;
  const inserted = insertedBy.get(src);
  const at = inserted === undefined ? -1 : now.indexOf(inserted);
  if (inserted !== undefined && at >= 0 && now.indexOf(inserted, at + 1) < 0) {
    const gone = await deleteRange(editable, at, inserted.length);
    if (gone) insertedBy.delete(src);
    return gone;
  }
  const held = imageMarkups(now).filter((markup) => storedUrl(markup.url, editable.doc.baseURI) === src);
  if (held.length === 0) return true;
  if (held.length > 1 || !held[0]) return false;
  return deleteRange(editable, held[0].start, held[0].end - held[0].start);
}

export const markdownPasteImage: ImageUpload = {
  via: 'custom',
  alt: 'repaste',
  quietMs: 500,
  insert: insertMarkdownImage,
  remove: removeMarkdownImage,
  checked:
    '@codemirror/view 6.43.15 EditorView.domEventHandlers paste/drop, @codemirror/commands 6.11.1 history (newGroupDelay 500, Mod-z/Mod-y); placeholders as GitHub’s and Discourse’s composers write them; the codemirror page of e2e images.spec with a paste handler uploading to the site, 2026-12-01',
};
