/**
 * Photos into the WordPress block editor through its own media upload (the family's `image`, via
 * `custom`), the way the editor's own image block and its file drops take one:
 *
 * 1. The store's blocks (core/block-editor getBlocks, read in the page's main world by the worker:
 *    background/adapters/blockEditorMain.ts) must read as the page shows them: the rendered
 *    blocks' client ids (`data-block`), in order. Where it goes (the end of the post, or after the
 *    block whose text starts with `after`) is found on the page, before anything is uploaded.
 * 2. The bytes go to the editor's `mediaUpload` setting (WordPress: @wordpress/editor's mediaUpload,
 *    @wordpress/media-utils' uploadMedia, POST /wp/v2/media); once it answers with the stored media,
 *    a core/image block with that url and the alt goes in with `insertBlocks` (one undo level in
 *    the editor's history: the person's Ctrl+Z takes it out). A failed upload inserts nothing.
 * 3. What the page answers is re-checked here, in the isolated world: the url is http(s) (never
 *    blob: or data:), the store holds a core/image with that client id, url and alt right after
 *    the named block (or last), and the page renders that block there, its `img` at that address
 *    with that alt, the post's text as it was. Anything short of that takes the block back out.
 * 4. A rollback removes the block (`removeBlocks`, only if it is still the core/image at that url),
 *    read back the same way.
 */
import { blobBase64 } from '../blobBase64.ts';
import type { ImageType } from '../../../shared/imageBytes.ts';
import { UPLOAD_WAIT_MS } from '../../../shared/imageBytes.ts';
import type { ListedBlock } from '../../../shared/page/blockEditorCall.ts';
import { sameFieldText } from '../../../shared/page/fieldText.ts';
import { readEditable, type Editable } from '../../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from '../families/family.ts';
import { blockAfter } from '../blockAfter.ts';
import { settle } from '../settle.ts';
import { asciiName } from '../smartEditorOne/photo.ts';
import { callStore, renderedTop, sameList, topOf } from './store.ts';

export const MEDIA_PATH = 'media-upload';

/** The text without spacing or zero-width characters (an image block adds an empty line). */
const wordsOnly = (text: string) =>
  text
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function blockElement(editable: Editable, clientId: string): HTMLElement | null {
  return Array.from(editable.element.querySelectorAll<HTMLElement>('[data-block]')).find((block) => block.getAttribute('data-block') === clientId) ?? null;
}

/** The rendered image block `clientId` shows `src` (resolved) with `alt`, right after `after` (or last in its parent). */
function rendersImage(editable: Editable, clientId: string, src: string, alt: string, after: string | null): boolean {
  const block = blockElement(editable, clientId);
  if (!block || block.getAttribute('data-type') !== 'core/image') return false;
  const img = block.querySelector('img');
  if (!img || img.getAttribute('src') === null || img.src !== src || (img.getAttribute('alt') ?? '') !== alt) return false;
  const previous = block.previousElementSibling;
  if (after === null) return block.nextElementSibling === null || !block.nextElementSibling.hasAttribute('data-block');
  return previous !== null && previous.getAttribute('data-block') === after;
}

/** The store's word that the image is there: a core/image of that id, url and alt, placed as asked. */
function storeHolds(blocks: ListedBlock[], clientId: string, url: string, alt: string, after: string | null, before: ListedBlock[]): boolean {
  const held = blocks.find((block) => block.clientId === clientId);
  if (!held || held.name !== 'core/image' || held.url !== url || (held.alt ?? '') !== alt) return false;
  // Every block that was there is still there; only this one is new.
  if (blocks.length !== before.length + 1 || !before.every((block) => blocks.some((now) => now.clientId === block.clientId))) return false;
  const siblings = blocks.filter((block) => block.parent === held.parent).map((block) => block.clientId);
  const at = siblings.indexOf(clientId);
  if (after === null) return held.parent === '' && at === siblings.length - 1;
  return at > 0 && siblings[at - 1] === after;
}

/** The store as the page shows it, or why not. */
async function checkedStore(editable: Editable): Promise<{ blocks: ListedBlock[] } | { problem: string }> {
  const read = await callStore({ op: 'read' });
  if (!read.ok)
    return {
      problem: `the block editor’s store cannot be reached (${read.reason}${read.message ? `: ${read.message}` : ''}); Tether never links a photo instead`,
    };
  if (!sameList(topOf(read.blocks), renderedTop(editable.element)))
    return { problem: 'the block editor’s store does not read as what the page shows; Tether writes neither way' };
  return { blocks: read.blocks };
}

