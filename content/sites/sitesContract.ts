/**
 * What the site adapters' module (content-sites.js) gives the content script, through its slot
 * (moduleSlot.ts). Every page carries only the list of what the adapters claim (adapters/claims.ts);
 * a page an adapter claims asks the worker for the module before it answers anything.
 */
import type { PageModel } from '../pageTypes.ts';

export interface SitesModule {
  /** The page as the adapter that claims it reads it (checked against the generic model), or null. */
  read(doc: Document): PageModel | null;
}
