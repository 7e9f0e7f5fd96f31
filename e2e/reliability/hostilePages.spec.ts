/**
 * Hostile pages turning Tether against the person (issue 10, findings 4–9): a reference tab that
 * carries itself to another site, a button that deletes drafts dressed as a draft save, buttons
 * relabelled while the person approves or while the plan writes, a field name moved to another
 * element, a page hiding who is signed in, and a page keeping itself "busy" with execCommand.
 * Each attack is refused (or, for the busy loop, no longer blocks), and nothing else changes.
 * Then the third attacker review (issue 22): attributes the sanitizer kept, markup shown as text
 * that became live on a round trip, a reference tab sent to the workspace's writable site, and
 * elements clobbering the content script's globals.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ACT_MODULE_FILE } from '../../shared/page/pageChannel.ts';
import type { ToolEnvelope } from '../../shared/agent/agentProtocol.ts';
import type { InspectResult } from '../../shared/agent/results.ts';
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { blogModel, blogScene } from '../support/blogFlow.ts';
import { editorScene, structureOf } from '../support/editorScene.ts';
import { launchTether, TEST_DIST } from '../support/launchTether.ts';
import { TetherDriver } from '../support/tetherDriver.ts';
import { HOST_RULES } from '../sites/siteFixtures.ts';
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

/*
 * The third attacker review (issue 22). Each scenario below failed on the code it was written
 * against: attributes that survived the sanitizer, text that became markup on a read → write round
 * trip, a reference tab that made itself a write candidate, and clobbered isolated-world globals.
 */

/**
 * Every attribute left in an editor's own serialization, as `tag[name]`, but an http(s) href on a
 * link — and the `target="_blank"` and `rel` TipTap's Link extension (3.x) puts on every link itself.
 */
async function attributesIn(page: Page, html: string): Promise<string[]> {
  return page.evaluate((markup) => {
    const left: string[] = [];
    const editorsOwn = (name: string, value: string) =>
      (name === 'target' && value === '_blank') || (name === 'rel' && value === 'noopener noreferrer nofollow');
    new DOMParser()
      .parseFromString(markup, 'text/html')
      .body.querySelectorAll('*')
      .forEach((node) => {
        for (const { name, value } of Array.from(node.attributes)) {
          if (node.tagName === 'A' && ((name === 'href' && /^https?:/i.test(value)) || editorsOwn(name, value))) continue;
          left.push(`${node.tagName.toLowerCase()}[${name}]`);
        }
      });
    return left;
  }, html);
}

const ATTRIBUTE_ATTACK = {
  html: `<p data-bind="html: $root.x" data-bs-toggle="tooltip" data-bs-title="&lt;img src=x onerror=alert(1)&gt;" aria-hidden="true" class="lead" id="intro">Hello <strong data-mce-style="background-image:url(https://attacker.example/p.png);box-shadow:0 0 0 100vmax #fff">b</strong> <a href="https://cafe.example.com/notice" data-mce-href="https://attacker.example/" style="color:red">notice</a></p>`,
  markdown: `Hello <strong data-x="1" data-mce-style="background-image:url(https://attacker.example/p.png);box-shadow:0 0 0 100vmax #fff">b</strong> and [the notice](https://cafe.example.com/notice)`,
};

test('data-*, aria-*, class, id and style on allowed tags: only href reaches the editor, and TinyMCE stores no style', async ({ tether, sites }) => {
  const counts = scenarioCounts('attributes on allowed tags (data-*, aria-*, style)');
  for (const family of ['tinymce', 'contenteditable', 'prosemirror', 'ckeditor5']) {
    for (const format of ['html', 'markdown'] as const) {
      const scene = await editorScene(tether, family);
      const watch = await untouched([], sites);
      await scene.inspect();
      const result = counts.write(await scene.act({ steps: [{ op: 'fill', field: 'body', text: ATTRIBUTE_ATTACK[format], format }] }));
      expect(result.steps[0], `${family} ${format}`).toMatchObject({ took: 'html', verified: true, kept: expect.arrayContaining(['strong', 'a']) });
      // The editor's own serialization (TinyMCE: getContent()) — what the site would publish.
      const model = await scene.model();
      expect(await attributesIn(scene.page, model.html), `${family} ${format}: ${model.html}`).toEqual([]);
      expect(model.html).not.toMatch(/style|data-|aria-|attacker\.example/);
      expect((await structureOf(scene.page, model.html)).links).toEqual(['https://cafe.example.com/notice']);
      expect(lines(model.text).join(' ')).toMatch(/^Hello b (and the )?notice$/);
      await watch.check();
      await scene.page.close();
    }
  }
  counts.save();
});

/** Lines without blank ones or spacing differences: editors differ in both. */
function lines(text: string): string[] {
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}

/** A cafe post that shows markup as text, as a post quoting HTML does (the cafe escapes it). */
const SHOWN_AS_TEXT = [
  '<a href="https://phish.example/login">Register here</a>',
  '<strong data-mce-style="background-image:url(https://attacker.example/p.png);box-shadow:0 0 0 100vmax #fff">Market day</strong>',
  'Tea &amp; cakes: 3 < 4 & 5 > 2 <!-- not a comment -->',
];
const COMMENT_AS_TEXT = '<a href="https://phish.example/c">Comment link</a> &lt;b&gt;';

