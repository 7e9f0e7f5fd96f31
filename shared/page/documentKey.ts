/**
 * What a binding names a document by. Chromium and Firefox ≥ 142 give every document a
 * `documentId` (webNavigation, `tabs.sendMessage({documentId})`, `scripting` `documentIds`), and
 * Tether uses it as it is. Firefox 140 (the ESR many people run) gives none, and refuses a
 * `documentId` option outright; there the worker names the tab's top document itself: a key it
 * mints at each top-frame commit the browser reports (navigation, reload, back/forward — a page
 * restored from the back/forward cache commits again), `nav:<tabId>:<random>`. Such a key cannot
 * address a document, so messages go to the tab's top frame and the page checks, in the same turn
 * as it acts, that it is the page instance the binding saw (content/pageChannelServer.ts).
 */

const COMMIT_KEY_PREFIX = 'nav:';

export function commitKey(tabId: number, mark: string): string {
  return `${COMMIT_KEY_PREFIX}${tabId}:${mark}`;
}

/** A key the worker minted (no browser documentId behind it): address the tab's top frame instead. */
export function isCommitKey(documentId: string): boolean {
  return documentId.startsWith(COMMIT_KEY_PREFIX);
}
