/**
 * The agent channel end to end: a real MCP client spawns `npx tether-mcp`, which the extension
 * connects to after pairing; every tool, every error path, approvals, scheduled acts, the journal,
 * the bridge's guards and several profiles at once.
 */
import type { Page } from '@playwright/test';
import { BRIDGE_PROTOCOL_VERSION, CLOSE_BAD_TOKEN } from '../shared/link/bridgeProtocol.ts';
import { clientProof, freshNonce } from '../shared/link/pairingProof.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import { BOTH, expect, inBothBrowsers, test } from './fixtures.ts';
import { ok, ran, refused, scheduled as scheduledAct } from './support/answers.ts';
import { blogModel } from './support/blogFlow.ts';
import { handshakeResult, openFromPage } from './support/bridgeProbes.ts';
import { launchTether } from './support/launchTether.ts';
import type { McpAgent } from './support/mcpAgent.ts';
import type { TabPage, TetherClient } from './support/tetherClient.ts';
import { TetherDriver } from './support/tetherDriver.ts';

async function pairedScene<P extends TabPage>(tether: TetherClient<P>, agent: McpAgent, options: { publishWithoutApproval?: boolean; editor?: string } = {}) {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', `/write?editor=${options.editor ?? 'plain'}`);
  const cafe = await tether.open('cafe', '/posts/1');
  await tether.workspaceOf([blog, cafe], { name: 'Spring post', writable: ['blog'], publishWithoutApproval: options.publishWithoutApproval ?? false });
  await agent.pair(tether);
  const context = ok(await agent.call('context'));
  const profile = context.profiles[0]?.id ?? '';
  const workspace = context.profiles[0]?.workspaces[0]?.id ?? '';
  return { blog, cafe, profile, workspace, context };
}

async function journal(tether: TetherClient): Promise<JournalRecord[]> {
  return tether.must({ type: 'journal.list', limit: 100 });
}

inBothBrowsers('an MCP client completes the blog-from-cafe task, with the person approving the publish', BOTH, async ({ tether, agent, sites }) => {
  const { blog, profile, workspace, context } = await pairedScene(tether, agent);
  expect(context.usage).toContain('resolve');
  expect(context.profiles[0]?.workspaces[0]?.name).toBe('Spring post');

  const resolved = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
  const reference = ok(await agent.call('inspect', { profile, workspace, handle: resolved.references?.[0]?.handle, read: ['post.title', 'post.body'] }));
  ok(await agent.call('inspect', { profile, workspace, handle: resolved.write?.handle }));
  const plan = {
    steps: [
      { op: 'fill', field: 'title', text: `Market day: ${reference.text?.['post.title'] ?? ''}` },
      { op: 'fill', field: 'body', text: reference.text?.['post.body'] ?? '' },
      { op: 'click', action: 'publish' },
    ],
  };
  const acting = agent.call('act', { profile, workspace, handle: resolved.write?.handle, plan, requestId: 'spring-1' });
  // The person sees what will be written where, and approves.
  await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
  const [approval] = (await tether.state()).approvals;
  expect(approval?.summary.en).toMatch(
    /^On ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice: write \d+ characters into title, then write \d+ characters into body, then press publish\.$/,
  );
  await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: true });
  const done = ran(ok(await acting));
  expect(done.steps.map((step) => step.verified)).toEqual([true, true, true]);
  await expect.poll(() => sites.state.blog.posts.length).toBe(1);
  expect(sites.state.blog.posts[0]?.body).toContain('Bring your own cup');
  // The page's own address (a navigation in progress has none to give yet).
  await expect.poll(() => blog.evaluate(() => location.href).catch(() => 'navigating')).toMatch(/\/posts\/1$/);

  const records = await journal(tether);
  expect(records.map((record) => record.tool).slice(0, 5)).toEqual(['act', 'inspect', 'inspect', 'resolve', 'context']);
  expect(records[0]).toMatchObject({ via: 'agent', outcome: 'done', requestId: 'spring-1' });
  expect(Object.keys(records[0]?.lifecycle ?? {})).toEqual(['prepare', 'decide', 'dispatch', 'observe', 'record']);
});

