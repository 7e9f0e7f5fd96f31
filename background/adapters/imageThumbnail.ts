/**
 * What an approval shows of each image: a small thumbnail (at most 160 px a side, JPEG, made in
 * the worker from bytes whose header was already checked: at most 100 megapixels), its file name,
 * size and where it comes from. The bytes themselves never go to the panel. Where the browser
 * cannot make a thumbnail (no OffscreenCanvas, a decode error), the approval shows the words alone.
 */
import type { ApprovalImage } from '../../shared/approval.ts';
import { decodeBase64 } from '../../shared/imageBytes.ts';
import type { ActImage } from '../tools/actImages.ts';

const SIDE = 160;

async function thumbnail(image: ActImage): Promise<string | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  const bytes = decodeBase64(image.data);
  if (!bytes) return undefined;
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
