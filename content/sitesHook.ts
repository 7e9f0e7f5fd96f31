/**
 * How the site adapters (content-sites.js) meet the content script: like the act module
 * (actHook.ts), through a global of the isolated world that page scripts can neither see nor
 * replace, keyed by a Symbol and read only as the world's own property (isolatedGlobal.ts). Every page carries only the list of what the adapters claim (adapters/claims.ts); a
 * page an adapter claims asks the worker for the module before it answers anything.
 */
import { SITE_CLAIMS } from './adapters/claims.ts';
import type { PageModel } from './pageModel.ts';
import { defineOwnGlobal, ownGlobal } from './isolatedGlobal.ts';
import { adapterMatches } from './siteAdapter.ts';

export interface SitesModule {
  /** The page as the adapter that claims it reads it (checked against the generic model), or null. */
  read(doc: Document): PageModel | null;
}

interface SitesHook {
  module: SitesModule | null;
  register(module: SitesModule): void;
}

const SITES_HOOK = Symbol.for('tether.sitesHook');

export function installSitesHook(): void {
  if (ownGlobal<SitesHook>(SITES_HOOK)) return;
  const hook: SitesHook = {
    module: null,
    register(module) {
      // The first registration wins: a second injection changes nothing.
      if (!hook.module) hook.module = module;
    },
  };
  defineOwnGlobal(SITES_HOOK, hook);
}

export function sitesHook(): SitesHook | null {
  return ownGlobal<SitesHook>(SITES_HOOK);
}

/** This page is on a site an adapter claims, and the adapters are not here yet. */
export function needsSitesModule(url: string = location.href): boolean {
  if (sitesHook()?.module) return false;
  const parsed = new URL(url);
  return SITE_CLAIMS.some((claim) => adapterMatches(claim, parsed));
}
