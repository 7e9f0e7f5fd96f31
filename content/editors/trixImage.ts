/**
 * Photos into Trix through its own attachment path (the trix family's `image`, via `custom`), as
 * Trix's README sets uploads up (trix 2.1.19, checked 2026-12-01; ActionText does the same): the
 * editor takes a File as an attachment and fires `trix-attachment-add`; the site's listener uploads
 * `attachment.file` to its endpoint and calls `attachment.setAttributes({ url, href })`.
 *
 * 1. Where it goes must be there (the block `after` names, or the end), and no upload of the
 *    person's may be under way (a pending attachment would be taken for ours).
 * 2. The File is pasted at the caret, as a person's paste of a copied image: Trix's paste handler
 *    takes a paste of files only (level_2_input_controller.js `paste`, pasteEventHasFilesOnly) and
 *    inserts them as attachments of its document, one undo entry ("Drop Files").
 * 3. Waits (UPLOAD_LIMIT_MS) until Trix's document holds one more attachment, no longer pending,
 *    at an http(s) address: the site's stored copy. One the site takes out again (its listener's
 *    `attachment.remove()` on a failed upload) is a failed upload; one still pending at the limit
 *    (a page with no upload listener keeps only the File: nothing is stored) is taken out again.
 * 4. The alt goes in as the attachment's `caption` and `alt` attributes (`setAttributes`, which
 *    Trix renders as the figure's caption and the img's alt, and serializes into the document).
 * 5. Verified in Trix's own model, read in the main world (`editor.getDocument().getAttachments()`,
 *    background/adapters/trixMain.ts), and that word re-checked here against the document Trix
 *    serialized into the hidden input it names (what the site's form posts): the attachment at the
 *    stored address with the caption, and the document's text as it was.
 *
 * Ctrl+Z: the paste is one entry in Trix's undo (the site's and Tether's setAttributes are not
 * entries of their own), so the person's Ctrl+Z takes the photo out; so does Tether's rollback
 * (`remove`: the attachment's range selected, then deleteInDirection, read back).
 */
import { UPLOAD_WAIT_MS } from '../../shared/imageBytes.ts';
import { trixAnswerSchema, type TrixAnswer, type TrixAttachment } from '../../shared/page/trixCall.ts';
import { asTether, callWorker } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from './families/family.ts';
import { selectAndSync } from './settle.ts';
import { pageTransfer, pasteEvent } from './pasteEvent.ts';

export const TRIX_PHOTO_PATH = 'trix-attachment';

type Read = Extract<TrixAnswer, { ok: true }>;

async function ask(editable: Editable, op: 'read' | 'describe' | 'remove', extra: { id?: number; url?: string; caption?: string } = {}): Promise<TrixAnswer> {
  if (editable.frame) return { ok: false, reason: 'host', message: 'Trix inside a frame is not called' };
  const index = Array.from(editable.doc.querySelectorAll('trix-editor')).indexOf(editable.element);
  if (index < 0) return { ok: false, reason: 'missing', message: 'the field is not a <trix-editor>' };
  const answer = trixAnswerSchema.safeParse(
    await callWorker({ kind: 'trix', op, index, input: editable.element.getAttribute('input') ?? '', ...extra }, 15_000),
  );
  return answer.success ? answer.data : { ok: false, reason: 'invalid', message: 'The worker answered in an unexpected shape.' };
}

