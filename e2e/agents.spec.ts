/**
 * Several agents at once, end to end: real MCP clients with different `clientInfo` (each its own
 * `npx tether-mcp`) on one shared workspace, over the token pairing (one hub, relays) and over
 * the native host. A write target is held by one agent's task: the interleaving of two agents'
 * writes into one post is refused, references stay readable, the person releases a tab from the
 * panel, a hold survives the worker being stopped, an agent that goes mid-act keeps its tab until
 * the act is recorded, and an ambiguous target is settled by the person (pick, decline, time out).
 * No answer reaches a session that did not ask. Screenshots in English and Korean go to
 * e2e/screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { hashOf, ok, ran, refused, released } from './support/answers.ts';
import { launchTether } from './support/launchTether.ts';
import { McpAgent } from './support/mcpAgent.ts';
import { installFor, nativeSandbox, profileMade, type NativeSandbox } from './support/nativeSetup.ts';
import { TetherDriver } from './support/tetherDriver.ts';
import type { RunningSites } from './sites/server.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');

// Some tests launch their own browsers (the native host must be installed first): the sites start clean for each.
test.beforeEach(({ sites }) => sites.reset());

/** Every agent a test started: what their servers said goes with a failed test. */
const started: McpAgent[] = [];
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('bridges (stderr)', { body: stderrOf(started) });
  started.length = 0;
});

async function startAgent(options: Parameters<typeof McpAgent.start>[0]): Promise<McpAgent> {
  const agent = await McpAgent.start(options);
  started.push(agent);
  return agent;
}
const CLAUDE = { name: 'claude-code', title: 'Claude Code', version: '2.1.0' };
const CURSOR = { name: 'Cursor', version: '1.9.0' };
const CODEX = { name: 'codex-mcp-client', title: 'Codex', version: '0.60.0' };
const LABEL = (name: string) => new RegExp(`^${name} \\([0-9a-z]{4}\\)$`);

/** Agents on the token pairing: the first holds the port (the hub), the others relay through it. */
async function pairedAgents(tether: TetherDriver, clients: Array<{ name: string; version: string; title?: string }>) {
  const first = await startAgent({ clientInfo: clients[0] });
  const agents = [first];
  for (const clientInfo of clients.slice(1)) agents.push(await startAgent({ clientInfo, port: first.port, token: first.token }));
  await first.pair(tether);
  return agents;
}

async function scene(tether: TetherDriver, options: { cafes?: number; blogs?: number } = {}) {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blogs: Page[] = [];
  for (let slot = 1; slot <= (options.blogs ?? 1); slot += 1) blogs.push(await tether.open('blog', `/write?editor=plain&slot=${slot}`));
  const cafes: Page[] = [];
  for (let post = 1; post <= (options.cafes ?? 1); post += 1) cafes.push(await tether.open('cafe', `/posts/${post}`));
  for (const blog of blogs) await blog.waitForFunction(() => 'blogEditor' in window);
  const workspace = await tether.workspaceOf([...blogs, ...cafes], { name: 'Ridge walk', writable: ['blog'] });
  return { blogs, cafes, workspace: workspace.id, profile: await tether.profileId() };
}

async function openPanel(tether: TetherDriver): Promise<Page> {
  const panel = await tether.context.newPage();
  await panel.setViewportSize({ width: 380, height: 1100 });
  await panel.goto(tether.extensionUrl('extension/panel.html'));
  return panel;
}

const fieldValue = (page: Page, name: string) =>
  page.evaluate((field) => (document.querySelector(`[name="${field}"]`) as HTMLInputElement | null)?.value ?? null, name);

/** Every message a client received answers a request it sent itself; nothing else reached it. */
function onlyItsOwnAnswers(agent: McpAgent): void {
  const ids = agent.received.map((message) => (message as { id?: unknown }).id);
  expect(
    ids.every((id) => id !== undefined && agent.sent.includes(id as string | number)),
    JSON.stringify(agent.received).slice(0, 500),
  ).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
}

