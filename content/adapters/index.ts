/** The adapters Tether knows, most specific first; unknown sites get the generic adapter. */
import { adapterMatches, type SiteAdapter } from '../siteAdapter.ts';
import { testBlogAdapter, testCafeAdapter } from './testSites.ts';

export const SITE_ADAPTERS: readonly SiteAdapter[] = [testBlogAdapter, testCafeAdapter];

export function adapterFor(url: URL): SiteAdapter | null {
  return SITE_ADAPTERS.find((adapter) => adapterMatches(adapter, url)) ?? null;
}
