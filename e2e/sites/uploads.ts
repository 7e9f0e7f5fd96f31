/**
 * What the test sites do with images, as real sites do: an upload endpoint the editors post a
 * file to (multipart, the field each editor's documentation names: TinyMCE `file` and an answer
 * `{location}`, tiny.cloud/docs/tinymce/latest/upload-images, checked 2026-12-01 against tinymce
 * 8.9.2's default handler; CKEditor 5's simple upload adapter `upload` and `{url}`), for signed-in
 * users only, kept per site and served back under /uploads/; and photos a post shows, one that
 * needs the site's session cookie (as a cafe's member-only images) and one from another origin (as
 * a CDN serves them).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeGif, makePng } from '../../shared/testing/imageFixtures.ts';

export interface Upload {
  name: string;
  type: string;
  bytes: Buffer;
  field: string;
  user: string;
}

/** The photos the sites serve under /media/ (real, decodable images). */
export const MEDIA: Record<string, { type: string; bytes: Uint8Array; cookie: boolean }> = {
  // Needs the cafe's session (member-only).
  'ridge.png': { type: 'image/png', bytes: makePng(320, 200, (x, y) => [40 + (x % 200), 90 + (y % 120), 160]), cookie: true },
  // Served by the blog's host to the cafe's page: another origin, as a CDN.
  'harbor.png': { type: 'image/png', bytes: makePng(240, 160, (x) => [20, 60 + (x % 180), 200]), cookie: false },
  'icon.png': { type: 'image/png', bytes: makePng(16, 16), cookie: false },
  'pixel.gif': { type: 'image/gif', bytes: makeGif(1, 1), cookie: false },
  'badge.png': { type: 'image/png', bytes: makePng(120, 120, () => [250, 200, 0]), cookie: false },
};

async function bytesOf(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * POST /api/uploads (multipart): the first file field is kept and answered with where it is
 * served now; GET /uploads/<n>.<ext> serves it; GET /media/<name> serves the photos. Null: not an
 * image path.
 */
export async function handleImages(
  request: IncomingMessage,
  response: ServerResponse,
  context: { path: string; method: string; user: string | null; origin: string; uploads: Upload[]; delayMs?: number },
): Promise<boolean> {
  const { path, method, user, uploads } = context;
  const media = /^\/media\/([a-z]+\.(?:png|gif))$/.exec(path)?.[1];
  if (media && method === 'GET') {
    const item = MEDIA[media];
    if (!item || (item.cookie && !user)) {
      response.writeHead(item ? 403 : 404, { 'content-type': 'text/plain' }).end(item ? 'members only' : 'no such photo');
      return true;
    }
    response.writeHead(200, { 'content-type': item.type, 'cache-control': 'private, max-age=3600' }).end(Buffer.from(item.bytes));
    return true;
  }
  const stored = /^\/uploads\/(\d+)\.[a-z]+$/.exec(path)?.[1];
  if (stored && method === 'GET') {
    const item = uploads[Number(stored)];
    if (!item) response.writeHead(404, { 'content-type': 'text/plain' }).end('no such upload');
    else response.writeHead(200, { 'content-type': item.type, 'cache-control': 'public, max-age=3600' }).end(item.bytes);
    return true;
  }
  // WordPress's media route (POST /wp/v2/media, multipart `file`): what the block editor's
  // mediaUpload posts to; answered as its REST API answers (source_url, alt_text empty for a new upload).
  const wordpress = path === '/wp/v2/media';
  if ((path === '/api/uploads' || wordpress) && method === 'POST') {
    const answer = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (!user) {
      answer(401, { error: { message: 'sign in first' } });
      return true;
    }
    const raw = await bytesOf(request, 25 * 1024 * 1024);
    if (!raw) {
      answer(413, { error: { message: 'too large' } });
      return true;
    }
    // The platform's own multipart parser (undici's Request.formData), as a server framework would.
    const form = await new Request('http://upload.invalid/', {
      method: 'POST',
      headers: { 'content-type': request.headers['content-type'] ?? '' },
      body: new Uint8Array(raw),
    })
      .formData()
      .catch(() => null);
    const entry = form ? [...form.entries()].find(([, value]) => typeof value !== 'string') : undefined;
    if (!entry) {
      answer(400, { error: { message: 'no file in the upload' } });
      return true;
    }
    const [field, file] = entry as [string, File];
    const extension = EXTENSIONS[file.type];
    if (!extension) {
      answer(415, { error: { message: `not an image: ${file.type}` } });
      return true;
    }
    if (context.delayMs) await new Promise((resolve) => setTimeout(resolve, context.delayMs));
    const id = uploads.length;
    uploads.push({ name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()), field, user });
    const location = `${context.origin}/uploads/${id}.${extension}`;
    // TinyMCE reads `location`, CKEditor 5's simple upload adapter `url`, CKEditor 4's filetools
    // `uploaded` and `url` (its fileUploadResponse handler cancels an answer without `uploaded`);
    // WordPress answers a media object.
    if (wordpress) answer(201, { id: id + 1, source_url: location, alt_text: '', media_type: 'image', mime_type: file.type });
    else answer(200, { location, url: location, uploaded: 1, fileName: file.name });
    return true;
  }
  return false;
}