test('answers hold what an agent acts on: one language, diagnostics only when asked, nothing empty', async ({ tether, agent }) => {
  const { profile, workspace } = await pairedScene(tether, agent);
  const resolving = { profile, workspace, destination: { site: 'blog' } };
  const english = await agent.call('resolve', resolving);
  expect(Object.keys(english)).toEqual(['ok', 'result']);
  const resolved = ok(english);
  // No references asked for: none listed. The tab's url and title are context's; the line for the person says them.
  expect(Object.keys(resolved)).toEqual(['write', 'explanation']);
  expect(resolved.explanation).toMatch(/^Writing to ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice — this request named “blog”\.$/);
  expect(ok(await agent.call('resolve', { ...resolving, lang: 'ko' })).explanation).toMatch(
    /alice 계정으로 씁니다 — 이번 요청이 “blog”을\(를\) 지정했습니다\.$/,
  );

  // debug: the bridge's and the worker's times, the journal record and the call.
  const debugged = await agent.call('inspect', { profile, workspace, handle: resolved.write?.handle, debug: true });
  expect(debugged.meta).toMatchObject({
    tool: 'inspect',
    profile,
    callId: expect.any(String),
    tookMs: expect.any(Number),
    bridgeMs: expect.any(Number),
    journal: { saved: true },
  });
  const [record] = await journal(tether);
  expect(debugged.meta?.journal).toEqual({ saved: true, id: record?.id });
  const inspected = ok(debugged);
  // No draft, nobody typing, nothing focused: none of it is said; the handle's document id never is.
  expect(JSON.stringify(inspected)).not.toMatch(/documentId|pageInstance|"draft"|"focused"|"editedByPerson"|\[\]|null/);

  // Bad options are refused at the bridge, naming what is allowed; nothing reaches the browser.
  const before = (await journal(tether)).length;
  expect(refused(await agent.call('resolve', { ...resolving, lang: 'fr' }), 'invalid_request').message).toContain('lang must be one of: "en", "ko"');
  expect(refused(await agent.call('context', { debug: 'yes' }), 'invalid_request').message).toContain('debug must be true or false');
  expect((await journal(tether)).length).toBe(before);
});

test('errors: browser_not_connected and missing_context without a browser; invalid handles with one', async ({ tether, agent }) => {
  refused(await agent.call('context'), 'browser_not_connected');
  const missing = refused(await agent.call('inspect', { profile: 'p' }), 'missing_context');
  expect(missing.details?.missing).toEqual(['workspace', 'handle']);
  refused(await agent.call('resolve', { profile: 'p', workspace: 'w', destinaton: {} }), 'invalid_request');

  const { profile, workspace } = await pairedScene(tether, agent);
  expect(refused(await agent.call('act', { profile, workspace }), 'missing_context').details?.missing).toEqual(['handle', 'plan']);
  const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
  const handle = write?.handle ?? '';
  const altered = `${handle.slice(0, -2)}${handle.endsWith('AA') ? 'BB' : 'AA'}`;
  refused(await agent.call('inspect', { profile, workspace, handle: altered }), 'invalid_handle');
  refused(await agent.call('inspect', { profile, workspace, handle: 'th_forgedforgedforgedforge' }), 'invalid_handle');
  refused(await agent.call('inspect', { profile, workspace, handle: 'not a handle' }), 'invalid_handle');
  refused(await agent.call('inspect', { profile: 'pr_elsewhere', workspace, handle }), 'browser_not_connected');
});

test('approvals: no answer in time → approval_required; declined → approval_denied; nothing published', async ({ tether, agent, sites }) => {
  const { profile, workspace } = await pairedScene(tether, agent);
  const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
  await agent.call('inspect', { profile, workspace, handle: write?.handle });
  const plan = {
    steps: [
      { op: 'fill', field: 'title', text: 'Hi' },
      { op: 'click', action: 'publish' },
    ],
  };
  const waited = refused(await agent.call('act', { profile, workspace, handle: write?.handle, plan, approvalTimeoutSeconds: 1 }), 'approval_required');
  expect(waited.message).toContain('approval');
  const acting = agent.call('act', { profile, workspace, handle: write?.handle, plan, approvalTimeoutSeconds: 30 });
  await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
  const [approval] = (await tether.state()).approvals;
  await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: false });
  refused(await acting, 'approval_denied');
  expect(sites.state.blog.posts).toHaveLength(0);
  expect((await tether.state()).approvals).toHaveLength(0);
});

