import { describe, expect, it } from 'vitest';
import { tab, workspace } from '../../shared/testing/fixtures.ts';
import {
  changeWorkspace,
  defaultWorkspaceName,
  sitePolicyFor,
  withoutWorkspace,
  withSitePolicy,
  workspaceFromTabs,
  hasSiteOf,
  keepSurvivingMembers,
  newWorkspace,
  onTabClosed,
  onTabGroupChanged,
  onTabNavigated,
  onTabReplaced,
  withTabAdded,
  withTabRemoved,
} from './workspaces.ts';

const blog = tab(1, 'https://blog.example/write');
const cafe = tab(2, 'https://cafe.example/posts/1');
const settings = tab(3, 'chrome://settings');

describe('workspaces keep membership true', () => {
  it('a new workspace holds only web pages, shares nothing, allows writing nowhere', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'window', windowId: 1 }, tabs: [blog, cafe, settings], now: 5 });
    expect(created.tabIds).toEqual([1, 2]);
    expect(created.shared).toBe(false);
    expect(Object.values(created.sites).every((site) => !site.writable && !site.publishWithoutApproval)).toBe(true);
    expect(Object.keys(created.sites)).toEqual(['https://blog.example', 'https://cafe.example']);
  });

  it('a closed tab leaves', () => {
    const next = onTabClosed({ ws_test: workspace([blog, cafe]) }, 2);
    expect(next.ws_test?.tabIds).toEqual([1]);
  });

  it('a replaced tab keeps its place under the new id', () => {
    const next = onTabReplaced({ ws_test: workspace([blog, cafe]) }, 20, 2);
    expect(next.ws_test?.tabIds).toEqual([1, 20]);
  });

  it.each([
    { name: 'another site', url: 'https://evil.example/' },
    { name: 'the same host on another port', url: 'https://blog.example:8443/write' },
    { name: 'http instead of https', url: 'http://cafe.example/posts/1' },
    { name: 'a page that is not a web page', url: 'chrome://settings' },
    { name: 'about:blank', url: 'about:blank' },
  ])('a member navigating to an origin the workspace did not have ($name) leaves it; no site is added', ({ url }) => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog, cafe], now: 0 });
    const before = { [created.id]: { ...created, sites: { ...created.sites, 'https://blog.example': { writable: true, publishWithoutApproval: false } } } };
    const { workspaces: next, departures } = onTabNavigated(before, 2, url);
    expect(next[created.id]?.tabIds).toEqual([1]);
    expect(next[created.id]?.memberUrls).toEqual({ '1': blog.url });
    expect(next[created.id]?.sites).toEqual(before[created.id]?.sites);
    expect(departures).toEqual([{ workspaceId: created.id, tabId: 2, fromUrl: cafe.url, toUrl: url }]);
  });

  describe('a member navigating: within its site it stays; to any other site, even one the workspace has, it leaves', () => {
    // A page can send its own tab anywhere (location.href): a reference cafe tab sent to the
    // writable blog must not become a write candidate until the person adds it back.
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog, cafe], now: 0 });
    const writableBlog = { ...created, sites: { ...created.sites, 'https://blog.example': { writable: true, publishWithoutApproval: false } } };
    it.each([
      {
        name: 'cafe → a blog page the cafe chose (the workspace has the blog, writable)',
        tabId: 2,
        url: 'https://blog.example/attacker-chosen?prefill=1',
        stays: false,
      },
      { name: 'blog → the cafe (the workspace has it, read only)', tabId: 1, url: 'https://cafe.example/posts/2', stays: false },
      { name: 'cafe → another cafe page', tabId: 2, url: 'https://cafe.example/posts/3', stays: true },
      { name: 'cafe → the same page with a fragment', tabId: 2, url: 'https://cafe.example/posts/1#comments', stays: true },
      { name: 'blog → another blog page', tabId: 1, url: 'https://blog.example/posts/3', stays: true },
      { name: 'blog → the same host over http', tabId: 1, url: 'http://blog.example/write', stays: false },
    ])('$name → stays: $stays', ({ tabId, url, stays }) => {
      const from = tabId === 1 ? blog.url : cafe.url;
      const { workspaces: next, departures } = onTabNavigated({ [created.id]: writableBlog }, tabId, url);
      const after = next[created.id];
      expect(after?.sites).toEqual(writableBlog.sites);
      if (stays) {
        expect(after?.tabIds).toEqual([1, 2]);
        expect(after?.memberUrls?.[String(tabId)]).toBe(url);
        expect(departures).toEqual([]);
      } else {
        expect(after?.tabIds).toEqual([1, 2].filter((id) => id !== tabId));
        expect(after?.memberUrls?.[String(tabId)]).toBeUndefined();
        expect(departures).toEqual([{ workspaceId: created.id, tabId, fromUrl: from, toUrl: url }]);
      }
    });

    it('a member whose last address is unknown (older data) leaves on any navigation: its site cannot be told', () => {
      const older = { ...writableBlog, memberUrls: {} };
      const { workspaces: next, departures } = onTabNavigated({ [created.id]: older }, 2, 'https://cafe.example/posts/2');
      expect(next[created.id]?.tabIds).toEqual([1]);
      expect(departures).toEqual([{ workspaceId: created.id, tabId: 2, fromUrl: '', toUrl: 'https://cafe.example/posts/2' }]);
    });

    it('added back by the person, it is a member again on its new site (the policy the person set stays)', () => {
      const left = onTabNavigated({ [created.id]: writableBlog }, 2, 'https://blog.example/attacker-chosen').workspaces[created.id];
      if (!left) throw new Error('gone');
      const back = withTabAdded(left, tab(2, 'https://blog.example/attacker-chosen'));
      expect(back.tabIds).toEqual([1, 2]);
      expect(back.memberUrls?.['2']).toBe('https://blog.example/attacker-chosen');
      expect(back.sites).toEqual(writableBlog.sites);
    });
  });

  it('a tab in two workspaces that changes site leaves both (each is told), whether or not the workspace has the new site', () => {
    const narrow = { ...workspace([cafe]), id: 'ws_narrow' };
    const wide = { ...workspace([cafe, tab(5, 'https://evil.example/x')]), id: 'ws_wide' };
    const { workspaces: next, departures } = onTabNavigated({ ws_narrow: narrow, ws_wide: wide }, 2, 'https://evil.example/y');
    expect(next.ws_narrow?.tabIds).toEqual([]);
    expect(next.ws_wide?.tabIds).toEqual([5]);
    expect(departures.map((item) => item.workspaceId)).toEqual(['ws_narrow', 'ws_wide']);
    const within = onTabNavigated({ ws_narrow: narrow, ws_wide: wide }, 2, 'https://cafe.example/posts/9');
    expect([within.workspaces.ws_narrow?.tabIds, within.workspaces.ws_wide?.tabIds, within.departures]).toEqual([[2], [2, 5], []]);
  });

  it('a non-member navigating changes nothing', () => {
    const before = { ws_test: workspace([blog]) };
    expect(onTabNavigated(before, 9, 'https://evil.example/')).toEqual({ workspaces: before, departures: [] });
    expect(onTabNavigated(before, 9, 'https://evil.example/').workspaces).toBe(before);
  });

  it('a tab leaving the group leaves the workspace; a tab joining the group does not join by itself', () => {
    const grouped = { ws_test: workspace([blog, cafe], [], { source: { kind: 'group', groupId: 7, windowId: 1 } }) };
    const opened = tab(9, 'https://blog.example/opened-by-a-page', 'Opened by a page', { groupId: 7 });
    expect(onTabGroupChanged(grouped, opened)).toBe(grouped);
    const left = onTabGroupChanged(grouped, { ...blog, groupId: -1 });
    expect(left.ws_test?.tabIds).toEqual([2]);
  });

  it('a window workspace ignores groups', () => {
    const before = { ws_test: workspace([blog]) };
    expect(onTabGroupChanged(before, { ...cafe, groupId: 7 })).toBe(before);
  });

  it('a new browser session keeps only members whose tab id still shows the address they had', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog, cafe], now: 0 });
    const next = keepSurvivingMembers({ [created.id]: created }, [
      { tabId: 1, url: blog.url },
      { tabId: 2, url: 'https://mail.example/inbox' },
    ]);
    expect(next[created.id]?.tabIds).toEqual([1]);
    expect(next[created.id]?.memberUrls).toEqual({ '1': blog.url });
  });

  it('members without a remembered address (older data) are dropped after a restart', () => {
    const older = workspace([blog], [], { memberUrls: undefined });
    expect(keepSurvivingMembers({ ws_test: older }, [{ tabId: 1, url: blog.url }]).ws_test?.tabIds).toEqual([]);
  });

  it('navigation updates the remembered address', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog], now: 0 });
    const moved = onTabNavigated({ [created.id]: created }, 1, 'https://blog.example/write?draft=2').workspaces;
    expect(moved[created.id]?.memberUrls).toEqual({ '1': 'https://blog.example/write?draft=2' });
  });
});

