/**
 * Photos into SmartEditor ONE through its own uploader (the family's `image`, via `custom`):
 *
 * 1. The model must read as what the page shows (as for any write: driver.ts checkedModel).
 * 2. The bytes go to the editor's `_imageUploadService.uploadImagesFromFiles` in the main world of
 *    the bound editor frame (the worker's one main-world call, on the Naver adapters' hosts only,
 *    for fields a Naver adapter marks only), which posts them to Naver's upphoto host; its answer
 *    is checked here (photoModel.ts checkUpload): a url that is missing, not a string, oversized or
 *    on a host other than Naver's photo hosts is refused, and nothing goes in.
 * 3. The image component built from that answer (its url is the component's `path`, CSH) goes into
 *    the document model at the end or after the named paragraph (setDocumentData), read back: the
 *    model holds one image at the stored address with the alt as its caption, and the rendered
 *    page (read here, in the isolated world) shows that image and caption, the rest as it was.
 * 4. Anything short of that puts the model back as it was and reads it back; what is still there is
 *    said (the step's src, so the plan's rollback tries again and reports `details.leftOver`).
 *
 * Ctrl+Z: the write is a setDocumentData, which the record does not show in the editor's undo
 * history (the suite's fixture clears the history on it), so the person's Ctrl+Z does not take
 * the photo out; Tether's rollback does (withoutPhoto, read back the same way).
 */
import { blobBase64 } from '../blobBase64.ts';
import type { ImageType } from '../../../shared/imageBytes.ts';
import type { Editable } from '../../editables.ts';
import type { CustomImageInsert, CustomImageOutcome, ImageUpload } from '../families/family.ts';
import { settle } from '../settle.ts';
import { callModel, checkedModel, loose, random, rendered, type SmartEditorField } from './driver.ts';
import { documentRoot } from './rendered.ts';
import { captionText, checkUpload, imageComponents, photoComponent, placePhoto, withoutPhoto } from './photoModel.ts';
import { bodyText, parseDocumentData, titleText, type SeDocumentData } from './seModel.ts';

/** Set by the build: true only in the test build (its fixtures serve Naver's photo hosts over http, on a port). */
declare const __TETHER_TEST_SITES__: boolean;

export const PHOTO_PATH = 'image-upload-service';

function fieldOf(editable: Editable): SmartEditorField {
  return { element: editable.element, doc: editable.doc, ...(editable.smartEditor ? { smartEditor: editable.smartEditor } : {}) };
}

/** An ASCII file name (Korean names end up percent-encoded in the path: CSH). */
export function asciiName(name: string, type: ImageType): string {
  const extension = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }[type];
  const stem = name
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return `${stem || 'photo'}.${extension}`;
}

/** The rendered photos: each `.se-image` component's image address and caption text. */
function renderedPhotos(root: HTMLElement): Array<{ src: string; caption: string }> {
  return Array.from(root.querySelectorAll('.se-component.se-image')).map((component) => {
    const img = component.querySelector<HTMLImageElement>('img.se-image-resource');
    const caption = Array.from(component.querySelectorAll('.se-caption p.se-text-paragraph'))
      .map((paragraph) => (paragraph.textContent ?? '').replace(/\u200b/g, ''))
      .join('\n');
    return { src: img && img.getAttribute('src') !== null ? img.src : '', caption };
  });
}

/** Waits until the page shows what `want` holds: its title, its body, and its photos. */
async function pageShows(field: SmartEditorField, want: SeDocumentData): Promise<boolean> {
  const photos = imageComponents(want).map((image) => ({ src: String(image.src ?? ''), caption: captionText(image) }));
  const check = () => {
    const page = rendered(field);
    if (!page || loose(page.title) !== loose(titleText(want)) || loose(page.body) !== loose(bodyText(want))) return false;
    const shown = renderedPhotos(page.root);
    return (
      shown.length === photos.length &&
      photos.every((photo, index) => {
        const seen = shown[index];
        return seen !== undefined && seen.src === new URL(photo.src, field.doc.baseURI).href && loose(seen.caption) === loose(photo.caption);
      })
    );
  };
  const root = documentRoot(field.element);
  return settle(root ? [root] : [field.doc.body], check, { quietMs: 250, deadlineMs: 5000 });
}

/** The model holds `want` (title, body text, and each photo's address, path and caption). */
function modelHolds(after: SeDocumentData | null, want: SeDocumentData): boolean {
  if (!after || loose(titleText(after)) !== loose(titleText(want)) || loose(bodyText(after)) !== loose(bodyText(want))) return false;
  const have = imageComponents(after);
  const wanted = imageComponents(want);
  return (
    have.length === wanted.length &&
    wanted.every((image, index) => {
      const held = have[index];
      return held !== undefined && held.src === image.src && held.path === image.path && loose(captionText(held)) === loose(captionText(image));
    })
  );
}

