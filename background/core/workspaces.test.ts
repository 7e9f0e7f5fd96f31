import { describe, expect, it } from 'vitest';
import { tab, workspace } from '../../shared/testing/fixtures.ts';
import { keepSurvivingMembers, newWorkspace, onTabClosed, onTabGroupChanged, onTabNavigated, onTabReplaced } from './workspaces.ts';

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

  it('a member navigating to another site the workspace has stays', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog, cafe], now: 0 });
    const { workspaces: next, departures } = onTabNavigated({ [created.id]: created }, 2, 'https://blog.example/posts/3');
    expect(next[created.id]?.tabIds).toEqual([1, 2]);
    expect(next[created.id]?.memberUrls?.['2']).toBe('https://blog.example/posts/3');
    expect(departures).toEqual([]);
  });

  it('the tab leaves only the workspaces that did not have the site', () => {
    const narrow = { ...workspace([cafe]), id: 'ws_narrow' };
    const wide = { ...workspace([cafe, tab(5, 'https://evil.example/x')]), id: 'ws_wide' };
    const { workspaces: next, departures } = onTabNavigated({ ws_narrow: narrow, ws_wide: wide }, 2, 'https://evil.example/y');
    expect(next.ws_narrow?.tabIds).toEqual([]);
    expect(next.ws_wide?.tabIds).toEqual([2, 5]);
    expect(departures.map((item) => item.workspaceId)).toEqual(['ws_narrow']);
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
    const older = workspace([blog]);
    expect(keepSurvivingMembers({ ws_test: older }, [{ tabId: 1, url: blog.url }]).ws_test?.tabIds).toEqual([]);
  });

  it('navigation updates the remembered address', () => {
    const created = newWorkspace({ name: 'Posts', source: { kind: 'manual' }, tabs: [blog], now: 0 });
    const moved = onTabNavigated({ [created.id]: created }, 1, 'https://blog.example/write?draft=2').workspaces;
    expect(moved[created.id]?.memberUrls).toEqual({ '1': 'https://blog.example/write?draft=2' });
  });
});