describe('workspaces: the details each change keeps', () => {
  const withUrls = (base: ReturnType<typeof workspace>) => ({
    ...base,
    memberUrls: Object.fromEntries(base.tabIds.map((id) => [String(id), id === 1 ? blog.url : cafe.url])),
  });

  it.each([
    { tabs: [blog, cafe], name: 'blog.example + cafe.example' },
    { tabs: [tab(4, 'http://blog.localhost:4173/write'), tab(5, 'http://blog.localhost:4173/x')], name: 'blog.localhost' },
    {
      tabs: [tab(6, 'https://a.example/'), tab(7, 'https://b.example/'), tab(8, 'https://c.example/'), tab(9, 'https://d.example/')],
      name: 'a.example + b.example + c.example',
    },
    { tabs: [], name: 'Workspace' },
  ])('a default name from its sites: $name', ({ tabs, name }) => {
    expect(defaultWorkspaceName(tabs)).toBe(name);
  });

  it('a new workspace remembers each member’s address, an id of its own, and its sites unwritable', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'window', windowId: 1 }, tabs: [blog, cafe], now: 5 });
    expect(created.id).toMatch(/^ws_/);
    expect(created.memberUrls).toEqual({ '1': blog.url, '2': cafe.url });
    expect(created.sites['https://blog.example']).toEqual({ writable: false, publishWithoutApproval: false });
  });

  it('a tab added: its id and address, and its site read-only; a tab already in or not a web page changes nothing', () => {
    const base = withUrls(workspace([blog], ['https://blog.example']));
    const added = withTabAdded(base, cafe);
    expect(added.tabIds).toEqual([1, 2]);
    expect(added.memberUrls).toEqual({ '1': blog.url, '2': cafe.url });
    expect(added.sites).toEqual({
      'https://blog.example': { writable: true, publishWithoutApproval: false },
      'https://cafe.example': { writable: false, publishWithoutApproval: false },
    });
    // A second tab of a site the workspace has keeps that site's policy.
    expect(withTabAdded(base, tab(5, 'https://blog.example/other')).sites['https://blog.example']).toEqual({ writable: true, publishWithoutApproval: false });
    expect(withTabAdded(base, blog)).toBe(base);
    expect(withTabAdded(base, settings)).toBe(base);
  });

  it('a tab removed keeps the others; removing one that is not there changes nothing', () => {
    const base = withUrls(workspace([blog, cafe]));
    expect(withTabRemoved(base, 2)).toMatchObject({ tabIds: [1], memberUrls: { '1': blog.url } });
    expect(withTabRemoved(base, 2).memberUrls).not.toHaveProperty('2');
    expect(withTabRemoved(base, 9)).toBe(base);
  });

  it('a replaced tab takes its address along under the new id; another workspace is left as it is', () => {
    const base = withUrls(workspace([blog, cafe]));
    const other = { ...workspace([tab(3, 'https://notes.example/')]), id: 'ws_other' };
    const next = onTabReplaced({ ws_test: base, ws_other: other }, 20, 2);
    expect(next.ws_test).toMatchObject({ tabIds: [1, 20], memberUrls: { '1': blog.url, '20': cafe.url } });
    expect(next.ws_test?.memberUrls).not.toHaveProperty('2');
    expect(next.ws_other).toBe(other);
    // A member without a remembered address is moved all the same.
    expect(onTabReplaced({ ws_test: { ...workspace([blog, cafe]), memberUrls: {} } }, 20, 2).ws_test).toMatchObject({ tabIds: [1, 20], memberUrls: {} });
  });

  it('hasSiteOf: a site of the workspace, not another site, never a non-web page', () => {
    const base = workspace([blog]);
    expect(hasSiteOf(base, 'https://blog.example/other')).toBe(true);
    expect(hasSiteOf(base, 'https://cafe.example/')).toBe(false);
    expect(hasSiteOf(base, 'chrome://settings')).toBe(false);
  });

  it('a navigation to the same address, or of a tab that is no member, changes nothing; a departure says where from', () => {
    const base = withUrls(workspace([blog, cafe]));
    const all = { ws_test: base };
    expect(onTabNavigated(all, 1, blog.url).workspaces.ws_test).toBe(base);
    expect(onTabNavigated(all, 9, 'https://evil.example/').workspaces.ws_test).toBe(base);
    expect(onTabNavigated(all, 9, 'https://evil.example/').departures).toEqual([]);
    expect(onTabNavigated(all, 1, 'https://evil.example/').departures).toEqual([
      { workspaceId: 'ws_test', tabId: 1, fromUrl: blog.url, toUrl: 'https://evil.example/' },
    ]);
    expect(onTabNavigated({ ws_test: { ...workspace([blog]), memberUrls: {} } }, 1, 'https://evil.example/').departures[0]?.fromUrl).toBe('');
  });

  it('a new session keeps exactly the members still at their address; with all kept, the same workspace', () => {
    const base = withUrls(workspace([blog, cafe]));
    expect(keepSurvivingMembers({ ws_test: base }, [blog, cafe]).ws_test).toBe(base);
    const next = keepSurvivingMembers({ ws_test: base }, [blog, { tabId: 2, url: 'https://cafe.example/other' }]).ws_test;
    expect(next).toMatchObject({ tabIds: [1], memberUrls: { '1': blog.url } });
    // Without remembered addresses nothing survives.
    expect(keepSurvivingMembers({ ws_test: { ...workspace([blog]), memberUrls: {} } }, [blog]).ws_test?.tabIds).toEqual([]);
  });

  it('a tab leaving a group only affects a workspace made from that group', () => {
    const grouped = { ...workspace([blog, cafe]), source: { kind: 'group' as const, groupId: 5, windowId: 1 } };
    const windowed = { ...workspace([blog, cafe]), id: 'ws_window' };
    const next = onTabGroupChanged({ ws_test: grouped, ws_window: windowed }, { ...blog, groupId: -1 });
    expect(next.ws_test?.tabIds).toEqual([2]);
    expect(next.ws_window).toBe(windowed);
    expect(onTabGroupChanged({ ws_test: grouped }, { ...blog, groupId: 5 }).ws_test?.tabIds).toEqual([1, 2]);
  });
});

