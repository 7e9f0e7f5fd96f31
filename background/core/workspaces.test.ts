import { describe, expect, it } from 'vitest';
import { tab, workspace } from '../../shared/testing/fixtures.ts';
import { keepSurvivingMembers, newWorkspace, onTabClosed, onTabGroupChanged, onTabNavigated, onTabReplaced, withTabAdded } from './workspaces.ts';

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
