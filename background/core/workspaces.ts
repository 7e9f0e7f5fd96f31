/**
 * Workspaces are made and changed only by the person, through Tether's own pages; agents can
 * never create or widen one — and neither can a page. The pure functions here keep membership
 * true as tabs close, are replaced, navigate, or join and leave the tab group a workspace was made
 * from.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import { originOf, type SitePolicy, type TabMeta, type Workspace, type WorkspaceSource } from '../../shared/model/targetModel.ts';

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
    memberUrls: Object.fromEntries(webTabs.map((tab) => [String(tab.tabId), tab.url])),
    sites: withSitesOf(
      {},
      webTabs.map((tab) => tab.url),
    ),
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
  return {
    ...workspace,
    tabIds: [...workspace.tabIds, tab.tabId],
    memberUrls: { ...workspace.memberUrls, [String(tab.tabId)]: tab.url },
    sites: withSitesOf(workspace.sites, [tab.url]),
  };
}

export function withTabRemoved(workspace: Workspace, tabId: number): Workspace {
  if (!workspace.tabIds.includes(tabId)) return workspace;
  const { [String(tabId)]: _gone, ...memberUrls } = workspace.memberUrls ?? {};
  return { ...workspace, tabIds: workspace.tabIds.filter((id) => id !== tabId), memberUrls };
}

/** A workspace of the web pages among `tabs` (the person's window or tab group); none is `target_not_found`. */
export function workspaceFromTabs(input: { tabs: TabMeta[]; name: string | undefined; source: WorkspaceSource; now: number }): Outcome<Workspace> {
  const webTabs = input.tabs.filter((tab) => originOf(tab.url) !== null);
  if (webTabs.length === 0) return failure(tetherError('target_not_found', 'There are no web pages to put in a workspace here.'));
  return success(newWorkspace({ name: input.name ?? defaultWorkspaceName(webTabs), source: input.source, tabs: webTabs, now: input.now }));
}

/** A site's policy as the person set it: the origin of what they typed, and no empty expected account. */
export function sitePolicyFor(site: string, policy: SitePolicy): Outcome<{ origin: string; policy: SitePolicy }> {
  const origin = originOf(site);
  if (!origin) return failure(tetherError('invalid_request', 'A site is an http(s) origin, like https://blog.example.'));
  const kept = { ...policy };
  if (kept.expectedAccount !== undefined && kept.expectedAccount.trim() === '') delete kept.expectedAccount;
  return success({ origin, policy: kept });
}

export function withSitePolicy(workspace: Workspace, origin: string, policy: SitePolicy): Workspace {
  return { ...workspace, sites: { ...workspace.sites, [origin]: policy } };
}

/**
 * One workspace changed as it is in `workspaces` now (so a tab event handled meanwhile is not
 * overwritten by an older copy); an unknown id changes nothing and is `unknown_scope`.
 */
export function changeWorkspace(
  workspaces: Workspaces,
  workspaceId: string,
  change: (workspace: Workspace) => Workspace,
): Outcome<{ workspaces: Workspaces; changed: Workspace }> {
  const current = workspaces[workspaceId];
  if (!current) return failure(tetherError('unknown_scope', 'No such workspace.', { workspace: workspaceId }));
  const changed = change(current);
  return success({ workspaces: { ...workspaces, [workspaceId]: changed }, changed });
}

export function withoutWorkspace(workspaces: Workspaces, workspaceId: string): Workspaces {
  const { [workspaceId]: _deleted, ...rest } = workspaces;
  return rest;
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
  return mapWorkspaces(workspaces, (workspace) => {
    if (!workspace.tabIds.includes(removedTabId)) return workspace;
    const { [String(removedTabId)]: url, ...memberUrls } = workspace.memberUrls ?? {};
    return {
      ...workspace,
      tabIds: workspace.tabIds.map((id) => (id === removedTabId ? addedTabId : id)),
      memberUrls: url === undefined ? memberUrls : { ...memberUrls, [String(addedTabId)]: url },
    };
  });
}

/** A member tab that went to another site (one its workspace has or not), and so left it. */
export interface Departure {
  workspaceId: string;
  tabId: number;
  fromUrl: string;
  toUrl: string;
}

/** Is this address on a site (origin) the workspace has? Pages that are not web pages never are. */
export function hasSiteOf(workspace: Workspace, url: string): boolean {
  const origin = originOf(url);
  return origin !== null && workspace.sites[origin] !== undefined;
}

/**
 * A member tab that navigates within its own site (origin) stays, its address remembered. One that
 * goes to any other origin leaves the workspace — one the workspace did not have (the person never
 * chose it, and a reference page could carry itself there and have it read), and equally another
 * of the workspace's own sites: a page can send its tab there by itself, and a reference cafe tab
 * must not become a write candidate on the blog by running `location.href = <blog page>`. A tab
 * whose last address is unknown cannot be told to stay on its site, so it leaves too. The
 * departures are returned so the person is told; only they add a tab back.
 */
export function onTabNavigated(workspaces: Workspaces, tabId: number, url: string): { workspaces: Workspaces; departures: Departure[] } {
  const departures: Departure[] = [];
  const next = mapWorkspaces(workspaces, (workspace) => {
    const fromUrl = workspace.memberUrls?.[String(tabId)];
    if (!workspace.tabIds.includes(tabId) || fromUrl === url) return workspace;
    const from = fromUrl === undefined ? null : originOf(fromUrl);
    if (from === null || originOf(url) !== from || !hasSiteOf(workspace, url)) {
      departures.push({ workspaceId: workspace.id, tabId, fromUrl: fromUrl ?? '', toUrl: url });
      return withTabRemoved(workspace, tabId);
    }
    return { ...workspace, memberUrls: { ...workspace.memberUrls, [String(tabId)]: url } };
  });
  return { workspaces: next, departures };
}

/**
 * A new browser session reuses tab ids for other tabs. A member keeps its place only if the tab
 * with its id still shows the address it was last seen at; every other id is dropped, so an
 * unrelated tab can never inherit a workspace's place (or its permissions).
 */
export function keepSurvivingMembers(workspaces: Workspaces, tabsNow: ReadonlyArray<{ tabId: number; url: string }>): Workspaces {
  const urlNow = new Map(tabsNow.map((tab) => [tab.tabId, tab.url]));
  return mapWorkspaces(workspaces, (workspace) => {
    const kept = workspace.tabIds.filter((id) => {
      const remembered = workspace.memberUrls?.[String(id)];
      return remembered !== undefined && urlNow.get(id) === remembered;
    });
    if (kept.length === workspace.tabIds.length) return workspace;
    return {
      ...workspace,
      tabIds: kept,
      memberUrls: Object.fromEntries(kept.map((id) => [String(id), workspace.memberUrls?.[String(id)] ?? ''])),
    };
  });
}

/**
 * A tab that leaves the group a workspace was made from leaves the workspace. A tab that joins the
 * group does not join the workspace by itself: a page can open tabs into its own group, and only
 * the person widens a workspace (they add it in the panel).
 */
export function onTabGroupChanged(workspaces: Workspaces, tab: TabMeta): Workspaces {
  return mapWorkspaces(workspaces, (workspace) =>
    workspace.source.kind === 'group' && tab.groupId !== workspace.source.groupId ? withTabRemoved(workspace, tab.tabId) : workspace,
  );
}
