/**
 * A reference page names the address of its image, so the page chooses where the worker fetches
 * from. The worker fetches with the extension's host permissions (no CORS, and cookies a page's
 * own cross-site request would not carry): the person's cookies must go only to the reference
 * page's own origin, and never follow a redirect to another, or any page could have a private image
 * of another site (a mail attachment, a members-only photo) copied into the person's post.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePng } from '../../shared/testing/imageFixtures.ts';
import { fetchImage } from './fetchImage.ts';

const PHOTO = new Uint8Array(makePng(4, 4));
const CAFE = 'https://cafe.example/posts/7';

type Seen = { url: string; credentials: RequestCredentials | undefined; redirect: RequestRedirect | undefined };

function stubFetch(answer: (seen: Seen) => Response): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call = { url, credentials: init.credentials, redirect: init.redirect };
    seen.push(call);
    return answer(call);
  });
  return seen;
}

const photo = () => new Response(PHOTO, { status: 200 });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchImage: whose cookies go where', () => {
  it('an image of the page’s own origin goes with the person’s cookies (a members-only photo), not following a redirect', async () => {
    const seen = stubFetch(photo);
    const fetched = await fetchImage('https://cafe.example/media/ridge.png', CAFE);
    expect(fetched.ok).toBe(true);
    expect(seen).toEqual([{ url: 'https://cafe.example/media/ridge.png', credentials: 'include', redirect: 'manual' }]);
  });

  it('an image of another origin (a CDN, or a page naming another site’s private image) goes without them', async () => {
    const seen = stubFetch(photo);
    expect((await fetchImage('https://cdn.example/harbor.png', CAFE)).ok).toBe(true);
    expect((await fetchImage('https://mail.example/attachment?id=1', CAFE)).ok).toBe(true);
    expect((await fetchImage('http://cafe.example/media/ridge.png', CAFE)).ok).toBe(true);
    expect(seen.map(({ credentials }) => credentials)).toEqual(['omit', 'omit', 'omit']);
  });

  it('an address of the page’s origin that redirects is fetched again without cookies (they never follow it elsewhere)', async () => {
    // What a manual fetch answers a redirect with: an opaque redirect (status 0, no body, no Location).
    const opaqueRedirect = { type: 'opaqueredirect', ok: false, status: 0, body: null } as unknown as Response;
    const seen = stubFetch(({ redirect }) => (redirect === 'manual' ? opaqueRedirect : photo()));
    const fetched = await fetchImage('https://cafe.example/go?to=https://mail.example/secret.png', CAFE);
    expect(fetched.ok).toBe(true);
    expect(seen.map(({ credentials, redirect }) => [credentials, redirect])).toEqual([
      ['include', 'manual'],
      ['omit', 'follow'],
    ]);
  });
});
