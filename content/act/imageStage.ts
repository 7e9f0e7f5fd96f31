/**
 * Image bytes the worker hands the act module ahead of an act (one message per image: the page
 * channel carries one message of at most 64 MB, and an act may place 20 images of 20 MB). Checked
 * again here, before they are kept: the worker checked them, but nothing trusts one side.
 * Kept for that act only, and for 10 minutes at most.
 */
import { tetherError, type TetherError } from '../../shared/errors.ts';
import { checkImageBytes, decodeBase64, imageFileName, MAX_IMAGES_PER_ACT } from '../../shared/imageBytes.ts';
import type { StagedImage } from '../editors/image.ts';

const KEPT_MS = 10 * 60 * 1000;
const staged = new Map<string, Map<string, StagedImage>>();

export function stageImage(
  requestId: string,
  id: string,
  name: string,
  data: string,
): { ok: true; value: { stored: true } } | { ok: false; error: TetherError } {
  const bytes = decodeBase64(data);
  if (!bytes) return { ok: false, error: tetherError('invalid_request', `The image ${name} did not arrive as base64.`) };
  const check = checkImageBytes(bytes);
  if (!check.ok) return { ok: false, error: tetherError('invalid_request', `The image ${name} is refused in the page: ${check.problem}.`) };
  let forAct = staged.get(requestId);
  if (!forAct) {
    forAct = new Map();
    staged.set(requestId, forAct);
    setTimeout(() => staged.delete(requestId), KEPT_MS);
  }
  if (!forAct.has(id) && forAct.size >= MAX_IMAGES_PER_ACT)
    return { ok: false, error: tetherError('invalid_request', `At most ${MAX_IMAGES_PER_ACT} images in one act.`) };
  const { type, width, height } = check.header;
  forAct.set(id, { blob: new Blob([bytes], { type }), name: imageFileName(name, type), type, width, height });
  return { ok: true, value: { stored: true } };
}

export function stagedImage(requestId: string, id: string): StagedImage | null {
  return staged.get(requestId)?.get(id) ?? null;
}

/** The act is over: its bytes are let go. */
export function releaseImages(requestId: string): void {
  staged.delete(requestId);
}
