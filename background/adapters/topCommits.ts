/**
 * Where the browser gives no documentId (Firefox 140), each tab's top document is named by a key
 * the worker mints when the browser reports a top-frame commit (see shared/page/documentKey.ts). The
 * key is kept in storage.session, one entry per tab, so it survives the event page being unloaded;
 * `webNavigation.onCommitted` wakes the event page to deliver the commit.
 *
 * A browser that reports documentIds never has a key written: its commits carry a documentId.
 */
import browser, { type WebNavigation } from 'webextension-polyfill';
import { commitKey } from '../../shared/page/documentKey.ts';
import { newId } from '../../shared/ids.ts';

const KEY_PREFIX = 'tether.topCommit.';
const storageKey = (tabId: number) => `${KEY_PREFIX}${tabId}`;
/** Names the documents of tabs with no commit seen yet, once per browser session (tab ids restart with it). */
const SESSION_MARK_KEY = 'tether.topCommitSession';
let sessionMark: Promise<string> | null = null;

function firstMark(): Promise<string> {
  sessionMark ??= (async () => {
    const { [SESSION_MARK_KEY]: stored } = await browser.storage.session.get(SESSION_MARK_KEY);
    if (typeof stored === 'string') return stored;
    const mark = newId('first', 9);
    await browser.storage.session.set({ [SESSION_MARK_KEY]: mark });
    return mark;
  })();
  return sessionMark;
}

export async function noteTopCommit(details: WebNavigation.OnCommittedDetailsType): Promise<void> {
  if (details.frameId !== 0 || (details as { documentId?: unknown }).documentId !== undefined) return;
  await browser.storage.session.set({ [storageKey(details.tabId)]: commitKey(details.tabId, newId('c', 9)) });
}

/** The key of the tab's top document now; a tab with no commit seen in this session has the session's first key. */
export async function topCommitKey(tabId: number): Promise<string> {
  const key = storageKey(tabId);
  const [{ [key]: stored }, first] = await Promise.all([browser.storage.session.get(key), firstMark()]);
  return typeof stored === 'string' ? stored : commitKey(tabId, first);
}

export async function forgetTopCommits(tabId: number): Promise<void> {
  await browser.storage.session.remove(storageKey(tabId));
}
