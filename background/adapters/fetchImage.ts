/**
 * A reference page's image, fetched by the worker from the address that page shows it from. The
 * page chooses that address, and the worker fetches with the extension's host permissions (no
 * CORS, and cookies a page's own cross-site request would not carry), so the person's cookies go
 * only with an address of the page's own origin (a members-only photo), and never along a
 * redirect: one that redirects is fetched again without them, as is every other origin's (a CDN).
 * Otherwise any page could show another site's private image (a mail attachment) and have its
 * bytes copied into the person's post. Only http(s); at most MAX_IMAGE_BYTES + 1 bytes are read,
 * so an endless answer is cut off, and what comes back is checked by its bytes
 * (shared/imageBytes.ts), never its type.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { formatBytes, MAX_IMAGE_BYTES } from '../../shared/imageBytes.ts';

const FETCH_LIMIT_MS = 20_000;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** `page`: the address of the reference page that shows the image. */
export async function fetchImage(url: string, page: string): Promise<Outcome<Uint8Array<ArrayBuffer>>> {
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
    const own = originOf(page) === parsed.origin;
    const first = await fetch(parsed.href, {
      credentials: own ? 'include' : 'omit',
      cache: 'force-cache',
      redirect: own ? 'manual' : 'follow',
      signal: controller.signal,
    });
    const response =
      first.type === 'opaqueredirect'
        ? await fetch(parsed.href, { credentials: 'omit', cache: 'force-cache', redirect: 'follow', signal: controller.signal })
        : first;
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