test('two agents on one workspace: the interleaving is refused, references are shared, the journal names each, the person releases from the panel', async ({
  tether,
}) => {
  const agents = await pairedAgents(tether, [CLAUDE, CURSOR]);
  const [claude, cursor] = agents as [McpAgent, McpAgent];
  try {
    const { blogs, profile, workspace } = await scene(tether);
    const blog = blogs[0] as Page;
    const scope = { profile, workspace };

    // Agent A resolves the blog, inspects it and fills the title.
    const a = ok(await claude.call('resolve', { ...scope, destination: { site: 'blog' } }));
    const aHandle = a.write?.handle;
    const aSeen = ok(await claude.call('inspect', { ...scope, handle: aHandle }));
    ok(
      await claude.call('act', {
        ...scope,
        handle: aHandle,
        plan: { steps: [{ op: 'fill', field: 'title', text: 'Agent A: ridge walk', expect: { hash: hashOf(aSeen, 'title') } }] },
      }),
    );

    // Agent B resolves the blog: refused, told who holds it and what to do.
    const busy = refused(await cursor.call('resolve', { ...scope, destination: { site: 'blog' } }), 'target_busy');
    expect(busy.details?.heldBy).toEqual({ agent: expect.stringMatching(LABEL('Claude Code')) as unknown, since: expect.any(String) as unknown });
    expect(busy.message).toMatch(
      /^Claude Code \([0-9a-z]{4}\) holds this tab since .*Wait until it releases it, or ask the person to release it in Tether's panel\.$/,
    );
    // A handle that reached B anyway writes nothing.
    refused(
      await cursor.call('act', {
        ...scope,
        handle: aHandle,
        plan: { steps: [{ op: 'fill', field: 'body', text: 'Agent B: a different post entirely.', expect: { text: '' } }] },
      }),
      'target_busy',
    );
    // B may read the blog as a reference, as anyone may.
    const reading = ok(await cursor.call('resolve', { ...scope, readOnly: true, references: [{ site: 'blog' }] }));
    // A reference answer has no fields: the title is read by name, like a region.
    const readBack = ok(await cursor.call('inspect', { ...scope, handle: reading.references?.[0]?.handle, read: ['title'] }));
    expect(readBack.text?.title).toBe('Agent A: ridge walk');
    // context says who holds the tab, to both.
    const seenByB = ok(await cursor.call('context', scope)).profiles[0]?.workspaces[0]?.tabs[0];
    expect(seenByB?.heldBy?.agent).toMatch(LABEL('Claude Code'));
    expect(ok(await claude.call('context', scope)).profiles[0]?.workspaces[0]?.tabs[0]?.heldBy?.yours).toBe(true);
    // The post holds A's title and nothing of B's.
    expect(await fieldValue(blog, 'title')).toBe('Agent A: ridge walk');
    expect(await fieldValue(blog, 'body')).toBe('');

    // A name forged in the arguments is not taken: the request is refused, and journaled under the session's name.
    refused(await claude.call('context', { agent: 'Mallory' }), 'invalid_request');

    // The journal says which agent did what.
    const records = await tether.must({ type: 'journal.list', limit: 20 });
    const who = (record: (typeof records)[number]) => record.agent?.name;
    // (The forged name never reached the browser: the bridge refuses an argument no tool has.)
    expect(records.slice(0, 8).map((record) => `${record.tool}:${record.outcome}:${who(record)}`)).toEqual([
      'context:done:Claude Code',
      'context:done:Cursor',
      'inspect:done:Cursor',
      'resolve:done:Cursor',
      'act:refused:Cursor',
      'resolve:refused:Cursor',
      'act:done:Claude Code',
      'inspect:done:Claude Code',
    ]);

    // The person sees who holds the tab, and since when, and releases it.
    const panel = await openPanel(tether);
    const holdLine = panel.locator('.hold');
    await expect(holdLine).toHaveText(/^Claude Code \([0-9a-z]{4}\) holds ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) since .+Release$/);
    await expect(panel.locator('.records .agent-name').first()).toHaveText(LABEL('Claude Code'));
    await panel.screenshot({ path: join(SHOTS, 'en-agents-hold.png'), fullPage: true });
    await panel.getByRole('button', { name: /^Release ‘New post — Alice's Blog’ from Claude Code/ }).click();
    await expect(panel.getByText('No agent holds a tab.')).toBeVisible();

    // A's next act is told the holder changed, and writes nothing; B may take the tab now.
    const changed = refused(
      await claude.call('act', { ...scope, handle: aHandle, plan: { steps: [{ op: 'fill', field: 'body', text: 'A again', expect: { text: '' } }] } }),
      'context_changed',
    );
    expect(changed.details).toMatchObject({ changed: ['holder'] });
    const b = ok(await cursor.call('resolve', { ...scope, destination: { site: 'blog' } }));
    refused(await claude.call('resolve', { ...scope, destination: { site: 'blog' } }), 'target_busy');
    // B ends its task: released; a release by A, who holds nothing, names nobody.
    expect(released(ok(await cursor.call('act', { ...scope, handle: b.write?.handle, release: true })))).toEqual({ released: { tabId: b.write?.tabId } });
    const none = refused(await claude.call('act', { ...scope, handle: aHandle, release: true }), 'invalid_request');
    expect(none.message).toBe('You do not hold this tab: nobody does. Nothing was released.');
    expect(await fieldValue(blog, 'body')).toBe('');
    for (const agent of agents) onlyItsOwnAnswers(agent);
  } finally {
    for (const agent of agents) await agent.close();
  }
});

/** A browser with the native host installed (the primary path) and the service worker's start time to tell workers apart. */
async function launchNative(sandbox: NativeSandbox, sites: RunningSites, lang?: string) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
  await installFor(sandbox, userDataDir);
  const launched = await launchTether({ userDataDir, ...(lang ? { lang } : {}) });
  const tether = new TetherDriver(launched.context, launched.extensionId, sites);
  await profileMade(tether);
  return {
    tether,
    async close() {
      await launched.context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** What the agents' servers said on stderr (attached when a test fails). */
function stderrOf(agents: McpAgent[]): string {
  return agents.map((agent, index) => `--- agent ${index}\n${agent.stderr.join('')}`).join('\n');
}

async function nativeAgents(sandbox: NativeSandbox, clients: Array<{ name: string; version: string; title?: string }>): Promise<McpAgent[]> {
  const first = await startAgent({ native: sandbox, clientInfo: clients[0] });
  const agents = [first];
  // One port, as every client's `npx tether-mcp` uses: the first is the hub, the others relay (and reach the browser through the host).
  for (const clientInfo of clients.slice(1)) agents.push(await startAgent({ native: sandbox, clientInfo, port: first.port }));
  return agents;
}

test('the hold survives the worker being stopped: a new worker (new start time) still refuses the other agent, and the holder writes', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agents = await nativeAgents(sandbox, [CLAUDE, CURSOR]);
  const [claude, cursor] = agents as [McpAgent, McpAgent];
  try {
    const { tether } = browser;
    const { blogs, profile, workspace } = await scene(tether);
    const scope = { profile, workspace };
    const held = ok(await claude.call('resolve', { ...scope, destination: { site: 'blog' } }));
    const seen = ok(await claude.call('inspect', { ...scope, handle: held.write?.handle }));
    // Stopped for real (the driver throws unless the worker's target went or a later-started one replaced it).
    const stop = await tether.stopServiceWorker();
    const busy = refused(await cursor.call('resolve', { ...scope, destination: { site: 'blog' } }, { timeoutMs: 60_000 }), 'target_busy');
    // A new worker (a later start time) answered that: the hold came from storage, not from the old worker's memory.
    await tether.expectNewBackgroundServed(stop);
    expect(busy.details?.heldBy).toMatchObject({ agent: expect.stringMatching(LABEL('Claude Code')) as unknown });
    ran(
      ok(
        await claude.call('act', {
          ...scope,
          handle: held.write?.handle,
          plan: { steps: [{ op: 'fill', field: 'title', text: 'after the restart', expect: { hash: hashOf(seen, 'title') } }] },
        }),
      ),
    );
    expect(await fieldValue(blogs[0] as Page, 'title')).toBe('after the restart');
  } finally {
    for (const agent of agents) await agent.close();
    await browser.close();
  }
});

test('an agent that goes mid-act keeps its hold until the act’s outcome is recorded, then releases it', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agents = await nativeAgents(sandbox, [CURSOR, CLAUDE]);
  const [cursor, claude] = agents as [McpAgent, McpAgent];
  try {
    const { tether } = browser;
    const { profile, workspace } = await scene(tether);
    const scope = { profile, workspace };
    // Claude Code (a relay: its calls go through the native host) publishes, and the person is asked.
    const held = ok(await claude.call('resolve', { ...scope, destination: { site: 'blog' } }));
    const plan = {
      steps: [
        { op: 'fill', field: 'title', text: 'Ridge walk', expect: { text: '' } },
        { op: 'fill', field: 'body', text: 'Up the ridge.', expect: { text: '' } },
        { op: 'click', action: 'publish' },
      ],
    };
    void claude.call('act', { ...scope, handle: held.write?.handle, plan, requestId: 'gone-mid-act' }).catch(() => undefined);
    await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
    const [approval] = (await tether.state()).approvals;
    expect(approval?.agent?.name).toBe('Claude Code');
    // The agent goes (its MCP client closes, its bridge exits): the host tells the worker its session
    // ended (right after it counts one bridge fewer); its act waits on, and the tab stays its.
    await claude.close();
    await expect.poll(async () => (await tether.state()).connection.native.bridges).toBe(1);
    refused(await cursor.call('resolve', { ...scope, destination: { site: 'blog' } }), 'target_busy');
    await expect(async () => expect((await tether.state()).holds.map((hold) => hold.agent.name)).toEqual(['Claude Code'])).toPass();
    await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: true });
    // The act ran and was recorded; then the hold went.
    await expect.poll(() => sites.state.blog.posts.length).toBe(1);
    await expect
      .poll(async () => (await tether.must({ type: 'journal.list', limit: 10 })).find((record) => record.requestId === 'gone-mid-act')?.outcome)
      .toBe('done');
    await expect.poll(async () => (await tether.state()).holds.length).toBe(0);
    // The other agent may take the blog tab now.
    ok(await cursor.call('resolve', { ...scope, destination: { site: 'blog' } }));
  } finally {
    for (const agent of agents) await agent.close();
    await browser.close();
  }
});