test('plans: all problems listed at once; a failure while running reports what ran and was undone; a request id runs once', async ({ tether, agent }) => {
  const { blog, profile, workspace } = await pairedScene(tether, agent, { editor: 'react' });
  const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
  const handle = write?.handle;
  await agent.call('inspect', { profile, workspace, handle });
  const invalid = refused(
    await agent.call('act', {
      profile,
      workspace,
      handle,
      plan: {
        steps: [
          { op: 'fill', field: 'titel', text: 'x' },
          { op: 'click', action: 'share' },
          { op: 'fill', field: 'body', text: 'y', expect: { hash: 'v1:nope' } },
        ],
      },
    }),
    'invalid_request',
  );
  expect((invalid.details?.problems as Array<{ step: number }>).map((problem) => problem.step)).toEqual([0, 1, 2]);

  const rolled = refused(
    await agent.call('act', {
      profile,
      workspace,
      handle,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'T' },
          { op: 'fill', field: 'body', text: 'tab\there' },
        ],
      },
    }),
    'invalid_request',
  );
  expect(rolled.details).toMatchObject({ ran: [0, 1], rolledBack: [1, 0] });
  expect(await blogModel(blog)).toEqual({ title: '', body: '' });

  const append = { steps: [{ op: 'append', field: 'body', text: 'once.' }] };
  const first = ok(await agent.call('act', { profile, workspace, handle, plan: append, requestId: 'append-1' }));
  const second = ok(await agent.call('act', { profile, workspace, handle, plan: append, requestId: 'append-1' }));
  expect(second).toEqual(first);
  expect((await blogModel(blog)).body).toBe('once.');
});

test('a scheduled act runs later through alarms, even after the worker was stopped', async ({ tether, agent, sites }) => {
  const { profile, workspace } = await pairedScene(tether, agent, { publishWithoutApproval: true });
  const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
  await agent.call('inspect', { profile, workspace, handle: write?.handle });
  const at = new Date(Date.now() + 4000).toISOString();
  const scheduled = ok(
    await agent.call('act', {
      profile,
      workspace,
      handle: write?.handle,
      at,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Scheduled' },
          { op: 'fill', field: 'body', text: 'Posted later.' },
          { op: 'click', action: 'publish' },
        ],
      },
    }),
  );
  expect(scheduledAct(scheduled).scheduled.at).toBe(at);
  const programs = ok(await agent.call('context', { profile, workspace }));
  expect(programs.profiles[0]?.workspaces[0]?.programs?.map((program) => program.status)).toEqual(['scheduled']);
  const stop = await tether.stopServiceWorker();
  await expect.poll(() => sites.state.blog.posts.length, { timeout: 20_000 }).toBe(1);
  // The alarm woke a new worker, and it ran the act.
  await tether.expectNewBackgroundServed(stop);
  expect(sites.state.blog.posts[0]).toMatchObject({ title: 'Scheduled', body: 'Posted later.' });
  await expect.poll(async () => (await journal(tether))[0]?.via).toBe('schedule');
  expect((await journal(tether))[0]).toMatchObject({ outcome: 'done', tool: 'act' });
});

test('a scheduled act after the person navigated the tab is refused with context_changed and journaled', async ({ tether, agent, sites }) => {
  const { blog, profile, workspace } = await pairedScene(tether, agent, { publishWithoutApproval: true });
  const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
  await agent.call('inspect', { profile, workspace, handle: write?.handle });
  ok(
    await agent.call('act', {
      profile,
      workspace,
      handle: write?.handle,
      at: new Date(Date.now() + 3000).toISOString(),
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Too late' },
          { op: 'click', action: 'publish' },
        ],
      },
    }),
  );
  await blog.goto(tether.sites.url('blog', '/write?editor=contenteditable'));
  await expect.poll(async () => (await journal(tether))[0]?.via, { timeout: 20_000 }).toBe('schedule');
  const [record] = await journal(tether);
  expect(record).toMatchObject({ outcome: 'refused', error: { code: 'context_changed' } });
  expect(sites.state.blog.posts).toHaveLength(0);
  expect(await blog.locator('#post-title').inputValue()).toBe('');
  expect((await tether.state()).programs).toHaveLength(0);
});

