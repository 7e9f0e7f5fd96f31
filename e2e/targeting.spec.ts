/**
 * The targeting core in real Chromium: workspaces, the resolver, execution-time revalidation,
 * and the request entry's refusals.
 */
import { BOTH, expect, inBothBrowsers, test } from './fixtures.ts';
import { ok, refused } from './support/answers.ts';
import type { TabPage, TetherClient } from './support/tetherClient.ts';
import type { TetherDriver } from './support/tetherDriver.ts';

async function blogAndCafe<P extends TabPage>(tether: TetherClient<P>): Promise<{ blog: P; cafe: P; workspace: string; profile: string }> {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', '/write');
  const cafe = await tether.open('cafe', '/posts/1');
  const workspace = await tether.workspaceOf([blog, cafe], { writable: ['blog'] });
  return { blog, cafe, workspace: workspace.id, profile: await tether.profileId() };
}

/** The tab and role the last request went to, as the journal recorded it. */
async function lastTarget(tether: TetherClient): Promise<{ tabId: number; role: string } | undefined> {
  const [record] = await tether.must({ type: 'journal.list', limit: 1 });
  const target = record?.targets?.[0];
  return target ? { tabId: target.tabId, role: target.role } : undefined;
}

async function tabCount(tether: TetherDriver): Promise<number> {
  const control = await tether.control();
  return control.evaluate(async () => (await chrome.tabs.query({})).length);
}

test('resolve: "write on the blog using the cafe" gives a blog write handle and a cafe reference, explained', async ({ tether }) => {
  const { blog, cafe, workspace, profile } = await blogAndCafe(tether);
  const result = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
  expect(result.write?.tabId).toBe(await tether.tabIdOf(blog));
  expect(result.write?.account).toBe('alice');
  expect(result.references?.map((reference) => reference.tabId)).toEqual([await tether.tabIdOf(cafe)]);
  // One language per answer: English unless the request asks for Korean.
  expect(result.explanation).toMatch(
    /^Writing to ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice · reading ‘Weekly notes: spring market — Riverside Cafe’/,
  );
  expect(result.write?.handle).not.toBe(result.references?.[0]?.handle);
  const inKorean = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }], lang: 'ko' }));
  expect(inKorean.explanation).toContain('alice 계정으로 씁니다');
});

test('resolve: with no destination the request-time tab is the write target', async ({ tether }) => {
  const { blog, workspace, profile } = await blogAndCafe(tether);
  await blog.bringToFront();
  const result = ok(await tether.agent('resolve', { profile, workspace }));
  expect(result.write?.tabId).toBe(await tether.tabIdOf(blog));
  expect(result.write?.rule).toBe('request_time_tab');
});

test('resolve: two cafe tabs make "cafe" ambiguous, listing both; a missing site opens no tab', async ({ tether }) => {
  const { blog, cafe, profile } = await blogAndCafe(tether);
  const cafe2 = await tether.open('cafe', '/posts/3');
  const workspace = await tether.workspaceOf([blog, cafe, cafe2], { writable: ['blog', 'cafe'] });
  const ambiguous = refused(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { site: 'cafe' } }), 'ambiguous_target');
  const candidates = ambiguous.details?.candidates as Array<{ title: string; url: string }>;
  expect(candidates.map((candidate) => new URL(candidate.url).pathname).sort()).toEqual(['/posts/1', '/posts/3']);
  expect(candidates.every((candidate) => candidate.title.length > 0)).toBe(true);

  const before = await tabCount(tether);
  refused(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { site: 'shop' } }), 'target_not_found');
  expect(await tabCount(tether)).toBe(before);
});

test('resolve: a site the workspace does not allow writing is refused; the same tab in both roles is a role conflict', async ({ tether }) => {
  const { workspace, profile } = await blogAndCafe(tether);
  refused(await tether.agent('resolve', { profile, workspace, destination: { site: 'cafe' } }), 'read_only_target');
  refused(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'blog' }] }), 'role_conflict');
});

inBothBrowsers('inspect revalidates: navigating the write tab → context_changed, and the new page gets nothing', BOTH, async ({ tether }) => {
  const { blog, workspace, profile } = await blogAndCafe(tether);
  const { write } = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' } }));
  const handle = write?.handle ?? '';
  ok(await tether.agent('inspect', { profile, workspace, handle }));
  await blog.goto(tether.sites.url('blog', '/write?editor=contenteditable'));
  const refusal = refused(await tether.agent('inspect', { profile, workspace, handle }), 'context_changed');
  expect(refusal.details?.changed).toContain('document');
});

inBothBrowsers('inspect revalidates: a reload is a new document → context_changed', BOTH, async ({ tether }) => {
  const { blog, workspace, profile } = await blogAndCafe(tether);
  const { write } = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' } }));
  await blog.reload();
  refused(await tether.agent('inspect', { profile, workspace, handle: write?.handle }), 'context_changed');
});

inBothBrowsers('inspect revalidates: closing the write tab → context_changed (never another tab)', BOTH, async ({ tether }) => {
  const { blog, workspace, profile } = await blogAndCafe(tether);
  const { write } = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' } }));
  const other = await tether.open('blog', '/write');
  await blog.close();
  const refusal = refused(await tether.agent('inspect', { profile, workspace, handle: write?.handle }), 'context_changed');
  expect(refusal.details?.changed).toEqual(['tab']);
  await other.close();
  // The closed tab also left the workspace.
  const state = await tether.state();
  expect(state.workspaces[0]?.tabs.map((tab) => tab.site)).toEqual([expect.stringMatching(/^cafe\.localhost/)]);
});