test('three agents at once: questions and an approval, each answer to the agent that asked and nothing to another session', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agents = await nativeAgents(sandbox, [CLAUDE, CURSOR, CODEX]);
  const [claude, cursor, codex] = agents as [McpAgent, McpAgent, McpAgent];
  try {
    const { tether } = browser;
    const { blogs, cafes, profile, workspace } = await scene(tether, { blogs: 2, cafes: 2 });
    const scope = { profile, workspace };
    const [blog1, blog2] = blogs as [Page, Page];
    const titleOfCafe2 = await (cafes[1] as Page).title();
    const panel = await openPanel(tether);

    // Claude Code: write blog 1 from "the cafe" (two cafe tabs): it asks the person.
    const claudeAsks = claude.call('resolve', { ...scope, destination: { url: blog1.url() }, references: [{ site: 'cafe' }], ask: 60 }, { timeoutMs: 120_000 });
    // Codex: blog 2, and publishes: the person is asked to approve.
    const codexHeld = ok(await codex.call('resolve', { ...scope, destination: { url: blog2.url() } }));
    const codexPlan = {
      steps: [
        { op: 'fill', field: 'title', text: 'Codex post', expect: { text: '' } },
        { op: 'click', action: 'publish' },
      ],
    };
    const codexActs = codex.call('act', { ...scope, handle: codexHeld.write?.handle, plan: codexPlan, approvalTimeoutSeconds: 120 }, { timeoutMs: 200_000 });
    // Cursor: "the blog" matches two tabs; it asks, and nobody answers within its 10 seconds.
    const cursorAsks = cursor.call('resolve', { ...scope, destination: { site: 'blog' }, ask: 10 }, { timeoutMs: 60_000 });

    await expect(panel.locator('.question')).toHaveCount(2);
    await expect(panel.locator('.approval')).toHaveCount(1);
    await expect(panel.locator('.approval-agent')).toHaveText(/^Codex \([0-9a-z]{4}\) wants to publish on blog\.localhost:\d+ as alice$/);
    const claudeQuestion = panel.locator('.question').filter({ hasText: 'Claude Code' });
    await expect(claudeQuestion.locator('.question-ask')).toHaveText(
      /^Claude Code \([0-9a-z]{4}\) asks which tab you mean by “cafe”: it would only read it\.$/,
    );
    await expect(claudeQuestion.locator('.candidate-words')).toHaveText([
      /^cafe\.localhost:\d+ — ‘.+’ — as alice_k\/posts\/1$/,
      /^cafe\.localhost:\d+ — ‘.+’ — as alice_k\/posts\/2$/,
    ]);
    // Two blog tabs of one title: told apart by their paths, and the one another agent holds says so.
    const cursorQuestion = panel.locator('.question').filter({ hasText: 'Cursor' });
    await expect(cursorQuestion.locator('.candidate-path')).toHaveText(['/write?editor=plain&slot=1', '/write?editor=plain&slot=2']);
    await expect(cursorQuestion.locator('.candidate-held')).toHaveText([/^held by Codex \([0-9a-z]{4}\) for its task/]);
    await panel.screenshot({ path: join(SHOTS, 'en-agents-questions.png'), fullPage: true });

    // Cursor's time runs out: ambiguous_target, as before, saying nobody chose.
    const timedOut = refused(await cursorAsks, 'ambiguous_target');
    expect(timedOut.details).toMatchObject({ asked: 'no answer' });
    expect(timedOut.message).toContain('The person did not choose within 10 s.');
    await expect(panel.locator('.question')).toHaveCount(1);

    // The person picks the second cafe post for Claude Code: two clicks (the panel is open, one on the candidate).
    await claudeQuestion.getByRole('button', { name: new RegExp(`^Choose ‘${titleOfCafe2.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click();
    const claudeResolved = ok(await claudeAsks);
    expect(claudeResolved.references?.[0]?.tabId).toBe(await tether.tabIdOf(cafes[1] as Page));
    expect(claudeResolved.write?.tabId).toBe(await tether.tabIdOf(blog1));

    // Cursor asks again about the cafe; the person declines.
    const cursorAgain = cursor.call('resolve', { ...scope, readOnly: true, references: [{ site: 'cafe' }], ask: true }, { timeoutMs: 120_000 });
    await expect(panel.locator('.question')).toHaveCount(1);
    await panel.locator('.question').getByRole('button', { name: 'Choose none' }).click();
    const declined = refused(await cursorAgain, 'approval_denied');
    expect(declined.details).toEqual({ role: 'reference', named: 'cafe' });

    // The approval goes to Codex, and only Codex's act runs.
    await panel.locator('.approval').getByRole('button', { name: 'Approve' }).click();
    expect(ran(ok(await codexActs)).steps.map((step) => step.verified)).toEqual([true, true]);
    await expect.poll(() => sites.state.blog.posts.map((post) => post.title)).toEqual(['Codex post']);
    // While the others waited, Cursor could not take either blog.
    refused(await cursor.call('resolve', { ...scope, destination: { url: blog1.url() } }), 'target_busy');

    for (const agent of agents) onlyItsOwnAnswers(agent);
    const records = await tether.must({ type: 'journal.list', limit: 30 });
    expect(new Set(records.filter((record) => record.via === 'agent').map((record) => record.agent?.name))).toEqual(
      new Set(['Claude Code', 'Cursor', 'Codex']),
    );
  } finally {
    for (const agent of agents) await agent.close();
    await browser.close();
  }
});

for (const lang of ['en', 'ko'] as const) {
  test(`the panel in ${lang === 'ko' ? 'Korean' : 'English'}: who holds a tab, an agent's question, an agent's approval`, async ({ sites }) => {
    const launched = await launchTether({ lang });
    const tether = new TetherDriver(launched.context, launched.extensionId, sites);
    const agents = await pairedAgents(tether, [CLAUDE, CODEX]);
    const [claude, codex] = agents as [McpAgent, McpAgent];
    try {
      const { blogs, profile, workspace } = await scene(tether, { blogs: 1, cafes: 2 });
      const scope = { profile, workspace };
      const held = ok(await claude.call('resolve', { ...scope, destination: { url: (blogs[0] as Page).url() } }));
      const publishing = claude.call(
        'act',
        {
          ...scope,
          handle: held.write?.handle,
          plan: {
            steps: [
              { op: 'fill', field: 'title', text: 'Ridge walk', expect: { text: '' } },
              { op: 'click', action: 'publish' },
            ],
          },
        },
        { timeoutMs: 200_000 },
      );
      const asking = codex.call('resolve', { ...scope, readOnly: true, references: [{ site: 'cafe' }], ask: 60 }, { timeoutMs: 120_000 });
      const panel = await openPanel(tether);
      await expect(panel.locator('.question')).toHaveCount(1);
      await expect(panel.locator('.approval')).toHaveCount(1);
      await expect(panel.locator('.hold')).toHaveCount(1);
      const words =
        lang === 'ko'
          ? {
              agent: /^Claude Code \([0-9a-z]{4}\)이\(가\) blog\.localhost:\d+에 alice 계정으로 게시하려고 합니다$/,
              hold: /^Claude Code \([0-9a-z]{4}\)이\(가\) .+부터 ‘.+’\(blog\.localhost:\d+\)을\(를\) 맡고 있습니다/,
              ask: /^Codex \([0-9a-z]{4}\)이\(가\) “cafe”이\(가\) 어느 탭인지 묻습니다: 그 탭은 읽기만 합니다\.$/,
            }
          : {
              agent: /^Claude Code \([0-9a-z]{4}\) wants to publish on blog\.localhost:\d+ as alice$/,
              hold: /^Claude Code \([0-9a-z]{4}\) holds ‘.+’ \(blog\.localhost:\d+\) since /,
              ask: /^Codex \([0-9a-z]{4}\) asks which tab you mean by “cafe”: it would only read it\.$/,
            };
      await expect(panel.locator('.approval-agent')).toHaveText(words.agent);
      await expect(panel.locator('.hold-line')).toHaveText(words.hold);
      await expect(panel.locator('.question-ask')).toHaveText(words.ask);
      await panel.screenshot({ path: join(SHOTS, `${lang}-agents-waiting.png`), fullPage: true });
      // Pick the first candidate; approve the publish.
      await panel.locator('.question .candidate').first().click();
      expect(ok(await asking).references).toHaveLength(1);
      await panel.locator('.approval .primary').click();
      ran(ok(await publishing));
      await expect(panel.locator('.question')).toHaveCount(0);
      await panel.screenshot({ path: join(SHOTS, `${lang}-agents-after.png`), fullPage: true });
    } finally {
      for (const agent of agents) await agent.close();
      await launched.context.close();
      rmSync(launched.userDataDir, { recursive: true, force: true });
    }
  });
}