test('the journal exports as JSON Lines, oldest first', async ({ tether, agent }) => {
  const { profile, workspace } = await pairedScene(tether, agent);
  await agent.call('resolve', { profile, workspace, destination: { site: 'nowhere' } });
  const { jsonl, count } = await tether.must({ type: 'journal.export' });
  const lines = jsonl
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalRecord);
  expect(lines).toHaveLength(count);
  expect(lines.map((line) => line.tool)).toEqual(['context', 'resolve']);
  expect(lines[1]).toMatchObject({ outcome: 'refused', error: { code: 'target_not_found' } });
});

test('the bridge refuses a wrong token, a web page’s Origin, and a foreign Host', async ({ tether, agent }) => {
  const page: Page = await tether.open('blog', '/');
  const fromPage = await openFromPage(page, agent.port);
  expect(fromPage).toBe('refused');

  expect(await handshakeResult(agent.port, { headers: { host: `evil.example:${agent.port}` } })).toBe('http 403');
  const extensionOrigin = { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' };
  const wrongProof = (serverNonce: string) => {
    const nonce = freshNonce();
    const profile = { id: 'x', label: 'x' };
    return clientProof('guess-guess-guess', { version: BRIDGE_PROTOCOL_VERSION, serverNonce, clientNonce: nonce, peer: { role: 'browser', profile } }).then(
      (proof) => ({
        type: 'hello',
        role: 'browser',
        nonce,
        proof,
        version: BRIDGE_PROTOCOL_VERSION,
        profile,
      }),
    );
  };
  expect(await handshakeResult(agent.port, extensionOrigin, wrongProof)).toBe(CLOSE_BAD_TOKEN);
  // Say nothing after the challenge: closed after the hello timeout.
  expect(await handshakeResult(agent.port, {})).toBe(4400);

  // The extension with a wrong token is told so, and stops retrying.
  await tether.must({ type: 'connection.set', token: 'not-the-right-token', port: agent.port });
  await expect.poll(async () => (await tether.state()).connection.state).toBe('refused');
  refused(await agent.call('context'), 'browser_not_connected');
});

test('two browser profiles connected at once: requests route by profile', async ({ tether, agent, sites }) => {
  const first = await pairedScene(tether, agent);
  const second = await launchTether();
  try {
    const other = new TetherDriver(second.context, second.extensionId, sites);
    await other.signIn('blog', 'bob');
    const bobBlog = await other.open('blog', '/write');
    await other.workspaceOf([bobBlog], { name: 'Bob posts', writable: ['blog'] });
    await other.must({ type: 'profile.rename', label: 'Bob at home' });
    await agent.pair(other);
    const context = ok(await agent.call('context'));
    expect(context.profiles.map((profile) => profile.label).sort()).toEqual(['Bob at home', 'Chromium profile']);
    const bob = context.profiles.find((profile) => profile.label === 'Bob at home');
    const bobWorkspace = bob?.workspaces[0]?.id ?? '';
    const bobResolved = ok(await agent.call('resolve', { profile: bob?.id, workspace: bobWorkspace, destination: { site: 'blog' } }));
    expect(bobResolved.write?.account).toBe('bob');
    const aliceResolved = ok(await agent.call('resolve', { profile: first.profile, workspace: first.workspace, destination: { site: 'blog' } }));
    expect(aliceResolved.write?.account).toBe('alice');
    // A handle is only good in the profile that minted it.
    refused(await agent.call('inspect', { profile: bob?.id, workspace: bobWorkspace, handle: aliceResolved.write?.handle }), 'invalid_handle');
    refused(await agent.call('resolve', { profile: bob?.id, workspace: first.workspace }), 'unknown_scope');
  } finally {
    await second.context.close();
  }
});

test('several MCP servers share one hub: a second agent relays through the first', async ({ tether, agent }) => {
  const { profile, workspace } = await pairedScene(tether, agent);
  const { McpAgent: Agent } = await import('./support/mcpAgent.ts');
  const second = await Agent.start({ port: agent.port, token: agent.token });
  try {
    const resolved = ok(await second.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
    expect(resolved.write?.account).toBe('alice');
  } finally {
    await second.close();
  }
  // And when the first (the hub) exits, the extension reconnects to whoever takes over.
  const third = await Agent.start({ port: agent.port, token: agent.token });
  try {
    await agent.close();
    await expect.poll(async () => (await third.call('context', { profile })).ok, { timeout: 30_000, intervals: [500] }).toBe(true);
  } finally {
    await third.close();
  }
});
