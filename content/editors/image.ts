/**
 * Images into an editor, through its own upload path (the family's `image`, families/family.ts):
 * the site uploads the bytes and stores its copy; Tether never links an image from elsewhere.
 * Verified like text: the editor shows the new image at an http(s) address that is not data: or
 * blob: (the upload finished, waited for with a limit), with the alt, and the field's text is as
 * it was. A failed or unfinished upload is taken back; so is an image a plan placed when a later
 * step fails (the editor's own undo, so the person's history stays the editor's).
 */
import { sameFieldText } from '../../shared/page/fieldText.ts';
import { UPLOAD_WAIT_MS, type ImageType } from '../../shared/imageBytes.ts';
import { asTether } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import { familyOf } from './families/index.ts';
import { blockAfter, partlyDrawn } from './blockAfter.ts';
import { eventTarget, focus, paste, undoKeys, view, waitFor, waitQuiet } from './imageEvents.ts';
import { pageTransfer } from './pasteEvent.ts';
import { selectAndSync } from './settle.ts';

export { blockAfter, partlyDrawn };

/** Bytes the worker staged for this act (checked there, and again here before they go in). */
export interface StagedImage {
  blob: Blob;
  name: string;
  type: ImageType;
  width: number;
  height: number;
}

export interface ImageOutcome {
  /** The path that took (the family's `via`, with `+repaste` when the alt went in by a second paste). */
  path: string | null;
  tried: string[];
  verified: boolean;
  text: string;
  /** The address the site stored the image at, as the editor shows it. */
  src?: string;
  /** Why it was not verified, in words. */
  problem?: string;
}

/** How long an upload may take before Tether gives up on it (and takes the image back). */
export const UPLOAD_LIMIT_MS = UPLOAD_WAIT_MS;

/** The text without spacing, nor the zero-width characters an image widget renders around itself (CKEditor 5's word joiners). */
const wordsOnly = (text: string) =>
  text
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The text without the zero-width characters an editor renders for its caret, no text of its
 * model: CKEditor 5's inline filler (seven U+2060 in a text node where the caret sits next to an
 * inline widget, @ckeditor/ckeditor5-engine 48.5.2 view/filler.js INLINE_FILLER), there once its
 * undo has put the caret beside a photo (seen 2026-12-01 in e2e images.spec).
 */
export const withoutCaretFillers = (text: string) => text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '');

const isStored = (src: string) => /^https?:\/\//i.test(src);
const isLocal = (src: string) => /^(data|blob):/i.test(src);

function images(editable: Editable): HTMLImageElement[] {
  return Array.from(editable.element.querySelectorAll('img'));
}

/** Where the image is now, resolved against the document (an editor may keep a site-relative address). */
function srcOf(img: HTMLImageElement): string {
  return img.getAttribute('src') === null ? '' : img.src;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function lastLeaf(root: Element): Node | null {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) =>
      node.nodeType === Node.TEXT_NODE
        ? (node.textContent ?? '') === ''
          ? NodeFilter.FILTER_SKIP
          : NodeFilter.FILTER_ACCEPT
        : node.nodeName === 'IMG'
          ? NodeFilter.FILTER_ACCEPT
          : NodeFilter.FILTER_SKIP,
  });
  let last: Node | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) last = node;
  return last;
}

/**
 * The node a caret goes after to be after `leaf`: the outermost non-editable wrapper around it
 * inside `container`, if any. An editor's widget (CKEditor 5's inline image: a
 * `span.ck-widget[contenteditable=false]` around the `<img>`; a block image's `figure`) maps a
 * caret inside it to the widget selected, and a paste then REPLACES that image (seen 2026-12-01
 * in e2e images.spec, @ckeditor/ckeditor5-widget and -image 48.5.2: the paste's one batch was a
 * remove of the person's photo and an insert of ours).
 */
function outsideWidget(leaf: Node, container: Element): Node {
  let outer: Node = leaf;
  for (let element = leaf.parentElement; element && element !== container; element = element.parentElement) {
    if (element.getAttribute('contenteditable') === 'false') outer = element;
  }
  return outer;
}

/** Puts the caret at the end of the block `after` names, or at the end of the field (after its last text or image, outside any widget). */
async function placeCaret(editable: Editable, after: string | undefined): Promise<string | null> {
  const doc = editable.doc;
  const selection = doc.getSelection();
  if (!selection) return 'the page gives no selection to place the image at';
  let container: Element = editable.element;
  if (after !== undefined) {
    const found = blockAfter(editable.element, after);
    if ('problem' in found) return found.problem;
    container = found.block;
  }
  const last = lastLeaf(container);
  const leaf = last ? outsideWidget(last, container) : null;
  const range = doc.createRange();
  if (!leaf) {
    range.selectNodeContents(container);
    range.collapse(false);
  } else if (leaf.nodeType === Node.TEXT_NODE) {
    range.setStart(leaf, (leaf.textContent ?? '').length);
  } else {
    range.setStartAfter(leaf);
  }
  range.collapse(true);
  await selectAndSync(doc, () => {
    selection.removeAllRanges();
    selection.addRange(range);
  });
  return null;
}

function readDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('the bytes could not be read'));
    reader.readAsDataURL(blob);
  });
}

function newImages(editable: Editable, before: Set<string>): HTMLImageElement[] {
  return images(editable).filter((img) => !before.has(srcOf(img)));
}

/**
 * Inserts one image at the end of the field, or after the block `after` names, through the
 * family's upload path, and waits until the site has stored it.
 */
export async function insertImage(
  editable: Editable,
  image: StagedImage,
  alt: string,
  after: string | undefined,
  limitMs = UPLOAD_LIMIT_MS,
): Promise<ImageOutcome> {
  const upload = familyOf(editable).image;
  const textBefore = readEditable(editable);
  if (!upload) return { path: null, tried: [], verified: false, text: textBefore, problem: 'this editor has no upload path Tether knows' };
  const via = upload.via;
  if (via === 'custom' && upload.insert) {
    // The family's own uploader places and verifies the image itself (SmartEditor ONE: its model, smartEditorOne/photo.ts).
    const win = view(editable);
    const file = new win.File([image.blob], image.name, { type: image.type });
    const own = await upload.insert({
      element: editable.element,
      doc: editable.doc,
      editable,
      file,
      alt,
      width: image.width,
      height: image.height,
      limitMs,
      ...(after === undefined ? {} : { after }),
    });
    if (own.ok && 'src' in own) return { path: own.path, tried: [own.path], verified: true, text: own.text, src: own.src };
    if (!own.ok)
      return {
        path: null,
        tried: [via],
        verified: false,
        text: own.text ?? readEditable(editable),
        problem: own.problem,
        ...(own.src === undefined ? {} : { src: own.src }),
      };
  }
  const already = images(editable).map(srcOf);
  const before = new Set(already);
  // Before the caret moves: a history that groups by time must see the field still first.
  if (upload.quietMs) await waitQuiet(editable, upload.quietMs, upload.quietMs * 3);
  const previousFocus = document.activeElement;
  focus(editable);
  const misplaced = await placeCaret(editable, after);
  if (misplaced) return { path: null, tried: [], verified: false, text: textBefore, problem: misplaced };
  const win = view(editable);
  const file = new win.File([image.blob], image.name, { type: image.type });
  const tried: string[] = [via];
  try {
    if (via === 'custom') {
      // A custom path that answered without verifying: the image is waited for below, as any.
      if (!upload.insert) return { path: null, tried, verified: false, text: readEditable(editable), problem: 'no uploader' };
    } else if (via === 'paste-html') {
      const data = pageTransfer(win, { strings: [['text/html', `<img src="${await readDataUrl(image.blob)}" alt="${escapeAttribute(alt)}">`]] });
      asTether(() => paste(editable, data));
    } else {
      const data = pageTransfer(win, { files: [file] });
      if (via === 'paste-file') asTether(() => paste(editable, data));
      else {
        const init = { inputType: 'insertFromPaste', dataTransfer: data, bubbles: true, cancelable: true, composed: true };
        asTether(() => eventTarget(editable).dispatchEvent(new win.InputEvent('beforeinput', init)));
      }
    }
    // The upload finished: a new image at an http(s) address, and none of ours left as local data.
    // An image that showed and went again was taken out by the editor (its upload failed): stop waiting.
    let shown = false;
    const settled = await waitFor<HTMLImageElement | 'gone'>(
      editable,
      () => {
        const added = newImages(editable, before);
        if (added.length > 0) shown = true;
        else if (shown) return 'gone';
        const done = added.find((img) => isStored(srcOf(img)));
        return done && !added.some((img) => isLocal(srcOf(img))) ? done : null;
      },
      limitMs,
    );
    if (settled === 'gone') {
      let problem = `the editor took the image out again: the site's upload failed`;
      if (upload.failedUploadLeavesUndoStep) {
        // Tether's paste is still a step of the editor's undo: taken back now, and read back as before the paste.
        asTether(() => undoKeys(editable));
        await waitQuiet(editable, 100, 1000);
        const now = readEditable(editable);
        if (!sameFieldText(withoutCaretFillers(now), withoutCaretFillers(textBefore)) || missing(already, images(editable).map(srcOf)).length > 0)
          problem += '; the editor’s undo of the paste then changed the field';
      }
      return { path: null, tried, verified: false, text: readEditable(editable), problem };
    }
    const stored = settled;
    if (!stored) {
      const added = newImages(editable, before);
      const problem =
        added.length === 0
          ? `the editor did not take the image (${via})`
          : added.some((img) => isLocal(srcOf(img)))
            ? `the editor still shows it as local data after ${Math.round(limitMs / 1000)} s: the site's upload did not finish (or this site embeds images instead of uploading them)`
            : `the editor shows it at an address that is not http(s)`;
      // Ours: at an address the field did not hold, or one of the new elements still at none it held (local data whose address changes).
      const srcs = new Set(added.map(srcOf));
      if (added.length > 0) await takeBack(editable, (img) => !before.has(srcOf(img)) && (srcs.has(srcOf(img)) || added.includes(img)));
      return { path: null, tried, verified: false, text: readEditable(editable), problem };
    }
    const src = srcOf(stored);
    let path: string = via;
    if (upload.alt === 'repaste' && alt !== '' && stored.getAttribute('alt') !== alt) {
      // The site's handler made the image without the alt: take that insertion back with the
      // editor's undo, and paste the same stored image with its alt (one step in the person's undo).
      path = `${via}+repaste`;
      tried.push('repaste');
      asTether(() => undoKeys(editable));
      const gone = await waitFor(editable, () => (images(editable).some((img) => srcOf(img) === src) ? null : true), 3000);
      if (!gone) return { path, tried, verified: false, text: readEditable(editable), src, problem: 'the editor’s undo did not take the alt-less image back' };
      const data = pageTransfer(win, { strings: [['text/html', `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}">`]] });
      asTether(() => paste(editable, data));
    }
    const kept = await waitFor(
      editable,
      () => (images(editable).some((img) => srcOf(img) === src && (img.getAttribute('alt') ?? '') === alt) ? true : null),
      3000,
    );
    const text = readEditable(editable);
    if (!kept) return { path, tried, verified: false, text, src, problem: 'the editor did not keep the image with its alt' };
    // Every image that was in the field is still there (a paste onto a selected image replaces it).
    const lost = missing(already, images(editable).map(srcOf));
    if (lost.length > 0)
      return {
        path,
        tried,
        verified: false,
        text,
        src,
        problem: `the editor took out ${lost.length === 1 ? 'an image' : `${lost.length} images`} that was in the field when this one went in`,
      };
    if (!sameFieldText(wordsOnly(text), wordsOnly(textBefore))) {
      return { path, tried, verified: false, text, src, problem: 'the field’s text changed with the image' };
    }
    return { path, tried, verified: true, text, src };
  } finally {
    if (previousFocus instanceof HTMLElement && previousFocus !== document.body) previousFocus.focus({ preventScroll: true });
  }
}

