/**
 * What an approval shows of each image: a small thumbnail (at most 160 px a side, JPEG, made in
 * the worker from bytes whose header was already checked: at most 100 megapixels), its file name,
 * size and where it comes from. The bytes themselves never go to the panel. Where the browser
 * cannot make a thumbnail (no OffscreenCanvas, a decode error), the approval shows the words alone.
 */
import type { ApprovalImage, ApprovalPostImage } from '../../shared/model/approval.ts';
import type { Outcome } from '../../shared/errors.ts';
import { checkImageBytes, decodeBase64, type ImageType } from '../../shared/imageBytes.ts';
import type { PostImage } from '../../shared/page/pageProtocol.ts';
import type { ActImage } from '../tools/actImages.ts';

const SIDE = 160;

async function thumbnail(image: { data: string; type: ImageType; width: number; height: number }): Promise<string | undefined> {
  const bytes = decodeBase64(image.data);
  return bytes ? thumbnailOf(bytes, image) : undefined;
}

async function thumbnailOf(bytes: Uint8Array<ArrayBuffer>, image: { type: ImageType; width: number; height: number }): Promise<string | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  try {
    const scale = Math.min(1, SIDE / Math.max(image.width, image.height));
    const width = Math.max(1, Math.round(image.width * scale));
    const height = Math.max(1, Math.round(image.height * scale));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: image.type }), { resizeWidth: width, resizeHeight: height, resizeQuality: 'medium' });
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
    const out = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (const byte of out) binary += String.fromCharCode(byte);
    return `data:image/jpeg;base64,${btoa(binary)}`;
  } catch {
    return undefined;
  }
}

export async function approvalImages(images: readonly ActImage[], asking: readonly ActImage[]): Promise<ApprovalImage[]> {
  return Promise.all(
    images.map(async (image) => {
      const small = await thumbnail(image);
      return {
        name: image.name,
        from: image.from,
        kind: image.kind,
        bytes: image.bytes,
        width: image.width,
        height: image.height,
        asks: asking.includes(image),
        ...(small === undefined ? {} : { thumbnail: small }),
      };
    }),
  );
}

/**
 * The images a post holds as its publish approval shows them: each loaded again from the address
 * the page shows it from (by adapters/fetchImage.ts's rule: the person's cookies only for the page's own origin), checked by its bytes, drawn
 * small. The page only names them; one that does not load or is not an image is shown in words.
 */
export async function postImageThumbnails(
  images: readonly PostImage[],
  fetchImage: (url: string) => Promise<Outcome<Uint8Array<ArrayBuffer>>>,
): Promise<ApprovalPostImage[]> {
  return Promise.all(
    images.slice(0, 20).map(async (image) => {
      let site = '';
      try {
        site = new URL(image.src).host;
      } catch {
        // not an address: no site to name
      }
      const shown = { alt: image.alt, width: image.width, height: image.height, site };
      const fetched = await fetchImage(image.src);
      const check = fetched.ok ? checkImageBytes(fetched.value) : null;
      if (!fetched.ok || !check?.ok) return shown;
      const small = await thumbnailOf(fetched.value, check.header);
      return small === undefined ? shown : { ...shown, thumbnail: small };
    }),
  );
}
