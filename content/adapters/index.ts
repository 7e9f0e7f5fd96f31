/** The adapters Tether knows, most specific first; unknown sites get the generic adapter. */
import { adapterMatches, type SiteAdapter } from '../siteAdapter.ts';
import { testSiteAdapters } from './testSites.ts';

/** Set by the build (vite.config.ts): true only in the test build, never in the product. */
declare const __TETHER_TEST_SITES__: boolean;

export const SITE_ADAPTERS: readonly SiteAdapter[] = [...(__TETHER_TEST_SITES__ ? testSiteAdapters : [])];

export function adapterFor(url: URL): SiteAdapter | null {
  return SITE_ADAPTERS.find((adapter) => adapterMatches(adapter, url)) ?? null;
}
