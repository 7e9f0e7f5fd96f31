/**
 * Hostile pages turning Tether against the person (issue 10, findings 4–9): a reference tab that
 * carries itself to another site, a button that deletes drafts dressed as a draft save, buttons
 * relabelled while the person approves or while the plan writes, a field name moved to another
 * element, a page hiding who is signed in, and a page keeping itself "busy" with execCommand.
 * Each attack is refused (or, for the busy loop, no longer blocks), and nothing else changes.
 */
import type { Page } from '@playwright/test';
import type { ToolEnvelope } from '../../shared/protocol.ts';
import type { InspectResult } from '../../shared/results.ts';
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { blogScene } from '../support/blogFlow.ts';
import type { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

interface PageAttack {
  done: string[];
  rewrites: number;
  swapButtons(): void;
  enlargeReply(): void;
  hideAccount(): void;
}

type Plan = { steps: Array<Record<string, unknown>>; continueDraft?: boolean };

/** A signed-in page of the notes site (no adapter) running one attack, in its own workspace, writable. */
async function hostileScene(tether: TetherDriver, attack: string, query = '') {
  await tether.signIn('notes', 'alice');
  await tether.signIn('blog', 'alice');
  // A page the scenario must never touch.
  const bystander = await tether.open('blog', '/write');
  const page = await tether.open('notes', `/hostile/${attack}${query}`);
  await page.waitForFunction(() => 'attack' in window);
  const workspace = (await tether.workspaceOf([page], { writable: ['notes'] })).id;
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' } }));
  const handle = resolved.write?.handle ?? '';
  return {
    page,
    bystander,
    account: resolved.write?.account ?? null,
    act: (plan: Plan, extra: Record<string, unknown> = {}): Promise<ToolEnvelope<'act'>> => tether.agent('act', { profile, workspace, handle, plan, ...extra }),
    look: async (): Promise<InspectResult> => ok(await tether.agent('inspect', { profile, workspace, handle })),
  };
}

function attackOf(page: Page): Promise<PageAttack> {
  return page.evaluate(() => {
    const { done, rewrites } = (window as unknown as { attack: PageAttack }).attack;
    return { done, rewrites } as PageAttack;
  });
}

async function runAttack(page: Page, name: 'swapButtons' | 'enlargeReply' | 'hideAccount'): Promise<void> {
  await page.evaluate((method) => (window as unknown as { attack: Record<string, () => void> }).attack[method]?.(), name);
}

async function approveWhenAsked(
  tether: TetherDriver,
  during?: () => Promise<void>,
): Promise<{ steps: Array<{ op: string; target: string; preview: string }> }> {
  await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
  const approval = (await tether.state()).approvals[0];
  if (!approval) throw new Error('no approval');
  await during?.();
  await tether.must({ type: 'approval.decide', approvalId: approval.id, approve: true });
  return approval;
}

test('a reference tab that navigates to another site leaves the workspace: that site’s page is never read', async ({ tether, sites }) => {
  const counts = scenarioCounts('reference tab navigated to another site');
  sites.state.notes.posts.push({ id: 1, title: 'Private', body: 'My bank PIN is 4321', category: '', author: 'alice', createdAt: Date.now() });
  const scene = await blogScene(tether);
  const watch = await untouched([scene.blog], sites);
  const cafeTab = await tether.tabIdOf(scene.cafe);
  const before = (await tether.state()).workspaces.find((item) => item.id === scene.workspace);
  // The reference page sends itself elsewhere, as a page script can.
  await scene.cafe.evaluate(
    (url) => {
      location.href = url;
    },
    sites.url('notes', '/'),
  );
  await scene.cafe.waitForURL(/notes\.localhost/);
  // The old reference handle: context_changed, as for any navigation.
  const stale = counts.refused(
    await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.reference, read: ['main'] }),
    'context_changed',
  );
  expect(stale.details?.changed).toEqual(expect.arrayContaining(['document', 'origin']));
  // No new handle to it can be had, however it is named: it is not in the workspace.
  const attempts = [{ tabId: cafeTab }, { site: 'notes' }, { url: sites.url('notes', '/') }];
  for (const reference of attempts) {
    counts.refused(
      await tether.agent('resolve', { profile: scene.profile, workspace: scene.workspace, references: [reference], readOnly: true }),
      'target_not_found',
    );
  }
  await expect.poll(async () => (await tether.state()).workspaces.find((item) => item.id === scene.workspace)?.tabIds).not.toContain(cafeTab);
  const after = (await tether.state()).workspaces.find((item) => item.id === scene.workspace);
  expect(Object.keys(after?.sites ?? {})).toEqual(Object.keys(before?.sites ?? {}));
  // The person is told, in words, and may add it back.
  const departures = (await tether.state()).departures;
  expect(departures).toEqual([
    expect.objectContaining({
      workspaceId: scene.workspace,
      tabId: cafeTab,
      fromSite: expect.stringMatching(/^cafe\.localhost/),
      toSite: expect.stringMatching(/^notes\.localhost/),
    }),
  ]);
  await tether.must({ type: 'workspace.addTab', workspaceId: scene.workspace, tabId: cafeTab });
  const readded = await tether.state();
  expect(readded.departures).toEqual([]);
  expect(readded.workspaces.find((item) => item.id === scene.workspace)?.sites[new URL(sites.url('notes')).origin]).toEqual({
    writable: false,
    publishWithoutApproval: false,
  });
  // The old handle stays dead after the person re-adds the tab.
  counts.refused(await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.reference }), 'context_changed');
  await watch.check();
  counts.sent(attempts.length);
  counts.save();
});

