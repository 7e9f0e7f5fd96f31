/**
 * A reference page's image, fetched by the worker from the address that page shows it from, with
 * the person's cookies for that site (as the page loaded it; the browser's cache answers when it
 * still holds it). Only http(s); at most MAX_IMAGE_BYTES + 1 bytes are read, so an endless answer
 * is cut off, and what comes back is checked by its bytes (shared/imageBytes.ts), never its type.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { formatBytes, MAX_IMAGE_BYTES } from '../../shared/imageBytes.ts';

const FETCH_LIMIT_MS = 20_000;

export async function fetchImage(url: string): Promise<Outcome<Uint8Array<ArrayBuffer>>> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return failure(tetherError('invalid_request', 'The page shows this image from an address that is not one.', { url: url.slice(0, 200) }));
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return failure(
      tetherError('invalid_request', `The page shows this image from a ${parsed.protocol} address, which Tether does not copy.`, { url: url.slice(0, 200) }),
    );
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), FETCH_LIMIT_MS);
  try {
    const response = await fetch(parsed.href, { credentials: 'include', cache: 'force-cache', redirect: 'follow', signal: controller.signal });
    if (!response.ok || !response.body) {
      return failure(
        tetherError('invalid_request', `The image could not be loaded again from the page's address (HTTP ${response.status}).`, { url: parsed.href }),
      );
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > MAX_IMAGE_BYTES) {
        await reader.cancel();
        return failure(tetherError('invalid_request', `The image is over the limit of ${formatBytes(MAX_IMAGE_BYTES)}.`, { url: parsed.href }));
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return success(bytes);
  } catch {
    return failure(
      tetherError('invalid_request', 'The image could not be loaded again from the page’s address (the network failed or took too long).', {
        url: parsed.href,
      }),
    );
  } finally {
    clearTimeout(timer);
  }
}
