/**
 * Workspaces are made and changed only by the person, through Tether's own pages; agents can
 * never create or widen one. The pure functions here keep membership true as tabs close, are
 * replaced, navigate, or join and leave the tab group a workspace was made from.
 */
import { newId } from '../shared/ids.ts';
import { siteLabel } from '../shared/matchSite.ts';
import { originOf, type SitePolicy, type TabMeta, type Workspace, type WorkspaceSource } from '../shared/model.ts';

export const DEFAULT_SITE_POLICY: SitePolicy = { writable: false, publishWithoutApproval: false };

type Workspaces = Record<string, Workspace>;

function withSitesOf(sites: Record<string, SitePolicy>, urls: string[]): Record<string, SitePolicy> {
  const next = { ...sites };
  for (const url of urls) {
    const origin = originOf(url);
    if (origin && !next[origin]) next[origin] = { ...DEFAULT_SITE_POLICY };
  }
  return next;
}

export function defaultWorkspaceName(tabs: TabMeta[]): string {
  const sites = [...new Set(tabs.map((tab) => siteLabel(tab.url).replace(/:\d+$/, '')))].slice(0, 3);
  return sites.length > 0 ? sites.join(' + ') : 'Workspace';
}

export function newWorkspace(input: { name: string; source: WorkspaceSource; tabs: TabMeta[]; now: number }): Workspace {
  const webTabs = input.tabs.filter((tab) => originOf(tab.url) !== null);
  return {
    id: newId('ws', 9),
    name: input.name,
    shared: false,
    source: input.source,
    tabIds: webTabs.map((tab) => tab.tabId),
    sites: withSitesOf({}, webTabs.map((tab) => tab.url)),
    createdAt: input.now,
  };
}

function mapWorkspaces(workspaces: Workspaces, change: (workspace: Workspace) => Workspace): Workspaces {
  let changed = false;
  const next: Workspaces = {};
  for (const [id, workspace] of Object.entries(workspaces)) {
    const updated = change(workspace);
    if (updated !== workspace) changed = true;
    next[id] = updated;
  }
  return changed ? next : workspaces;
}

export function withTabAdded(workspace: Workspace, tab: TabMeta): Workspace {
  if (workspace.tabIds.includes(tab.tabId) || originOf(tab.url) === null) return workspace;
  return { ...workspace, tabIds: [...workspace.tabIds, tab.tabId], sites: withSitesOf(workspace.sites, [tab.url]) };
}

export function withTabRemoved(workspace: Workspace, tabId: number): Workspace {
  if (!workspace.tabIds.includes(tabId)) return workspace;
  return { ...workspace, tabIds: workspace.tabIds.filter((id) => id !== tabId) };
}

/** A closed tab leaves every workspace. */
export function onTabClosed(workspaces: Workspaces, tabId: number): Workspaces {
  return mapWorkspaces(workspaces, (workspace) => withTabRemoved(workspace, tabId));
}

/**
 * A replaced tab (prerender, discard restore) keeps its place in the workspace under the new id.
 * Handles bound to the old id still fail: the tab they were bound to is gone.
 */
export function onTabReplaced(workspaces: Workspaces, addedTabId: number, removedTabId: number): Workspaces {
  return mapWorkspaces(workspaces, (workspace) =>
    workspace.tabIds.includes(removedTabId)
      ? { ...workspace, tabIds: workspace.tabIds.map((id) => (id === removedTabId ? addedTabId : id)) }
      : workspace,
  );
}

/** A member tab that navigates to a new site brings that site in, not writable until the person says so. */
export function onTabNavigated(workspaces: Workspaces, tabId: number, url: string): Workspaces {
  const origin = originOf(url);
  return mapWorkspaces(workspaces, (workspace) =>
    workspace.tabIds.includes(tabId) && origin !== null && !workspace.sites[origin]
      ? { ...workspace, sites: withSitesOf(workspace.sites, [url]) }
      : workspace,
  );
}

/** A workspace made from a tab group follows the group: tabs joining it join, tabs leaving it leave. */
export function onTabGroupChanged(workspaces: Workspaces, tab: TabMeta): Workspaces {
  return mapWorkspaces(workspaces, (workspace) => {
    if (workspace.source.kind !== 'group') return workspace;
    if (tab.groupId === workspace.source.groupId) return withTabAdded(workspace, tab);
    return withTabRemoved(workspace, tab.tabId);
  });
}
