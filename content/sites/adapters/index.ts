/** The adapters Tether knows, most specific first; unknown sites get the generic adapter. */
import { adapterMatches, type SiteAdapter } from '../../siteAdapter.ts';
import { naverBlogAdapter } from './naverBlog.ts';
import { naverCafeAdapter } from './naverCafe.ts';
import { testSiteAdapters } from './testSites.ts';
import { tistoryAdapter } from './tistory.ts';
import { wordpressAdapter } from './wordpress.ts';

/** Set by the build (vite.config.ts): true only in the test build, never in the product. */
declare const __TETHER_TEST_SITES__: boolean;

export const SITE_ADAPTERS: readonly SiteAdapter[] = [
  naverBlogAdapter,
  naverCafeAdapter,
  tistoryAdapter,
  wordpressAdapter,
  ...(__TETHER_TEST_SITES__ ? testSiteAdapters : []),
];

/** The first adapter that claims the page's address and, if it names markers, finds one on the page. */
export function adapterFor(url: URL, doc: Document): SiteAdapter | null {
  return (
    SITE_ADAPTERS.find(
      (adapter) => adapterMatches(adapter, url) && (adapter.markers === undefined || adapter.markers.some((marker) => doc.querySelector(marker) !== null)),
    ) ?? null
  );
}