test('switching the active tab does not move a handle: it still means the bound tab', async ({ tether }) => {
  const { blog, cafe, workspace, profile } = await blogAndCafe(tether);
  await blog.bringToFront();
  const { write } = ok(await tether.agent('resolve', { profile, workspace }));
  await cafe.bringToFront();
  const inspected = ok(await tether.agent('inspect', { profile, workspace, handle: write?.handle }));
  // The blog editor's fields (the cafe post has none of them), read through the blog's tab as the write target.
  expect(inspected.fields?.map((field) => field.name)).toEqual(['title', 'body', 'category', 'tags']);
  expect(await lastTarget(tether)).toEqual({ tabId: await tether.tabIdOf(blog), role: 'write' });
});

inBothBrowsers(
  'the service worker (Firefox: the event page) stopped between resolve and inspect: the handle reaches the same tab and document',
  BOTH,
  async ({ tether }) => {
    const { blog, workspace, profile } = await blogAndCafe(tether);
    const { write } = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' } }));
    const documentBefore = await tether.documentIdOf(blog);
    ok(await tether.agent('inspect', { profile, workspace, handle: write?.handle }));
    const stop = await tether.stopBackground();
    await blog.bringToFront();
    const after = ok(await tether.agent('inspect', { profile, workspace, handle: write?.handle }));
    // A new background (started after the one stopped) answered.
    await tether.expectNewBackgroundServed(stop);
    // The handle is bound to that document: answering at all means it reached it, and it is still the one.
    expect(await tether.documentIdOf(blog)).toBe(documentBefore);
    expect(after.fields?.map((field) => field.name)).toContain('title');
    expect(await lastTarget(tether)).toEqual({ tabId: await tether.tabIdOf(blog), role: 'write' });
  },
);

test('the request entry refuses incomplete, malformed or out-of-scope requests', async ({ tether }) => {
  const { workspace, profile } = await blogAndCafe(tether);
  const missing = refused(await tether.agent('inspect', { profile }), 'missing_context');
  expect(missing.details?.missing).toEqual(['workspace', 'handle']);
  refused(await tether.agent('resolve', { profile, workspace, destination: 'blog' }), 'invalid_request');
  refused(await tether.agent('resolve', { profile: 'pr_nobody', workspace }), 'unknown_scope');
  refused(await tether.agent('resolve', { profile, workspace: 'ws_nothere' }), 'unknown_scope');
  refused(await tether.agent('inspect', { profile, workspace, handle: 'th_AAAAAAAAAAAAAAAAAAAAAAAA' }), 'invalid_handle');
  // An unshared workspace is out of scope, and its handles stop working.
  const { write } = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' } }));
  await tether.must({ type: 'workspace.share', workspaceId: workspace, shared: false });
  refused(await tether.agent('inspect', { profile, workspace, handle: write?.handle }), 'unknown_scope');
});

test('context lists shared workspaces only, with tabs, the request-time tab, and how to use the tools', async ({ tether }) => {
  const { blog, workspace, profile } = await blogAndCafe(tether);
  const page = await tether.open('notes', '/');
  await tether.workspaceOf([page], { name: 'Private', share: false });
  await blog.bringToFront();
  const result = ok(await tether.agent('context', {}));
  expect(result.usage).toContain('resolve');
  expect(result.profiles[0]?.id).toBe(profile);
  expect(result.profiles[0]?.workspaces.map((item) => item.id)).toEqual([workspace]);
  const shared = result.profiles[0]?.workspaces[0];
  expect(shared?.requestTimeTab).toBe(await tether.tabIdOf(blog));
  expect(shared?.tabs.map((tab) => [new URL(tab.url).hostname, tab.writable])).toEqual([
    ['blog.localhost', true],
    ['cafe.localhost', false],
  ]);
});

test('a workspace made from a tab group: tabs that leave the group leave; tabs that join do not join by themselves', async ({ tether }) => {
  const blog = await tether.open('blog', '/');
  const cafe = await tether.open('cafe', '/');
  const notes = await tether.open('notes', '/');
  const control = await tether.control();
  const [blogId, cafeId, notesId] = await Promise.all([blog, cafe, notes].map((page) => tether.tabIdOf(page)));
  const groupId = await control.evaluate(
    async (ids) => {
      const id: number = await (chrome.tabs.group({ tabIds: ids }) as Promise<number>);
      await chrome.tabGroups.update(id, { title: 'Posting' });
      return id;
    },
    [blogId as number, cafeId as number] as [number, number],
  );
  const created = await tether.must({ type: 'workspace.createFromGroup', groupId });
  expect(created.name).toBe('Posting');
  expect(created.tabIds.sort()).toEqual([blogId, cafeId].sort());
  // A tab joins the group (as a page's window.open can make happen), then one leaves it.
  await control.evaluate(
    async ({ id, group }) => {
      await (chrome.tabs.group({ tabIds: [id], groupId: group }) as Promise<number>);
    },
    { id: notesId as number, group: groupId },
  );
  await control.evaluate(async (id) => {
    await (chrome.tabs.ungroup([id]) as Promise<void>);
  }, blogId as number);
  await expect.poll(async () => (await tether.state()).workspaces[0]?.tabIds).toEqual([cafeId]);
  // Only the person widens it.
  await tether.must({ type: 'workspace.addTab', workspaceId: created.id, tabId: notesId as number });
  expect((await tether.state()).workspaces[0]?.tabIds).toEqual([cafeId, notesId]);
});
