/**
 * How the site adapters (content-sites.js) meet the content script: like the act module, through
 * a hook in the isolated world (moduleHook.ts). Every page carries only the list of what the adapters claim (adapters/claims.ts); a
 * page an adapter claims asks the worker for the module before it answers anything.
 */
import { SITE_CLAIMS } from './adapters/claims.ts';
import { installModuleHook, moduleHook, type ModuleHook } from './moduleHook.ts';
import type { PageModel } from './pageTypes.ts';
import { adapterMatches } from './siteAdapter.ts';

export interface SitesModule {
  /** The page as the adapter that claims it reads it (checked against the generic model), or null. */
  read(doc: Document): PageModel | null;
}

const SITES_HOOK = Symbol.for('tether.sitesHook');

export function installSitesHook(): void {
  installModuleHook<SitesModule, object>(SITES_HOOK, {});
}

export function sitesHook(): ModuleHook<SitesModule> | null {
  return moduleHook<ModuleHook<SitesModule>>(SITES_HOOK);
}

/** This page is on a site an adapter claims, and the adapters are not here yet. */
export function needsSitesModule(url: string = location.href): boolean {
  if (sitesHook()?.module) return false;
  const parsed = new URL(url);
  return SITE_CLAIMS.some((claim) => adapterMatches(claim, parsed));
}