describe('the person’s changes to a workspace (pure)', () => {
  const blog = tab(1, 'https://blog.example/write');
  const posts = workspace([blog], ['https://blog.example']);

  it.each([
    { site: 'https://cafe.example/a/b?c', policy: { writable: true, publishWithoutApproval: false }, gives: 'https://cafe.example' },
    { site: 'http://127.0.0.1:8080/x', policy: { writable: false, publishWithoutApproval: false }, gives: 'http://127.0.0.1:8080' },
    { site: 'file:///etc/passwd', policy: { writable: true, publishWithoutApproval: false }, gives: 'invalid_request' },
    { site: 'not a site', policy: { writable: true, publishWithoutApproval: false }, gives: 'invalid_request' },
  ])('a site policy for $site → $gives', ({ site, policy, gives }) => {
    const outcome = sitePolicyFor(site, policy);
    expect(outcome.ok ? outcome.value.origin : outcome.error.code).toBe(gives);
  });

  it('an expected account of only spaces is no expected account; a real one is kept', () => {
    expect(sitePolicyFor('https://a.example', { writable: true, publishWithoutApproval: false, expectedAccount: ' ' })).toEqual({
      ok: true,
      value: { origin: 'https://a.example', policy: { writable: true, publishWithoutApproval: false } },
    });
    const kept = sitePolicyFor('https://a.example', { writable: true, publishWithoutApproval: false, expectedAccount: 'alice' });
    expect(kept.ok && kept.value.policy.expectedAccount).toBe('alice');
  });

  it.each([
    { name: 'web pages', tabs: [blog, tab(2, 'about:blank')], gives: [1] },
    { name: 'no web page', tabs: [tab(2, 'about:blank'), tab(3, 'chrome://settings')], gives: 'target_not_found' },
  ])('a workspace from $name', ({ tabs, gives }) => {
    const outcome = workspaceFromTabs({ tabs, name: undefined, source: { kind: 'window', windowId: 1 }, now: 5 });
    expect(outcome.ok ? outcome.value.tabIds : outcome.error.code).toEqual(gives);
  });

  it('changes the workspace as it is now, and refuses an unknown one', () => {
    const changed = changeWorkspace({ [posts.id]: posts }, posts.id, (item) =>
      withSitePolicy(item, 'https://cafe.example', { writable: false, publishWithoutApproval: false }),
    );
    expect(changed.ok && Object.keys(changed.value.workspaces[posts.id]?.sites ?? {})).toEqual(['https://blog.example', 'https://cafe.example']);
    const unknown = changeWorkspace({ [posts.id]: posts }, 'ws_gone', (item) => item);
    expect(unknown.ok ? 'ok' : unknown.error.code).toBe('unknown_scope');
    expect(withoutWorkspace({ [posts.id]: posts }, posts.id)).toEqual({});
  });
});
