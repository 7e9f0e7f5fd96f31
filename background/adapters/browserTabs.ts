/**
 * Thin adapter from the browser's tab APIs to plain `TabMeta` (R1: metadata only).
 * documentId comes from webNavigation: it names the exact document a message may reach. A browser
 * that has no documentIds (Firefox 140) reports the frame without one; the document is then named
 * by the key the worker minted at its commit (topCommits.ts, shared/page/documentKey.ts).
 */
import browser, { type Tabs } from 'webextension-polyfill';
import type { TabMeta } from '../../shared/model/targetModel.ts';
import { topCommitKey } from './topCommits.ts';

async function topDocumentId(tabId: number): Promise<string | null> {
  try {
    const frame = await browser.webNavigation.getFrame({ tabId, frameId: 0 });
    if (!frame) return null;
    return (frame as { documentId?: string }).documentId ?? (await topCommitKey(tabId));
  } catch {
    return null;
  }
}

export async function toTabMeta(tab: Tabs.Tab): Promise<TabMeta | null> {
  if (tab.id === undefined || tab.id === browser.tabs.TAB_ID_NONE) return null;
  return metaOf(tab, tab.id, tab.discarded === true ? null : await topDocumentId(tab.id));
}

function metaOf(tab: Tabs.Tab, tabId: number, documentId: string | null): TabMeta {
  const discarded = tab.discarded === true;
  return {
    tabId,
    windowId: tab.windowId ?? -1,
    groupId: (tab as Tabs.Tab & { groupId?: number }).groupId ?? -1,
    index: tab.index,
    active: tab.active,
    url: tab.url ?? tab.pendingUrl ?? '',
    title: tab.title ?? '',
    status: discarded ? 'unloaded' : tab.status === 'loading' ? 'loading' : tab.status === 'unloaded' ? 'unloaded' : 'complete',
    discarded,
    documentId: discarded ? null : documentId,
  };
}

/**
 * The tab as the browser reports it now, or null when it no longer exists. Its metadata and its
 * document are asked for together (one round trip, not two); a navigation between the two answers
 * shows as a changed address or document, which revalidation refuses.
 */
export async function readTabMeta(tabId: number): Promise<TabMeta | null> {
  try {
    const [tab, documentId] = await Promise.all([browser.tabs.get(tabId), topDocumentId(tabId)]);
    return tab.id === undefined || tab.id === browser.tabs.TAB_ID_NONE ? null : metaOf(tab, tab.id, documentId);
  } catch {
    return null;
  }
}

export async function readTabsMeta(tabIds: readonly number[]): Promise<TabMeta[]> {
  const metas = await Promise.all(tabIds.map((tabId) => readTabMeta(tabId)));
  return metas.filter((meta): meta is TabMeta => meta !== null);
}

/** The view: the tab the person is looking at now (the active tab of the last focused window). */
export async function readView(): Promise<TabMeta | null> {
  try {
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    return tab ? await toTabMeta(tab) : null;
  } catch {
    return null;
  }
}

/**
 * The request-time tab: the workspace's active tab when the request arrived. When the workspace
 * spans windows, the one in the last focused window wins, then the most recently accessed.
 */
export async function readRequestTimeTab(memberTabIds: readonly number[]): Promise<number | null> {
  const active = await browser.tabs.query({ active: true });
  const members = active.filter((tab) => tab.id !== undefined && memberTabIds.includes(tab.id));
  if (members.length === 0) return null;
  let focusedWindowId: number | undefined;
  try {
    focusedWindowId = (await browser.windows.getLastFocused()).id;
  } catch {
    focusedWindowId = undefined;
  }
  const inFocused = members.find((tab) => tab.windowId === focusedWindowId);
  const chosen = inFocused ?? [...members].sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  return chosen?.id ?? null;
}
