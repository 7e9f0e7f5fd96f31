/**
 * The site's own file chooser (`<input type=file>`, family file-input): Tether chooses the photo in
 * it as a person's choice does — `files` set from a DataTransfer made in the page's own window, then
 * the `input` and `change` events the HTML Living Standard says a choice fires ("update the file
 * selection": input bubbles and is composed, change bubbles) — and the site's own script uploads
 * it. Verified by what the site then shows: a new image in the page (or in a same-origin frame of
 * it, where an editor lives), loaded from an http(s) address that is not data: or blob: (the site's
 * stored copy), in the photo's proportions (a site may show it smaller). Checked against the notes
 * site's /editor/attach (a Tistory-like attach button and a cafe-like cover photo), Chromium 156,
 * 2026-12-01.
 */
import type { ImageType } from '../../shared/imageBytes.ts';
import { asTether } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import type { ImageOutcome, StagedImage } from './image.ts';
import { pageTransfer } from './pasteEvent.ts';

/** The extensions a type goes by in an accept= list. */
const EXTENSIONS: Record<ImageType, readonly string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg', '.jfif', '.pjpeg', '.pjp'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
};

/**
 * Whether a chooser whose accept= lists `accept` (lower-cased tokens; none: any file) takes an image
 * of `type`: by its MIME type, a wildcard (`image/*`) or an extension of the type (the file's name
 * is made from its type: shared/imageBytes.ts imageFileName). Pure.
 */
export function acceptsType(accept: readonly string[], type: ImageType): boolean {
  if (accept.length === 0) return true;
  return accept.some((token) => token === type || token === `${type.split('/')[0] ?? ''}/*` || EXTENSIONS[type].includes(token));
}

/** The images the page shows now, in its document and same-origin frames (an editor's document is one). */
function shownImages(doc: Document): HTMLImageElement[] {
  const found = Array.from(doc.images);
  for (const frame of Array.from(doc.querySelectorAll('iframe'))) {
    try {
      if (frame.contentDocument) found.push(...Array.from(frame.contentDocument.images));
    } catch {
      // another origin: not the site's page
    }
  }
  return found;
}

const isStored = (img: HTMLImageElement) => /^https?:\/\//i.test(img.currentSrc || img.src);
const sameProportions = (img: HTMLImageElement, image: StagedImage) =>
  img.naturalWidth > 0 &&
  img.naturalHeight > 0 &&
  Math.abs(img.naturalWidth / img.naturalHeight - image.width / image.height) <= 0.02 * (image.width / image.height);

/**
 * Chooses `image` in the chooser and waits (at most `limitMs`) for the page to show the site's
 * stored copy. A chooser has no alt: the site decides its image's alt (listed in `dropped` by the
 * caller when one was asked for).
 */
export async function chooseFile(editable: Editable, image: StagedImage, limitMs: number): Promise<ImageOutcome> {
  const input = editable.element as HTMLInputElement;
  const doc = editable.doc;
  const win = (doc.defaultView ?? window) as Window & typeof globalThis;
  // What each image showed before (a site may show the stored copy in an image it had already: a preview).
  const before = new Map(shownImages(doc).map((img) => [img, img.currentSrc || img.src]));
  const data = pageTransfer(win, { files: [new win.File([image.blob], image.name, { type: image.type })] });
  const tried = ['file-input'];
  asTether(() => {
    input.files = data.files;
    input.dispatchEvent(new win.Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new win.Event('change', { bubbles: true }));
  });
  if (input.files?.[0]?.name !== image.name) {
    return { path: null, tried, verified: false, text: readEditable(editable), problem: 'the page did not let the file be chosen in it' };
  }
  const stored = await new Promise<HTMLImageElement | null>((resolve) => {
    const look = () =>
      shownImages(doc).find((img) => before.get(img) !== (img.currentSrc || img.src) && img.complete && isStored(img) && sameProportions(img, image)) ?? null;
    const finish = (found: HTMLImageElement | null) => {
      observer.disconnect();
      clearInterval(timer);
      clearTimeout(deadline);
      resolve(found);
    };
    const check = () => {
      const found = look();
      if (found) finish(found);
    };
    // Images load off the DOM's changes: looked at on every change, and every 100 ms.
    const observer = new MutationObserver(check);
    observer.observe(doc.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] });
    const timer = setInterval(check, 100);
    const deadline = setTimeout(() => finish(look()), limitMs);
    check();
  });
  const text = readEditable(editable);
  if (!stored) {
    return {
      path: null,
      tried,
      verified: false,
      text,
      problem: `the page showed no stored copy of it within ${Math.round(limitMs / 1000)} s (the site's upload failed, or it sends the file only with the form)`,
    };
  }
  return { path: 'file-input', tried, verified: true, text, src: stored.currentSrc || stored.src };
}

/**
 * A rollback of a choice: the chooser is emptied (a form sent later does not carry the file). The
 * site's script has the upload already and may still show it: nothing here can take that back.
 */
export function clearChoice(editable: Editable): void {
  asTether(() => {
    (editable.element as HTMLInputElement).value = '';
  });
}
