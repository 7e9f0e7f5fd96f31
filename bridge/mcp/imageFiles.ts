/**
 * An image file an agent names reaches the browser only through here: the MCP server reads it as
 * the user who started it, and refuses — naming the path and the problem — anything that is not
 * one of that user's regular files holding a PNG, JPEG, GIF or WebP within the limits
 * (shared/imageBytes.ts). What the path names is looked at before it is opened: opening is not
 * harmless for what is not a regular file (a writer blocked on a FIFO goes on; a serial device
 * resets the board on it). Then the open file is what is checked, and it must be the file looked
 * at, so swapping the path between the look and the read changes nothing. Inline bytes are checked
 * here too, before anything is sent; the browser checks all of it again.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isAbsolute, win32 } from 'node:path';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { checkImageBytes, decodeBase64, encodeBase64, formatBytes, MAX_IMAGE_BYTES } from '../../shared/imageBytes.ts';
import { mapImageSources, planImages } from '../../shared/agent/planImages.ts';
import type { ImageSource, Plan } from '../../shared/agent/planSchema.ts';

export interface FileOwner {
  /** The user this process runs as (POSIX); undefined where there are no uids (Windows). */
  uid: number | undefined;
  platform: NodeJS.Platform;
}

const THIS_PROCESS: FileOwner = { uid: typeof process.getuid === 'function' ? process.getuid() : undefined, platform: process.platform };

function errorWords(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'there is no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'it cannot be read (permission denied)';
  if (code === 'ELOOP') return 'it is a loop of symbolic links';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  // Opening a unix socket fails so: it is no file to read.
  if (code === 'ENXIO') return 'it is a socket or a device nobody serves, not a regular file';
  return `it cannot be read (${typeof code === 'string' ? code : 'unknown error'})`;
}

/** Reads and checks one image file; the refusal says what is wrong, in words that name no bytes. */
export type FileRead = { ok: true; data: string; bytes: number } | { ok: false; problem: string };

const refuse = (problem: string): FileRead => ({ ok: false, problem });

/** Why this is not a regular file, or null when it is one. */
function notRegular(info: Stats): string | null {
  if (info.isDirectory()) return 'it is a folder, not a file';
  if (info.isFIFO()) return 'it is a FIFO (a named pipe), not a regular file';
  if (info.isSocket()) return 'it is a socket, not a regular file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'it is a device, not a regular file';
  if (!info.isFile()) return 'it is not a regular file';
  return null;
}

export async function readImageFile(path: string, owner: FileOwner = THIS_PROCESS): Promise<FileRead> {
  const absolute = owner.platform === 'win32' ? win32.isAbsolute(path) && /^[A-Za-z]:[\\/]/.test(path) : isAbsolute(path);
  if (/^file:/i.test(path)) return refuse('it is a URL: give the file’s absolute path (e.g. /home/you/photo.jpg), not a file: address');
  if (!absolute) return refuse('it is not an absolute path (relative paths are refused: give the whole path from /)');
  if (path.includes('\0')) return refuse('it contains a NUL character');
  let looked: Stats;
  try {
    looked = await stat(path);
  } catch (error) {
    return refuse(errorWords(error));
  }
  const kind = notRegular(looked);
  if (kind) return refuse(kind);
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOCTTY: a terminal never becomes ours.
    const flags = constants.O_RDONLY | (owner.platform === 'win32' ? 0 : constants.O_NONBLOCK | constants.O_NOCTTY);
    handle = await open(path, flags);
  } catch (error) {
    return refuse(errorWords(error));
  }
  try {
    const info = await handle.stat();
    const opened = notRegular(info);
    if (opened) return refuse(opened);
    if (info.dev !== looked.dev || info.ino !== looked.ino) return refuse('another file took its place while it was being read');
    if (owner.uid !== undefined && info.uid !== owner.uid) {
      return refuse(`it belongs to another user (uid ${info.uid}; this server runs as uid ${owner.uid}): only your own files are sent`);
    }
    if (info.size > MAX_IMAGE_BYTES) return refuse(`it is ${formatBytes(info.size)}, over the limit of ${formatBytes(MAX_IMAGE_BYTES)}`);
    // Read at most one byte more than the limit: a file that grows meanwhile is still refused.
    const buffer = new Uint8Array(Math.min(info.size, MAX_IMAGE_BYTES) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > MAX_IMAGE_BYTES) return refuse(`it is over the limit of ${formatBytes(MAX_IMAGE_BYTES)}`);
    const bytes = buffer.subarray(0, length);
    const check = checkImageBytes(bytes);
    if (!check.ok) return refuse(check.problem);
    return { ok: true, data: encodeBase64(bytes), bytes: length };
  } catch (error) {
    return refuse(errorWords(error));
  } finally {
    await handle.close();
  }
}

/**
 * The act's plan with every file read in as `data` (the browser never sees a path it could read),
 * or a refusal listing every image that cannot go (the path or the key, and why).
 */
export async function attachImageFiles(plan: Plan, owner: FileOwner = THIS_PROCESS): Promise<Outcome<Plan>> {
  const { uses, problems: naming } = planImages(plan);
  const problems: Array<{ step: number; code: 'invalid_request'; message: string }> = naming.map((item) => ({ ...item, code: 'invalid_request' }));
  const read = new Map<string, string>();
  for (const use of uses) {
    const { source } = use;
    if ('file' in source) {
      if (source.data !== undefined) {
        problems.push({ step: use.step, code: 'invalid_request', message: `Give the file by its path only: Tether reads ${source.file} itself.` });
        continue;
      }
      const file = await readImageFile(source.file, owner);
      if (file.ok) read.set(use.use, file.data);
      else problems.push({ step: use.step, code: 'invalid_request', message: `The image file ${source.file} cannot be sent: ${file.problem}.` });
    } else if ('data' in source) {
      const bytes = decodeBase64(source.data);
      const check = bytes ? checkImageBytes(bytes) : ({ ok: false, problem: 'its data is not base64' } as const);
      if (!check.ok)
        problems.push({
          step: use.step,
          code: 'invalid_request',
          message: `The inline image${source.name ? ` ${source.name}` : ''} cannot be sent: ${check.problem}.`,
        });
    }
  }
  if (problems.length > 0) {
    const first = problems[0];
    const message =
      problems.length === 1 && first
        ? `Step ${first.step + 1}: ${first.message} Nothing ran.`
        : `${problems.length} problems with the plan's images; nothing ran.`;
    return failure(tetherError('invalid_request', message, { problems }));
  }
  return success(
    mapImageSources(plan, (source: ImageSource, use) => {
      const data = read.get(use);
      return data !== undefined && 'file' in source ? { file: source.file, data } : source;
    }),
  );
}
