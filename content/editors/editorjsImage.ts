/**
 * Photos into Editor.js through its Image tool (@editorjs/image 2.10.3 with @editorjs/editorjs
 * 2.31.7, checked 2026-12-01; the editorjs family's `image`, via `custom`), as the tool's README
 * sets uploads up: the site configures `endpoints.byFile` or `uploader.uploadByFile`, the tool
 * posts the file there and shows the image at the `file.url` the site answers.
 *
 * 1. The File is pasted into the block it goes after (the end: the last block), as a person's
 *    paste of a copied image: Editor.js's paste module hands a pasted file to the tool whose
 *    `pasteConfig.files` takes its type (modules/paste.ts processFiles), which inserts an image block
 *    after that block (or in its place, when it is an empty paragraph) and calls the tool's onPaste,
 *    which uploads it. A page without an image tool inserts nothing: refused.
 * 2. Waits (UPLOAD_LIMIT_MS) until that block shows the image at an http(s) address (the tool sets
 *    its `img` from the upload's `file.url` only, and marks the block `image-tool--filled`). A block
 *    the tool empties again (`image-tool--empty`: its upload failed) or one still uploading at the
 *    limit is taken out again.
 * 3. The alt is typed into the tool's caption (its `save()` reads `data.caption` from that node).
 * 4. Verified from the tool's own nodes (Editor.js keeps no handle to its instance in the page, so
 *    `editor.save()` is out of Tether's reach on a site; the tests read save() itself): the block
 *    after the one named, its image at the stored address, its caption the alt, every other block's
 *    text as it was.
 *
 * Undo: Editor.js has no undo history of its own (2.31: no undo module; a browser's Ctrl+Z only
 * undoes typing inside one block's contenteditable), so the person's Ctrl+Z does not take the
 * photo out. Tether's rollback does, through the editor's own block menu: the block's settings,
 * then its Delete tune (clicked twice: the tune asks to confirm), read back — only while Tether's
 * block is the one block the menu selected (the menu opens for the toolbar's hovered block, which
 * may be the person's); otherwise the menu is closed (Escape) and the photo is a leftover.
 */
import { UPLOAD_WAIT_MS } from '../../shared/imageBytes.ts';
import { asTether } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from './families/family.ts';
import { selectAndSync, waitUntil as waitFor } from './settle.ts';
import { pageTransfer, pasteEvent } from './pasteEvent.ts';

export const EDITORJS_PHOTO_PATH = 'editorjs-image-tool';