const flat = (text: string) =>
  text
    .replace(/[\ufffc\u200b\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
const isStored = (url: string) => /^https?:\/\//i.test(url);
const resolved = (editable: Editable, url: string) => {
  try {
    return new URL(url, editable.doc.baseURI).href;
  } catch {
    return '';
  }
};

/**
 * What Trix serialized into its hidden input: each attachment's address and caption, as its
 * `data-trix-attachment` JSON says (models/html_serializer… the figure it writes for an attachment).
 */
function serialized(editable: Editable): Array<{ url: string; caption: string }> | null {
  const id = editable.element.getAttribute('input');
  const input = id ? editable.doc.getElementById(id) : null;
  if (input?.tagName !== 'INPUT') return null;
  const body = new DOMParser().parseFromString((input as HTMLInputElement).value, 'text/html').body;
  return Array.from(body.querySelectorAll('[data-trix-attachment]')).map((figure) => {
    let data: unknown;
    try {
      data = JSON.parse(figure.getAttribute('data-trix-attachment') ?? '');
    } catch {
      data = null;
    }
    const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    const extra = (() => {
      try {
        return JSON.parse(figure.getAttribute('data-trix-attributes') ?? '{}') as Record<string, unknown>;
      } catch {
        return {};
      }
    })();
    const caption = typeof record.caption === 'string' ? record.caption : typeof extra.caption === 'string' ? extra.caption : '';
    return { url: typeof record.url === 'string' ? resolved(editable, record.url) : '', caption };
  });
}

/** The block `after` names (its text starts with it), or why there is none. */
function blockAfter(root: HTMLElement, after: string): Element | string {
  const wanted = flat(after);
  const found = Array.from(root.querySelectorAll(':scope > div, :scope > h1, :scope > pre, :scope > blockquote, li')).filter((block) =>
    flat(block.textContent ?? '').startsWith(wanted),
  );
  const innermost = found.filter((block) => !found.some((other) => other !== block && block.contains(other)));
  if (innermost.length === 1 && innermost[0]) return innermost[0];
  return innermost.length === 0
    ? `no paragraph starts with “${wanted.slice(0, 80)}”`
    : `${innermost.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words`;
}

/** The caret at the end of `container`'s last text (Trix maps the DOM selection onto its document on selectionchange). */
async function caretAtEnd(editable: Editable, container: Element): Promise<void> {
  const doc = editable.doc;
  const walker = doc.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  let last: Text | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node.textContent ?? '') !== '' && !node.parentElement?.closest('figure')) last = node as Text;
  }
  const range = doc.createRange();
  if (last) range.setStart(last, (last.textContent ?? '').length);
  else {
    range.selectNodeContents(container);
    range.collapse(false);
  }
  range.collapse(true);
  editable.element.focus({ preventScroll: true });
  await selectAndSync(doc, () => {
    const selection = doc.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
}

function pasteFile(editable: Editable, file: File): void {
  const win = (editable.doc.defaultView ?? window) as Window & typeof globalThis;
  const data = pageTransfer(win, { files: [file] });
  const anchor = editable.doc.getSelection()?.anchorNode ?? null;
  const at = anchor ? (anchor.nodeType === Node.ELEMENT_NODE ? (anchor as Element) : anchor.parentElement) : null;
  const target = at && editable.element.contains(at) ? at : editable.element;
  asTether(() => target.dispatchEvent(pasteEvent(win, data)));
}

/** Reads Trix's model until `check` answers, or the limit passes (then the last read's answer to `check`, null if none). */
async function poll<T>(editable: Editable, check: (read: Read) => T | null, limitMs: number): Promise<{ value: T | null; last: Read | null }> {
  const deadline = Date.now() + limitMs;
  let last: Read | null = null;
  for (;;) {
    const answer = await ask(editable, 'read');
    if (answer.ok) {
      last = answer;
      const value = check(answer);
      if (value !== null) return { value, last };
    }
    if (Date.now() >= deadline) return { value: null, last };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function takeOut(editable: Editable, item: { id: number; url: string }): Promise<boolean> {
  const answer = await ask(editable, 'remove', { id: item.id, url: item.url });
  if (!answer.ok && answer.reason !== 'none') return false;
  const { value } = await poll(editable, (read) => (read.attachments.some((held) => held.id === item.id) ? null : true), 2000);
  return value === true;
}

async function insertTrixPhoto(request: CustomImageInsert, limitMs = UPLOAD_WAIT_MS): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const refuse = (problem: string, src?: string): CustomImageOutcome => ({ ok: false, problem, text: readEditable(editable), ...(src ? { src } : {}) });
  const first = await ask(editable, 'read');
  if (!first.ok)
    return refuse(`Trix’s model cannot be reached (${first.reason}${first.message ? `: ${first.message}` : ''}); Tether never links a photo instead`);
  if (first.attachments.some((item) => item.pending)) return refuse('an upload is still under way in the editor: wait until it has finished');
  const place = after === undefined ? editable.element : blockAfter(editable.element, after);
  if (typeof place === 'string') return refuse(place);
  // Trix's ids of what was there before: never ours, never taken out (a mention has no address either).
  const before = new Set(first.attachments.map((item) => item.id));
  const previousFocus = document.activeElement;
  try {
    await caretAtEnd(editable, place === editable.element ? (editable.element.lastElementChild ?? editable.element) : place);
    pasteFile(editable, file);
    // Ours: the attachment whose Trix id was not there before (an address is no identity: a new
    // attachment's is empty until the site sets it, and so is every content attachment's).
    const ours = (read: Read): Array<TrixAttachment & { id: number }> =>
      read.attachments.filter((item): item is TrixAttachment & { id: number } => item.id !== null && !before.has(item.id));
    let seen = false;
    const { value, last } = await poll<(TrixAttachment & { id: number }) | 'gone'>(
      editable,
      (read) => {
        const added = ours(read);
        if (added.length > 0) seen = true;
        else if (seen) return 'gone';
        const stored = added.find((item) => !item.pending && isStored(item.url));
        return stored && added.length === 1 ? stored : null;
      },
      limitMs,
    );
    if (value === 'gone') return refuse('the site took the attachment out again: its upload failed');
    if (value === null) {
      const added = last ? ours(last) : [];
      for (const item of added) await takeOut(editable, item);
      return refuse(
        added.length === 0
          ? 'Trix did not take the file (its paste)'
          : `Trix still holds it as a local file after ${Math.round(limitMs / 1000)} s: the site’s upload did not set its address (a page with no trix-attachment-add upload keeps only the file), so it was taken out again`,
      );
    }
    const url = value.url;
    const src = resolved(editable, url);
    const described = await ask(editable, 'describe', { id: value.id, url, caption: alt });
    if (!described.ok) return refuse(`Trix did not take the caption (${described.reason})`, src);
    // The page's word, then the document Trix serialized for the form.
    const { value: kept } = await poll(
      editable,
      (read) => {
        const held = read.attachments.filter((item) => item.id === value.id && item.url === url);
        const page = serialized(editable);
        const posted = page?.filter((item) => item.url === src) ?? [];
        return held.length === 1 && held[0]?.caption === alt && held[0].alt === alt && posted.length === 1 && posted[0]?.caption === alt ? read : null;
      },
      3000,
    );
    if (!kept) return refuse('Trix’s document does not hold the photo at the stored address with its caption', src);
    if (flat(kept.text) !== flat(first.text)) return refuse('the field’s text changed with the photo', src);
    return { ok: true, src, text: readEditable(editable), path: TRIX_PHOTO_PATH };
  } finally {
    if (previousFocus instanceof HTMLElement && previousFocus !== document.body) previousFocus.focus({ preventScroll: true });
  }
}

/** A rollback's: the attachment at `src` out of Trix's document, read back. */
async function removeTrixPhoto(request: { editable: Editable; src: string }): Promise<boolean> {
  const { editable, src } = request;
  const read = await ask(editable, 'read');
  if (!read.ok) return false;
  const held = read.attachments.filter((item) => item.url !== '' && resolved(editable, item.url) === src);
  for (const item of held) if (item.id === null || !(await takeOut(editable, { id: item.id, url: item.url }))) return false;
  return true;
}

export const trixImage: ImageUpload = {
  via: 'custom',
  alt: 'kept',
  insert: (request) => insertTrixPhoto(request),
  remove: removeTrixPhoto,
  checked:
    'trix 2.1.19 (npm; README “Storing Attached Files”: trix-attachment-add, attachment.file, setAttributes({url, href}); level_2_input_controller.js paste of files; Attachment.isPending/setAttributes; Editor getDocument/setSelectedRange/deleteInDirection); the trix page of e2e images.spec with a trix-attachment-add upload, 2026-12-01',
};