/** Writes `next` (JSON text) through the model; true when the model and the page both hold it. */
async function writeAndCheck(field: SmartEditorField, next: string): Promise<boolean> {
  const ref = field.smartEditor;
  const want = parseDocumentData(next);
  if (!ref || !want) return false;
  const answer = await callModel(ref, { op: 'write', data: next, title: titleText(want) });
  const after = answer.ok ? parseDocumentData(answer.data) : null;
  return modelHolds(after, want) && (await pageShows(field, want));
}

async function insertPhoto(request: CustomImageInsert): Promise<CustomImageOutcome> {
  const { editable, file, alt, after } = request;
  const field = fieldOf(editable);
  const text = () => rendered(field)?.body ?? '';
  const refuse = (problem: string, extra: { src?: string } = {}): CustomImageOutcome => ({ ok: false, problem, text: text(), ...extra });
  const ref = field.smartEditor;
  // Only a field a Naver adapter marks, on its hosts (the worker checks the host again): never an object named SmartEditor elsewhere.
  if (!ref || ref.part !== 'body')
    return refuse('photos go into SmartEditor ONE through its own uploader only in the body of a Naver Blog or Naver Cafe write page');
  const found = await checkedModel(field, ref);
  if ('fallback' in found) return refuse(`the editor’s uploader cannot be reached (${found.fallback}); Tether never links a photo instead`);
  if ('refuse' in found) return refuse(found.refuse);
  const before = found.data;
  // Where it goes must be there before anything is uploaded.
  const placedCheck = placePhoto(before, {}, after, random);
  if ('problem' in placedCheck) return refuse(placedCheck.problem);

  const type = (file.type || 'image/png') as ImageType;
  const bytes = await blobBase64(file);
  const uploaded = await callModel(ref, { op: 'upload', name: asciiName(file.name, type), type, bytes });
  if (!uploaded.ok) return refuse(`the editor’s uploader did not take the photo (${uploaded.reason}${uploaded.message ? `: ${uploaded.message}` : ''})`);
  const checked = checkUpload(uploaded.data, __TETHER_TEST_SITES__, { width: request.width, height: request.height, fileSize: file.size });
  if ('problem' in checked) return refuse(`${checked.problem}; nothing was put in (the site may keep the upload: nothing deletes it there)`);

  const represent = imageComponents(before).every((component) => component.represent !== true);
  const component = photoComponent(checked.photo, alt, represent, random);
  const placed = placePhoto(before, component, after, random);
  if ('problem' in placed) return refuse(placed.problem);
  const next = JSON.stringify(placed.document);
  const src = String(component.src);
  const shownSrc = new URL(src, editable.doc.baseURI).href;
  if (await writeAndCheck(field, next)) return { ok: true, src: shownSrc, text: text(), path: PHOTO_PATH };
  // Not kept as written: the model as it was, read back; what is still there is said.
  const restored = await writeAndCheck(field, found.text);
  return refuse(
    restored
      ? 'the editor’s model did not keep the photo as written; the document was put back as it was'
      : 'the editor’s model did not keep the photo as written, and the document could not be put back as it was',
    restored ? {} : { src: shownSrc },
  );
}

/** A rollback's: the photo at `src` out of the model, read back in the model and on the page. */
async function removePhoto(request: { editable: Editable; src: string }): Promise<boolean> {
  const field = fieldOf(request.editable);
  const ref = field.smartEditor;
  const root = documentRoot(field.element);
  const onPage = () => (root ? renderedPhotos(root).some((photo) => photo.src === request.src) : false);
  if (!ref) return !onPage();
  const found = await checkedModel(field, ref);
  if (!('data' in found)) return false;
  const matches = (value: unknown) => typeof value === 'string' && new URL(value, request.editable.doc.baseURI).href === request.src;
  const held = imageComponents(found.data).find((image) => matches(image.src));
  if (!held) return !onPage();
  return writeAndCheck(field, JSON.stringify(withoutPhoto(found.data, String(held.src))));
}

export const smartEditorOneImage: ImageUpload = {
  via: 'custom',
  alt: 'kept',
  insert: insertPhoto,
  remove: removePhoto,
  checked:
    'CSH (csh1668/naver-blog-automation spike/findings.md §4, 2026-08-28): _imageUploadService.uploadImagesFromFiles, the component mapping (path = the answer’s url); the suite’s fixture (e2e/sites/naver/), 2026-12-01',
};
