/** Plain-data builders for the pure core's tests. */
import type { Program, TabMeta, TargetBinding, Workspace } from '../model/targetModel.ts';

export const PROFILE = 'pr_test';

export function tab(tabId: number, url: string, title = `Tab ${tabId}`, extra: Partial<TabMeta> = {}): TabMeta {
  return {
    tabId,
    windowId: 1,
    groupId: -1,
    index: tabId,
    active: false,
    url,
    title,
    status: 'complete',
    discarded: false,
    documentId: `doc-${tabId}`,
    ...extra,
  };
}

export function workspace(tabs: TabMeta[], writable: string[] = [], extra: Partial<Workspace> = {}): Workspace {
  const sites: Workspace['sites'] = {};
  for (const item of tabs) {
    const origin = new URL(item.url).origin;
    sites[origin] = { writable: writable.includes(origin), publishWithoutApproval: false };
  }
  return {
    id: 'ws_test',
    name: 'Posts',
    shared: true,
    source: { kind: 'window', windowId: 1 },
    tabIds: tabs.map((item) => item.tabId),
    // Where the worker last saw each member (a real workspace always knows).
    memberUrls: Object.fromEntries(tabs.map((item) => [String(item.tabId), item.url])),
    sites,
    createdAt: 0,
    ...extra,
  };
}

export function binding(target: TabMeta, extra: Partial<TargetBinding> = {}): TargetBinding {
  return {
    profileId: PROFILE,
    workspaceId: 'ws_test',
    tabId: target.tabId,
    documentId: target.documentId ?? '',
    origin: new URL(target.url).origin,
    url: target.url,
    title: target.title,
    role: 'write',
    account: 'alice',
    pageInstance: 'pg_1',
    ...extra,
  };
}

export function program(id: string, label: string, target: TargetBinding, status: Program['status'] = 'running'): Program {
  return { id, label, workspaceId: target.workspaceId, target, status, createdAt: 0 };
}