const RICH_FAMILIES = ['ckeditor5', 'lexical', 'prosemirror', 'slate', 'draft', 'tinymce', 'quill', 'input-buffer', 'contenteditable', 'iframe'];

for (const family of RICH_FAMILIES) {
  test(`markup a cafe shows as text, read as markdown and written as markdown into ${family}: the same text, no new element`, async ({ tether, sites }) => {
    sites.state.cafe.posts.push({ id: 99, title: 'Market notes', body: SHOWN_AS_TEXT.join('\n'), category: '', author: 'carol', createdAt: Date.now() });
    await tether.signIn('cafe', 'alice_k');
    await tether.signIn('notes', 'alice');
    const cafe = await tether.open('cafe', '/posts/99');
    // A plain field on the reference page holds markup as text too.
    await cafe.locator('#comment').fill(COMMENT_AS_TEXT);
    const counts = scenarioCounts(`markup shown as text, round trip into ${family}`);
    const watch = await untouched([cafe], sites);
    const editor = await tether.open('notes', `/editor/${family}`);
    await editor.waitForFunction(() => document.body.dataset.editorReady !== undefined);
    const workspace = (await tether.workspaceOf([cafe, editor], { writable: ['notes'] })).id;
    const profile = await tether.profileId();
    const resolved = ok(
      await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' }, references: [{ site: 'cafe' }], continueDraft: true }),
    );
    const [write, reference] = [resolved.write?.handle ?? '', resolved.references?.[0]?.handle ?? ''];
    const read = ok(await tether.agent('inspect', { profile, workspace, handle: reference, read: ['post.body', 'comment'], readAs: 'markdown' }));
    const body = read.text?.['post.body'] ?? '';
    const comment = read.text?.comment ?? '';
    // What the page shows as text is text in the markdown: no tag, no entity that would decode.
    expect(`${body}\n${comment}`).not.toMatch(/<[a-z!/]|&(?!lt;|gt;|amp;)/i);
    ok(await tether.agent('inspect', { profile, workspace, handle: write }));
    const step = counts.write(
      await tether.agent('act', {
        profile,
        workspace,
        handle: write,
        plan: { steps: [{ op: 'fill', field: 'body', text: `${body}\n\n${comment}`, format: 'markdown' }] },
      }),
    ).steps[0];
    expect(step).toMatchObject({ verified: true });
    const model = await editor.evaluate(() => {
      const api = (window as unknown as { editorApi: { html(): string; text(): string } }).editorApi;
      return { html: api.html(), text: api.text() };
    });
    expect(lines(model.text)).toEqual([...SHOWN_AS_TEXT, COMMENT_AS_TEXT]);
    // No element the text did not have: paragraphs and the editor's own wrappers only. An editor
    // that links addresses a person types (TipTap's autolink) may link one, showing it as it is;
    // never a link that says something other than where it goes.
    const structure = await structureOf(editor, model.html);
    expect(
      structure.tags.filter((tag) => !['p', 'br', 'div', 'span', 'a'].includes(tag)),
      model.html,
    ).toEqual([]);
    const links = await editor.evaluate(
      (markup) => Array.from(new DOMParser().parseFromString(markup, 'text/html').querySelectorAll('a')).map((link) => link.textContent ?? ''),
      model.html,
    );
    for (const text of links) expect(text, model.html).toMatch(/^https?:\/\/\S+$/);
    if (family !== 'prosemirror') expect(links).toEqual([]);
    // Read again as markdown: the same markdown (unless the editor linked an address), so copying it on is safe too.
    const again = ok(await tether.agent('inspect', { profile, workspace, handle: write, read: ['body'], readAs: 'markdown' }));
    if (links.length === 0) expect(lines(again.text?.body ?? '')).toEqual(lines(`${body}\n\n${comment}`));
    else expect(again.text?.body ?? '').not.toMatch(/<[a-z!/]/i);
    await watch.check();
    counts.save();
  });
}