async function insertMedia(request: CustomImageInsert): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const textBefore = readEditable(editable);
  const refuse = (problem: string, extra: { src?: string } = {}): CustomImageOutcome => ({ ok: false, problem, text: readEditable(editable), ...extra });
  const found = await checkedStore(editable);
  if ('problem' in found) return refuse(found.problem);
  let afterId: string | null = null;
  if (after !== undefined) {
    const named = blockAfter(editable.element, after);
    if ('problem' in named) return refuse(named.problem);
    afterId = named.block.closest('[data-block]')?.getAttribute('data-block') ?? null;
    if (afterId === null || !found.blocks.some((block) => block.clientId === afterId))
      return refuse('the paragraph to put the image after is not one of the editor’s blocks');
  }
  const type = (file.type || 'image/png') as ImageType;
  const bytes = await blobBase64(file);
  const answer = await callStore(
    { op: 'insert-image', name: asciiName(file.name, type), type, bytes, alt, after: afterId, limitMs: UPLOAD_WAIT_MS },
    UPLOAD_WAIT_MS + 10_000,
  );
  if (!answer.ok) {
    // Nothing goes in before the upload has finished; what the page says is checked anyway.
    const now = await callStore({ op: 'read' });
    const clean = now.ok && sameList(topOf(now.blocks), topOf(found.blocks));
    return refuse(
      `the editor’s media upload did not take the photo (${answer.reason}${answer.message ? `: ${answer.message}` : ''})${clean ? '' : '; the post changed meanwhile'}`,
    );
  }
  const inserted = answer.inserted;
  if (!inserted) return refuse('the editor answered without the image block');
  const takeBack = async (problem: string): Promise<CustomImageOutcome> => {
    const src = /^https?:\/\//i.test(inserted.url) ? new URL(inserted.url, editable.doc.baseURI).href : undefined;
    const gone = await removeBlock(editable, inserted.clientId, inserted.url);
    return refuse(
      gone ? `${problem}; the image was taken back out` : `${problem}, and it could not be taken back out`,
      gone || src === undefined ? {} : { src },
    );
  };
  if (!/^https?:\/\//i.test(inserted.url)) return takeBack('the site’s upload answered an address that is not http(s)');
  if (!storeHolds(answer.blocks, inserted.clientId, inserted.url, alt, afterId, found.blocks))
    return takeBack('the block editor’s store did not keep the image as placed');
  const src = new URL(inserted.url, editable.doc.baseURI).href;
  const shown = await settle([editable.element], () => rendersImage(editable, inserted.clientId, src, alt, afterId), { quietMs: 1000, deadlineMs: 5000 });
  if (!shown) return takeBack('the page does not show the image block the store says it holds');
  const text = readEditable(editable);
  if (!sameFieldText(wordsOnly(text), wordsOnly(textBefore))) return takeBack('the post’s text changed with the image');
  return { ok: true, src, text, path: MEDIA_PATH };
}

/** The block out of the store (only if it is still that core/image), read back on the page. */
async function removeBlock(editable: Editable, clientId: string, url: string): Promise<boolean> {
  const answer = await callStore({ op: 'remove-image', clientId, url });
  if (!answer.ok || answer.blocks.some((block) => block.clientId === clientId)) return false;
  return settle([editable.element], () => blockElement(editable, clientId) === null, { quietMs: 500, deadlineMs: 3000 });
}

/** An address the page gave, resolved; '' when it is no URL at all (page data: never a throw mid-rollback). */
function resolved(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return '';
  }
}

/** A rollback's: the core/image block at `src` out of the store, read back on the page. */
async function removeMedia(request: { editable: Editable; src: string }): Promise<boolean> {
  const { editable, src } = request;
  const read = await callStore({ op: 'read' });
  const onPage = () => Array.from(editable.element.querySelectorAll('[data-type="core/image"] img')).some((img) => (img as HTMLImageElement).src === src);
  if (!read.ok) return !onPage();
  const held = read.blocks.find((block) => block.name === 'core/image' && block.url !== undefined && resolved(block.url, editable.doc.baseURI) === src);
  if (!held || held.url === undefined) return !onPage();
  return (await removeBlock(editable, held.clientId, held.url)) && !onPage();
}

export const wordpressMediaUpload: ImageUpload = {
  via: 'custom',
  alt: 'kept',
  insert: insertMedia,
  remove: removeMedia,
  checked:
    '@wordpress/block-editor 18.0.0 (settings.mediaUpload, insertBlocks, removeBlocks), @wordpress/blocks 16.1.0 (createBlock core/image), @wordpress/api-fetch 7.56.0 and @wordpress/media-utils uploadMedia/uploadToServer on GitHub (POST /wp/v2/media); the wordpress-block-editor page of e2e images.spec, 2026-12-01',
};
