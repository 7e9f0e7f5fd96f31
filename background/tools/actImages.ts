/**
 * The images of an act, gathered in the worker before anything runs (docs/protocol.md, "Images"):
 * each source's bytes checked again here (the MCP server checked a file, but no side trusts
 * another), a reference page's image taken from the address that page itself shows it from (the
 * agent names only the handle and the image's name), and the plan the page gets stripped of every
 * byte (the bytes travel once each, staged ahead of the run: `stageImages`).
 *
 * What needs the person: bytes that come from the agent (a local file, inline data) are new data
 * leaving the computer, so they need the person's approval unless the site lets agents upload
 * images there without asking. A reference page's image is already on the web; it is listed in the
 * act's answer and the journal instead.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { checkImageBytes, decodeBase64, encodeBase64, imageFileName } from '../../shared/imageBytes.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import type { TargetBinding } from '../../shared/model/targetModel.ts';
import { mapImageSources, planImages, sourceKind } from '../../shared/agent/planImages.ts';
import type { ImageSource, Plan } from '../../shared/agent/planSchema.ts';
import { checkHandle } from '../core/checkHandle.ts';
import type { ToolContext } from '../toolContext.ts';
import { revalidateNow } from './revalidateNow.ts';
import { expectationOf } from '../core/pageExpectation.ts';

export type { ActImage } from '../core/contracts.ts';
import type { ActImage } from '../core/contracts.ts';

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

type Problem = { step: number; code: 'invalid_request' | 'invalid_handle' | 'context_changed'; message: string };

/**
 * Whether bytes of this size are the image a page shows at `shown` (its naturalWidth/Height): the
 * same size, or turned a quarter (an EXIF orientation the page applies), or scaled alike on both
 * sides by a srcset density above 1 (a 2x screen shows 2x bytes at half their size), rounded.
 * Seen so in Chromium 156, 2026-12-01.
 */
function showsAs(bytes: { width: number; height: number }, shown: { width: number; height: number }): boolean {
  return [
    [bytes.width, bytes.height],
    [bytes.height, bytes.width],
  ].some(([width = 0, height = 0]) => {
    if (width === shown.width && height === shown.height) return true;
    const density = width / shown.width;
    return density > 1 && Math.abs(height / density - shown.height) <= 1;
  });
}

/** A reference page's image: the handle must be of this workspace, the page must show the image by that name now. */
async function referenceImage(
  context: ToolContext,
  write: TargetBinding,
  source: { ref: string; image: string },
): Promise<{ bytes: Uint8Array<ArrayBuffer>; from: string; name: string } | { code: Problem['code']; message: string }> {
  const record = checkHandle(
    await context.handles.get(source.ref),
    source.ref,
    { profileId: write.profileId, workspaceId: write.workspaceId },
    context.clock(),
  );
  if (!record.ok)
    return {
      code: record.error.code === 'invalid_handle' ? 'invalid_handle' : 'invalid_request',
      message: `The image ${source.image}: ${record.error.message}`,
    };
  const binding = record.value.binding;
  const still = await revalidateNow(context, binding);
  if (!still.ok) return { code: 'context_changed', message: `The page of ${source.ref} changed since it was resolved: ${still.error.message}` };
  const shown = await context.askPage(binding.tabId, binding.documentId, { type: 'image', expect: expectationOf(binding), name: source.image });
  if (!shown.ok) return { code: 'invalid_request', message: `The image ${source.image} of ${siteLabel(binding.url)}: ${shown.error.message}` };
  const fetched = await context.fetchImage(shown.value.url, binding.url);
  if (!fetched.ok) return { code: 'invalid_request', message: `The image ${source.image} of ${siteLabel(binding.url)}: ${fetched.error.message}` };
  const check = checkImageBytes(fetched.value);
  if (check.ok && !showsAs(check.header, shown.value)) {
    // What the page said it shows is only believed when the bytes say the same.
    return {
      code: 'invalid_request',
      message: `The image ${source.image} of ${siteLabel(binding.url)} is not what the page shows (${check.header.width}×${check.header.height} at its address, ${shown.value.width}×${shown.value.height} on the page).`,
    };
  }
  let base = source.image;
  try {
    base = decodeURIComponent(new URL(shown.value.url).pathname.split('/').pop() ?? '') || source.image;
  } catch {
    // keep the image's name
  }
  return { bytes: fetched.value, from: `${siteLabel(binding.url)} · ${source.image}`, name: base };
}