test('a reference tab sent to another site of its workspace (the writable blog) is no write candidate until the person adds it back', async ({
  tether,
  sites,
}) => {
  const counts = scenarioCounts('reference tab sent to another site of its workspace');
  const scene = await blogScene(tether);
  const watch = await untouched([scene.blog], sites);
  const [blogTab, cafeTab] = [await tether.tabIdOf(scene.blog), await tether.tabIdOf(scene.cafe)];
  const resolve = (args: Record<string, unknown>) => tether.agent('resolve', { profile: scene.profile, workspace: scene.workspace, ...args });
  // Within its own site the tab stays what it was: a reference.
  await scene.cafe.evaluate(
    (url) => {
      location.href = url;
    },
    sites.url('cafe', '/posts/2'),
  );
  await scene.cafe.waitForURL(/cafe\.localhost.*\/posts\/2/);
  expect(ok(await resolve({ references: [{ site: 'cafe' }], readOnly: true })).references?.[0]?.tabId).toBe(cafeTab);
  expect((await tether.state()).departures).toEqual([]);
  // The cafe page sends its tab to a blog page of its choosing; the person looks at it.
  const chosen = sites.url('blog', '/write?editor=plain&prefill=1');
  await scene.cafe.evaluate((url) => {
    location.href = url;
  }, chosen);
  await scene.cafe.waitForURL(/blog\.localhost.*prefill=1/);
  await scene.cafe.bringToFront();
  // The blog named: the blog tab the person had, not a choice between it and the page the cafe chose.
  const named = ok(await resolve({ destination: { site: 'blog' } }));
  expect(named.write).toMatchObject({ tabId: blogTab, rule: 'named_in_request' });
  // No destination, the person looking at the chosen page: not the request-time tab.
  counts.refused(await resolve({}), 'missing_context');
  for (const destination of [{ tabId: cafeTab }, { url: chosen }]) counts.refused(await resolve({ destination }), 'target_not_found');
  // Its title (the same as the blog's own write page) names only the blog tab the person had.
  expect(ok(await resolve({ destination: { site: 'blog', title: await scene.cafe.title() } })).write?.tabId).toBe(blogTab);
  await expect.poll(async () => (await tether.state()).workspaces.find((item) => item.id === scene.workspace)?.tabIds).toEqual([blogTab]);
  // The person is told, in words, like any tab that left for another site.
  expect((await tether.state()).departures).toEqual([
    expect.objectContaining({
      workspaceId: scene.workspace,
      tabId: cafeTab,
      fromSite: expect.stringMatching(/^cafe\.localhost/),
      toSite: expect.stringMatching(/^blog\.localhost/),
      toSiteIs: 'writable',
    }),
  ]);
  // The person adds it back: now it is theirs to write on, and the blog has two candidates.
  await tether.must({ type: 'workspace.addTab', workspaceId: scene.workspace, tabId: cafeTab });
  expect((await tether.state()).departures).toEqual([]);
  counts.refused(await resolve({ destination: { site: 'blog' } }), 'ambiguous_target');
  expect(ok(await resolve({ destination: { tabId: cafeTab } })).write?.tabId).toBe(cafeTab);
  await watch.check();
  counts.save();
});

test('elements named like Tether’s old globals (<div id=__tetherContentScript>, <form id=__tetherActHook>, …) change nothing: read, inspect and write work', async ({
  tether,
  sites,
}) => {
  const counts = scenarioCounts('page clobbering the content script’s globals');
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', '/write?editor=plain&clobber');
  const cafe = await tether.open('cafe', '/posts/1?clobber');
  const watch = await untouched([cafe], sites);
  await blog.waitForFunction(() => 'blogEditor' in window);
  // The globals are there, in the page's world (and, in Chromium, the isolated world sees them too).
  for (const page of [blog, cafe]) {
    expect(await page.evaluate(() => ['__tetherContentScript', '__tetherActHook', '__tetherSitesHook'].map((name) => name in window))).toEqual([
      true,
      true,
      true,
    ]);
  }
  const workspace = (await tether.workspaceOf([blog, cafe], { writable: ['blog'] })).id;
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
  const [write, reference] = [resolved.write?.handle ?? '', resolved.references?.[0]?.handle ?? ''];
  // The reference page cannot hide from being read, as text or (the act module) as markdown, through its adapter.
  const read = ok(await tether.agent('inspect', { profile, workspace, handle: reference, read: ['post.title', 'post.body'], readAs: 'markdown' }));
  expect(read.text?.['post.title']).toBe('Weekly notes: spring market');
  expect(read.adapter).toBeUndefined();
  const page = ok(await tether.agent('inspect', { profile, workspace, handle: write }));
  expect(page.fields?.map((field) => field.name)).toEqual(expect.arrayContaining(['title', 'body']));
  const step = counts.write(
    await tether.agent('act', { profile, workspace, handle: write, plan: { steps: [{ op: 'fill', field: 'body', text: 'Market day at the river' }] } }),
  ).steps[0];
  expect(step).toMatchObject({ verified: true });
  expect((await blogModel(blog)).body).toBe('Market day at the river');
  await watch.check();
  counts.save();
});

test('the act module really missing (its file removed from the build): the act says so, not context_changed, and nothing is written', async ({ sites }) => {
  const copy = mkdtempSync(join(tmpdir(), 'tether-without-act-'));
  cpSync(TEST_DIST, copy, { recursive: true });
  rmSync(join(copy, ACT_MODULE_FILE));
  const launched = await launchTether({ extensionDir: copy, args: [HOST_RULES] });
  try {
    const counts = scenarioCounts('act module really missing');
    const tether = new TetherDriver(launched.context, launched.extensionId, sites);
    const scene = await hostileScene(tether, 'account');
    await scene.look();
    const refusal = counts.refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Never written' }] }), 'invalid_request');
    expect(refusal.message).toMatch(/act module could not be loaded into this page/);
    expect(refusal.details).toMatchObject({ module: ACT_MODULE_FILE });
    expect(await scene.page.locator('#note').inputValue()).toBe('');
    counts.save();
  } finally {
    await launched.context.close();
    rmSync(launched.userDataDir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
});