test('“Delete all drafts” on a site without an adapter needs approval; only an exact save-draft label does not', async ({ tether, sites }) => {
  const counts = scenarioCounts('generic draft-like buttons');
  sites.state.notes.drafts.set('alice', { title: '', body: 'Keep me', savedAt: Date.now() });
  const scene = await hostileScene(tether, 'drafts');
  const watch = await untouched([scene.bystander], sites);
  const page = await scene.look();
  // (each label says no more than its name, so the answer leaves it out)
  expect(page.actions).toEqual(
    expect.arrayContaining([
      { name: 'save_draft', kind: 'save_draft' },
      { name: '임시_저장', kind: 'save_draft' },
      { name: 'delete_all_drafts', kind: 'submit' },
    ]),
  );
  counts.refused(await scene.act({ steps: [{ op: 'click', action: 'delete_all_drafts' }] }, { approvalTimeoutSeconds: 1 }), 'approval_required');
  expect(sites.state.notes.drafts.get('alice')?.body).toBe('Keep me');
  expect((await attackOf(scene.page)).done).toEqual([]);
  // A real draft save still runs without asking.
  counts.write(
    await scene.act({
      steps: [
        { op: 'fill', field: 'body', text: 'Saved by the agent' },
        { op: 'click', action: 'save_draft' },
      ],
    }),
  );
  await expect.poll(() => sites.state.notes.drafts.get('alice')?.body).toBe('Saved by the agent');
  await watch.check();
  counts.save();
});

const POST_PLAN: Plan = {
  steps: [
    { op: 'fill', field: 'body', text: 'Hello neighbours' },
    { op: 'click', action: 'post' },
  ],
};

test('buttons relabelled while the person approves: the approved click is refused (context_changed, element)', async ({ tether, sites }) => {
  const counts = scenarioCounts('buttons relabelled during approval');
  const scene = await hostileScene(tether, 'relabel');
  const watch = await untouched([scene.bystander], sites);
  const page = await scene.look();
  expect(page.actions).toEqual(
    expect.arrayContaining([
      { name: 'post', kind: 'publish' },
      { name: 'delete_my_account', kind: 'submit' },
    ]),
  );
  const acting = scene.act(POST_PLAN);
  // The person sees the label of the very button that will be pressed; meanwhile the page swaps its buttons.
  const approval = await approveWhenAsked(tether, () => runAttack(scene.page, 'swapButtons'));
  const refusal = counts.refused(await acting, 'context_changed');
  expect(refusal.details?.changed).toEqual(['element']);
  expect(approval.steps[1]).toEqual({ op: 'click', target: 'post', preview: 'Post' });
  expect((await attackOf(scene.page)).done).toEqual([]);
  expect(sites.state.notes.accounts).toContain('alice');
  expect(await scene.page.locator('#message').inputValue()).toBe('');
  await watch.check();
  counts.save();
});

