/**
 * The site adapters' entry (built to content-sites.js, injected by the worker only into pages an
 * adapter claims, when the content script there asks for it). It registers the adapters' reader
 * with the content script through the isolated world's hook and does nothing else.
 */
import { readSitePage } from './siteReader.ts';
import { sitesHook } from './sitesHook.ts';

sitesHook()?.register({ read: readSitePage });