/** The addresses of `before` that `after` no longer holds (as many times as they went). */
export function missing(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const src of after) left.set(src, (left.get(src) ?? 0) + 1);
  return before.filter((src) => {
    const count = left.get(src) ?? 0;
    left.set(src, count - 1);
    return count <= 0;
  });
}

/**
 * Takes images back out: the editor's undo first (its own history), then a delete of each still
 * there. Which `<img>` is ours is `ours`'s call, by address: an editor's renderer may reuse an
 * element for another image (CKEditor 5's renderer gave the element of ours to the person's photo
 * its undo put back, 48.5.2, seen 2026-12-01), and that one is not ours to delete.
 */
async function takeBack(editable: Editable, ours: (img: HTMLImageElement) => boolean): Promise<boolean> {
  const present = () => images(editable).filter(ours);
  asTether(() => undoKeys(editable));
  if (await waitFor(editable, () => (present().length === 0 ? true : null), 2000)) return true;
  for (const img of present()) {
    const range = editable.doc.createRange();
    range.selectNode(img);
    const selection = editable.doc.getSelection();
    await selectAndSync(editable.doc, () => {
      selection?.removeAllRanges();
      selection?.addRange(range);
    });
    asTether(() => editable.doc.execCommand('delete', false));
  }
  return (await waitFor(editable, () => (present().length === 0 ? true : null), 2000)) === true;
}

/** Rollback of an image step: the image at `src` leaves the field (the site keeps its upload: nothing deletes it there). */
/** Whether a rollback takes this field's images out with the editor's undo (no removal of the family's own, through its model). */
export function removesByUndo(editable: Editable): boolean {
  return familyOf(editable).image?.remove === undefined;
}

export async function removeImage(editable: Editable, src: string): Promise<boolean> {
  const own = familyOf(editable).image?.remove;
  if (own) return own({ editable, src });
  const found = images(editable).filter((img) => srcOf(img) === src);
  if (found.length === 0) return true;
  focus(editable);
  return takeBack(editable, (img) => srcOf(img) === src);
}

/** The address of each image in the field now (for what an image step reports and rolls back). */
export function imageSources(editable: Editable): string[] {
  return images(editable).map(srcOf);
}
