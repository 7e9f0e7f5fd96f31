/**
 * The browser and storage half of the person's handlers' context (uiHandlers.ts): the stores,
 * tabs, windows and tab groups, handles, departures, the scheduler, the journal and the agent
 * connection, as the worker has them. The other half (approvals, questions, holds, the harness)
 * is the worker's own and is added in index.ts.
 */
import browser from 'webextension-polyfill';
import type { TabMeta } from '../../shared/model/targetModel.ts';
import type { UiWindow } from '../../shared/extension/uiProtocol.ts';
import { tabReservations } from '../core/tabReservations.ts';
import { forgetDepartures } from '../state/departures.ts';
import { revokeHandles } from '../state/handles.ts';
import { exportJournal, getJournalRecord, listJournal } from '../state/journal.ts';
import { localStore, sessionStore } from '../state/store.ts';
import type { UiContext } from '../uiHandlers.ts';
import { connectionStatus, forgetPairing, reconnect, setPairing } from './agentConnection.ts';
import { readRequestTimeTab, readTabMeta, readTabsMeta, readView, toTabMeta } from './browserTabs.ts';
import { observeTab } from './observeTab.ts';
import { cancelScheduled } from './scheduler.ts';

type BrowserPart = Omit<UiContext, 'ready' | 'handleAgentRequest' | 'notify' | 'decideApproval' | 'answerQuestion' | 'releaseHold'>;

async function metas(tabs: Parameters<typeof toTabMeta>[0][]): Promise<TabMeta[]> {
  return (await Promise.all(tabs.map(toTabMeta))).filter((tab): tab is TabMeta => tab !== null);
}

async function windows(): Promise<UiWindow[]> {
  const all = await browser.windows.getAll({ populate: true, windowTypes: ['normal'] });
  const groups = await browser.tabGroups.query({});
  return all.map((window) => ({
    windowId: window.id ?? -1,
    focused: window.focused,
    tabCount: window.tabs?.length ?? 0,
    groups: groups
      .filter((group) => group.windowId === window.id)
      .map((group) => ({
        groupId: group.id,
        title: group.title ?? '',
        color: group.color,
        tabCount: window.tabs?.filter((tab) => (tab as { groupId?: number }).groupId === group.id).length ?? 0,
      })),
  }));
}

export function browserUiContext(): BrowserPart {
  return {
    local: localStore,
    session: sessionStore,
    tabs: {
      readTabMeta,
      readTabsMeta,
      readView,
      readRequestTimeTab,
      inWindow: async (windowId) => metas(await browser.tabs.query({ windowId })),
      inGroup: async (groupId) => {
        const group = await browser.tabGroups.get(groupId);
        const tabs = await browser.tabs.query({ groupId } as { windowId?: number });
        return { title: group.title ?? '', windowId: group.windowId, tabs: await metas(tabs) };
      },
      windows,
    },
    observeTab,
    busyTabIds: () => tabReservations.reserved(),
    revokeHandles,
    forgetDepartures,
    cancelScheduled,
    journal: { list: listJournal, get: getJournalRecord, export: exportJournal },
    connection: { status: connectionStatus, set: setPairing, forget: forgetPairing, reconnect },
    build: __TETHER_BUILD__,
    clock: () => Date.now(),
  };
}