const BLOCK = ':scope > .ce-block';
const flat = (text: string) =>
  text
    .replace(/[\u200b\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
const isStored = (src: string) => /^https?:\/\//i.test(src);

const blocks = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLElement>(BLOCK));
const tool = (block: Element) => block.querySelector<HTMLElement>('.image-tool');
const picture = (block: Element) => block.querySelector<HTMLImageElement>('img.image-tool__image-picture');
const srcOf = (block: Element) => {
  const img = picture(block);
  return img && img.getAttribute('src') !== null ? img.src : '';
};
const captionOf = (block: Element) => block.querySelector<HTMLElement>('.image-tool__caption');

/** Every block's text but the image blocks' (their caption is the photo's, not the post's text). */
function textBlocks(root: HTMLElement): string {
  return blocks(root)
    .filter((block) => !tool(block))
    .map((block) => flat(block.textContent ?? ''))
    .filter((line) => line !== '')
    .join('\n');
}

function blockAfter(root: HTMLElement, after: string): HTMLElement | string {
  const wanted = flat(after);
  const found = blocks(root).filter((block) => !tool(block) && flat(block.textContent ?? '').startsWith(wanted));
  if (found.length === 1 && found[0]) return found[0];
  return found.length === 0
    ? `no paragraph starts with “${wanted.slice(0, 80)}”`
    : `${found.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words`;
}

async function caretAtEnd(editable: Editable, input: HTMLElement): Promise<void> {
  const doc = editable.doc;
  input.focus({ preventScroll: true });
  const range = doc.createRange();
  range.selectNodeContents(input);
  range.collapse(false);
  await selectAndSync(doc, () => {
    const selection = doc.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
}

function win(editable: Editable): Window & typeof globalThis {
  return (editable.doc.defaultView ?? window) as Window & typeof globalThis;
}

/** Takes one block out through the editor's own block menu (its settings, then the Delete tune, confirmed). */
async function deleteBlock(editable: Editable, block: HTMLElement): Promise<boolean> {
  const root = editable.element;
  const wrapper = root.closest('.codex-editor') ?? root;
  const view = win(editable);
  const rect = block.getBoundingClientRect();
  const point = { bubbles: true, cancelable: true, composed: true, clientX: rect.left + 4, clientY: rect.top + 4 };
  asTether(() => block.dispatchEvent(new view.MouseEvent('mousemove', point)));
  const toggler = await waitFor(root, () => wrapper.querySelector<HTMLElement>('.ce-toolbar__settings-btn'), 1000);
  if (!toggler) return !block.isConnected;
  asTether(() => {
    toggler.dispatchEvent(new view.MouseEvent('mousedown', point));
    toggler.dispatchEvent(new view.MouseEvent('mouseup', point));
    toggler.dispatchEvent(new view.MouseEvent('click', point));
  });
  // The menu opens for the toolbar's hovered block, which may be another one (Editor.js 2.31.7: the
  // hover handler is throttled and silent while a block is selected; settingsTogglerClicked opens
  // for `hoveredBlock`). BlockSettings.open selects the block it is for: the menu is ours only
  // while ours is the one selected block. Otherwise the menu is closed and nothing is deleted.
  const forOurs = () =>
    block.isConnected &&
    block.classList.contains('ce-block--selected') &&
    Array.from(wrapper.querySelectorAll('.ce-block--selected')).every((other) => other === block);
  const close = () => {
    asTether(() =>
      view.document.dispatchEvent(new view.KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true, cancelable: true })),
    );
    return false;
  };
  if ((await waitFor(root, () => (forOurs() ? true : null), 1000)) !== true) return close();
  for (let click = 0; click < 2 && block.isConnected; click += 1) {
    const item = await waitFor(root, () => wrapper.querySelector<HTMLElement>('.ce-popover--opened [data-item-name="delete"]'), 1000);
    if (!item) break;
    if (!forOurs()) return close();
    asTether(() => item.click());
    await waitFor(root, () => (block.isConnected ? null : true), 300);
  }
  return (await waitFor(root, () => (block.isConnected ? null : true), 1000)) === true;
}

async function insertEditorjsPhoto(request: CustomImageInsert, limitMs = UPLOAD_WAIT_MS): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const root = editable.element;
  const refuse = (problem: string, src?: string): CustomImageOutcome => ({ ok: false, problem, text: readEditable(editable), ...(src ? { src } : {}) });
  const all = blocks(root);
  const place = after === undefined ? all[all.length - 1] : blockAfter(root, after);
  if (place === undefined) return refuse('the editor shows no block to put the photo after');
  if (typeof place === 'string') return refuse(place);
  const input = Array.from(place.querySelectorAll<HTMLElement>('[contenteditable="true"]')).pop();
  if (!input) return refuse('the block it goes after takes no caret');
  if (all.some((block) => tool(block)?.classList.contains('image-tool--uploading')))
    return refuse('an upload is still under way in the editor: wait until it has finished');
  const textBefore = textBlocks(root);
  const before = new Set(all);
  const index = all.indexOf(place);
  const previousFocus = document.activeElement;
  try {
    await caretAtEnd(editable, input);
    const view = win(editable);
    const data = pageTransfer(view, { files: [file] });
    asTether(() => input.dispatchEvent(pasteEvent(view, data)));
    const ours = () => blocks(root).filter((block) => !before.has(block) && tool(block));
    // The tool inserts its block at once and uploads in an idle callback: no block soon, no image tool.
    const appeared = await waitFor(root, () => ours()[0] ?? null, 3000);
    if (!appeared) return refuse('Editor.js did not take the file: this editor has no image tool that uploads pasted files (@editorjs/image)');
    let uploading = false;
    const settled = await waitFor<'stored' | 'failed'>(
      root,
      () => {
        const state = tool(appeared);
        if (!appeared.isConnected || !state) return 'failed';
        if (state.classList.contains('image-tool--uploading')) uploading = true;
        if (state.classList.contains('image-tool--filled') && isStored(srcOf(appeared))) return 'stored';
        return uploading && state.classList.contains('image-tool--empty') ? 'failed' : null;
      },
      limitMs,
    );
    if (settled !== 'stored') {
      const gone = !appeared.isConnected || (await deleteBlock(editable, appeared));
      const why =
        settled === 'failed'
          ? 'the editor’s image tool says the site’s upload failed'
          : `the site’s upload did not finish within ${Math.round(limitMs / 1000)} s`;
      return refuse(gone ? `${why}; its block was taken out again` : `${why}, and its block could not be taken out`, undefined);
    }
    const src = srcOf(appeared);
    const caption = captionOf(appeared);
    if (alt !== '') {
      if (!caption) return refuse('the image tool shows no caption to give the alt', src);
      await caretAtEnd(editable, caption);
      asTether(() => editable.doc.execCommand('insertText', false, alt));
    }
    const kept = await waitFor(root, () => (flat(captionOf(appeared)?.textContent ?? '') === flat(alt) ? true : null), 3000);
    if (!kept) return refuse('the image tool did not keep the caption', src);
    const now = blocks(root);
    const at = now.indexOf(appeared);
    // After the block named, or in its place when that was an empty paragraph the tool replaced.
    const placed = now[at - 1] === place || (!place.isConnected && at === index);
    if (!placed) return refuse('the photo’s block is not where it was to go', src);
    if (textBlocks(root) !== textBefore) return refuse('the field’s text changed with the photo', src);
    return { ok: true, src, text: readEditable(editable), path: EDITORJS_PHOTO_PATH };
  } finally {
    if (previousFocus instanceof HTMLElement && previousFocus !== document.body) previousFocus.focus({ preventScroll: true });
  }
}

/** A rollback's: the image block at `src` out, through the block menu's Delete, read back. */
async function removeEditorjsPhoto(request: { editable: Editable; src: string }): Promise<boolean> {
  for (const block of blocks(request.editable.element).filter((item) => tool(item) && srcOf(item) === request.src)) {
    if (!(await deleteBlock(request.editable, block))) return false;
  }
  return true;
}

export const editorjsImage: ImageUpload = {
  via: 'custom',
  alt: 'kept',
  insert: (request) => insertEditorjsPhoto(request),
  remove: removeEditorjsPhoto,
  checked:
    '@editorjs/image 2.10.3 (npm; README uploader.uploadByFile / endpoints.byFile, pasteConfig.files, ui.ts image-tool--filled/--empty, caption) with @editorjs/editorjs 2.31.7 (modules/paste.ts processFiles, the Delete tune); the editorjs page of e2e images.spec, 2026-12-01',
};