/** Every image of the plan with its bytes checked, or a refusal naming each one that cannot go (nothing runs). */
export async function gatherImages(context: ToolContext, write: TargetBinding, plan: Plan): Promise<Outcome<ActImage[]>> {
  const { uses, problems: naming } = planImages(plan);
  const problems: Problem[] = naming.map((item) => ({ ...item, code: 'invalid_request' }));
  const images: ActImage[] = [];
  for (const [index, use] of uses.entries()) {
    const { source } = use;
    const kind = sourceKind(source);
    let bytes: Uint8Array<ArrayBuffer> | null;
    let from: string;
    let wanted: string | undefined;
    if ('ref' in source) {
      const found = await referenceImage(context, write, source);
      if ('code' in found) {
        problems.push({ step: use.step, code: found.code, message: found.message });
        continue;
      }
      bytes = found.bytes;
      from = found.from;
      wanted = found.name;
    } else if ('file' in source) {
      from = source.file;
      wanted = source.file;
      if (source.data === undefined) {
        problems.push({
          step: use.step,
          code: 'invalid_request',
          message: `The image file ${source.file} came without its bytes: files are read by Tether's MCP server (npx tether-mcp), which sends them; this request did not come through it.`,
        });
        continue;
      }
      bytes = decodeBase64(source.data);
    } else {
      from = source.name ?? 'inline image';
      wanted = source.name;
      bytes = decodeBase64(source.data);
    }
    const check = bytes ? checkImageBytes(bytes) : ({ ok: false, problem: 'its data is not base64' } as const);
    if (!bytes || !check.ok) {
      problems.push({ step: use.step, code: 'invalid_request', message: `The image ${from} cannot be sent: ${check.ok ? 'no bytes' : check.problem}.` });
      continue;
    }
    images.push({
      use: use.use,
      id: `im${index}`,
      kind,
      name: imageFileName(wanted, check.header.type),
      from,
      type: check.header.type,
      width: check.header.width,
      height: check.header.height,
      bytes: bytes.length,
      data: 'ref' in source ? encodeBase64(bytes) : (source as { data: string }).data,
      sha256: await sha256(bytes),
    });
  }
  if (problems.length > 0) {
    const first = problems[0];
    const message =
      problems.length === 1 && first
        ? `Step ${first.step + 1}: ${first.message} Nothing ran.`
        : `${problems.length} problems with the plan's images; nothing ran.`;
    return failure(tetherError(first?.code ?? 'invalid_request', message, { problems }));
  }
  return success(images);
}

/**
 * The plan as the page, the approval digest and the journal see it: no bytes, only what names
 * them (a file's path, an inline image's name) and the digest of each image's bytes.
 */
export function pagePlan(plan: Plan, images: readonly ActImage[]): Plan {
  const byUse = new Map(images.map((image) => [image.use, image]));
  return mapImageSources(plan, (source: ImageSource, use): ImageSource => {
    const digest = `sha256-${byUse.get(use)?.sha256 ?? ''}`;
    if ('file' in source) return { file: source.file, data: digest };
    if ('data' in source) return { data: digest, ...(source.name === undefined ? {} : { name: source.name }) };
    return source;
  });
}

/** The images that need the person's yes before they leave the computer (none when the site lets agents upload without asking). */
export function imagesNeedingApproval(images: readonly ActImage[], uploadImagesWithoutAsking: boolean | undefined): ActImage[] {
  return uploadImagesWithoutAsking === true ? [] : images.filter((image) => image.kind !== 'reference');
}

/** Each image's bytes into the write page, ahead of the run (one message each), or the page's refusal. */
export async function stageImages(context: ToolContext, binding: TargetBinding, requestId: string, images: readonly ActImage[]): Promise<Outcome<true>> {
  for (const image of images) {
    const staged = await context.askPage(binding.tabId, binding.documentId, {
      type: 'stageImage',
      expect: expectationOf(binding),
      requestId,
      id: image.id,
      name: image.name,
      data: image.data,
    });
    if (!staged.ok) return staged;
  }
  return success(true);
}
