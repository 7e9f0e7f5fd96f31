/**
 * The site adapters' entry (built to content-sites.js, injected by the worker only into pages an
 * adapter claims, when the content script there asks for it). It registers the adapters' reader
 * with the content script through its slot in the isolated world (moduleSlot.ts) and does nothing else.
 */
import { readSitePage } from './siteReader.ts';
import { sitesSlot } from '../moduleSlot.ts';

sitesSlot.get()?.register({ read: readSitePage });
