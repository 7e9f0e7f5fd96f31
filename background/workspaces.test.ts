import { describe, expect, it } from 'vitest';
import { tab, workspace } from '../shared/testing/fixtures.ts';
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

  it('a member navigating to a new site brings the site in, not writable', () => {
    const next = onTabNavigated({ ws_test: workspace([blog, cafe], ['https://blog.example']) }, 2, 'https://evil.example/');
    expect(next.ws_test?.sites['https://evil.example']).toEqual({ writable: false, publishWithoutApproval: false });
    expect(next.ws_test?.sites['https://blog.example']?.writable).toBe(true);
  });

  it('a non-member navigating changes nothing', () => {
    const before = { ws_test: workspace([blog]) };
    expect(onTabNavigated(before, 9, 'https://evil.example/')).toBe(before);
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
    const moved = onTabNavigated({ [created.id]: created }, 1, 'https://blog.example/write?draft=2');
    expect(moved[created.id]?.memberUrls).toEqual({ '1': 'https://blog.example/write?draft=2' });
  });
});