test('buttons relabelled by the write just before the click: refused, the earlier step undone', async ({ tether, sites }) => {
  const counts = scenarioCounts('buttons relabelled by the write');
  const scene = await hostileScene(tether, 'relabel', '?when=write');
  const watch = await untouched([scene.bystander], sites);
  await scene.look();
  const acting = scene.act(POST_PLAN);
  await approveWhenAsked(tether);
  const refusal = counts.refused(await acting, 'context_changed');
  expect(refusal.details).toMatchObject({ changed: ['element'], ran: [0], rolledBack: [0] });
  expect((await attackOf(scene.page)).done).toEqual([]);
  expect(sites.state.notes.accounts).toContain('alice');
  expect(await scene.page.locator('#message').inputValue()).toBe('');
  await watch.check();
  counts.save();
});

test('a field name moved to another element after inspect: fill is refused with field_changed', async ({ tether, sites }) => {
  const counts = scenarioCounts('field name moved to another element');
  const scene = await hostileScene(tether, 'resize');
  const watch = await untouched([scene.bystander], sites);
  const page = await scene.look();
  // A label is sent when it says more than the name ("reply" is labelled "Reply").
  expect(page.fields?.map((field) => [field.name, field.label])).toEqual([
    ['body', 'Draft'],
    ['reply', undefined],
  ]);
  await runAttack(scene.page, 'enlargeReply');
  const refusal = counts.refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Meant for the draft' }] }), 'field_changed');
  expect(refusal.details?.changed).toEqual(['element']);
  expect([await scene.page.locator('#draft').inputValue(), await scene.page.locator('#reply').inputValue()]).toEqual(['', '']);
  // After a new inspect the agent is told what "body" is now, and the write goes where it was told.
  const again = await scene.look();
  expect(again.fields?.find((field) => field.name === 'body')).toMatchObject({ label: 'Reply' });
  counts.write(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Seen and meant' }] }));
  expect([await scene.page.locator('#draft').inputValue(), await scene.page.locator('#reply').inputValue()]).toEqual(['', 'Seen and meant']);
  await watch.check();
  counts.save();
});

test('the page hides who is signed in: a write bound to alice is refused (not_signed_in, state unknown)', async ({ tether, sites }) => {
  const counts = scenarioCounts('sign-in hidden by the page');
  const scene = await hostileScene(tether, 'account');
  expect(scene.account).toBe('alice');
  const watch = await untouched([scene.bystander], sites);
  await scene.look();
  await runAttack(scene.page, 'hideAccount');
  const refusal = counts.refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Written as nobody knows whom' }] }), 'not_signed_in');
  expect(refusal.details).toMatchObject({ expected: 'alice', state: 'unknown' });
  expect(await scene.page.locator('#note').inputValue()).toBe('');
  await watch.check();
  counts.save();
});

test('a page calling execCommand every 400 ms is not the person typing: the write goes through', async ({ tether, sites }) => {
  const counts = scenarioCounts('page keeps itself busy with execCommand');
  const scene = await hostileScene(tether, 'busy');
  const watch = await untouched([scene.bystander], sites);
  await scene.page.waitForFunction(() => (window as unknown as { attack: PageAttack }).attack.rewrites >= 3);
  const page = await scene.look();
  // No draft, and not the person's edit: the answer leaves both out.
  expect(page.draft).toBeUndefined();
  expect(page.fields?.find((field) => field.name === 'body')).toMatchObject({ name: 'body' });
  expect(page.fields?.find((field) => field.name === 'body')?.editedByPerson).toBeUndefined();
  counts.write(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Tea, cups, saucers' }] }));
  expect(await scene.page.locator('#list').inputValue()).toBe('Tea, cups, saucers');
  await watch.check();
  counts.save();
});

test('a page that keeps rewriting its own field blocks writes to itself, and the refusal says so', async ({ tether, sites }) => {
  const counts = scenarioCounts('page rewriting its own field');
  const scene = await hostileScene(tether, 'busy', '?mode=rewrite');
  const watch = await untouched([scene.bystander], sites);
  await scene.look();
  const seen = (await attackOf(scene.page)).rewrites;
  await scene.page.waitForFunction((count) => (window as unknown as { attack: PageAttack }).attack.rewrites > count, seen);
  const refusal = counts.refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Agent text' }] }), 'field_changed');
  expect(refusal.details?.problems).toEqual([expect.objectContaining({ code: 'field_changed', cause: 'page' })]);
  expect(refusal.details?.changedByPage).toMatchObject({ steps: [0] });
  expect(await scene.page.locator('#list').inputValue()).toMatch(/^Autosaved \d+$/);
  await watch.check();
  counts.save();
});
