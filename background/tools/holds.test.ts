/**
 * Several agents on one workspace, through the tools: who may resolve and write a tab, releasing
 * it, a session ending mid-act, and asking the person when several tabs match.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { ActArgs, ResolveArgs } from '../../shared/agent/agentProtocol.ts';
import type { ActResult, ResolveResult } from '../../shared/agent/results.ts';
import type { Outcome } from '../../shared/errors.ts';
import { PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import { dropHolds, releaseTab, sessionsEnded } from '../core/holdStore.ts';
import { RequestTrace } from '../core/requestTrace.ts';
import { HOLD_IDLE_MS } from '../core/tabHolds.ts';
import { fakeToolContext, type FakeToolContext } from '../testing/fakeToolContext.ts';
import { actTool } from './actTool.ts';
import { contextTool } from './contextTool.ts';
import { inspectTool } from './inspectTool.ts';
import { resolveTool } from './resolveTool.ts';

const BLOG = 'https://blog.example';
const blogTab = tab(1, `${BLOG}/write`, 'Post');
const cafeA = tab(2, 'https://cafe.example/a', 'Notes A');
const cafeB = tab(3, 'https://cafe.example/b', 'Notes B');
const A: AgentSession = { name: 'Claude Code', id: 'aaaa', session: 'session-a' };
const B: AgentSession = { name: 'Cursor', id: 'bbbb', session: 'session-b' };

function setup() {
  const tabs = [blogTab, cafeA, cafeB];
  return fakeToolContext({ workspaces: [workspace(tabs, [BLOG])], tabs });
}

function trace(tool: string, agent: AgentSession, args: unknown): RequestTrace {
  const made = new RequestTrace(tool, 'agent', args, undefined);
  made.agent = agent;
  return made;
}

function resolve(context: FakeToolContext, agent: AgentSession, args: Partial<ResolveArgs> = {}): Promise<Outcome<ResolveResult>> {
  const full: ResolveArgs = { profile: PROFILE, workspace: 'ws_test', destination: { site: 'blog' }, ...args };
  return resolveTool.handler(full, trace('resolve', agent, full), context);
}

function act(context: FakeToolContext, agent: AgentSession, args: Partial<ActArgs>): Promise<Outcome<ActResult>> {
  const full: ActArgs = { profile: PROFILE, workspace: 'ws_test', ...args };
  return actTool.handler(full, trace('act', agent, full), context);
}

const fill = (text: string) => ({ steps: [{ op: 'fill' as const, field: 'body', text, expect: { text: '' } }] });

async function writeHandle(context: FakeToolContext, agent: AgentSession): Promise<string> {
  const resolved = await resolve(context, agent);
  if (!resolved.ok || !resolved.value.write) throw new Error(`resolve failed: ${resolved.ok ? 'no write' : resolved.error.code}`);
  return resolved.value.write.handle;
}

const pageWrites = (context: FakeToolContext) => context.asked.filter(({ request }) => request.type === 'act' && !request.dryRun).length;

describe('a write target is held by one agent’s task', () => {
  it('the interleaving from the issue is refused: B can neither resolve nor write the blog A holds', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    expect((await act(context, A, { handle: handleA, plan: fill('Agent A: ridge walk') })).ok).toBe(true);
    const byB = await resolve(context, B);
    expect(byB.ok).toBe(false);
    if (byB.ok) return;
    expect(byB.error.code).toBe('target_busy');
    expect(byB.error.details).toEqual({ tabId: 1, heldBy: { agent: 'Claude Code (aaaa)', since: new Date(context.now).toISOString() } });
    expect(byB.error.message).toContain('ask the person to release it');
    // Refused before the page was looked at for B.
    expect(context.asked.filter(({ request }) => request.type === 'observe')).toHaveLength(1);
    expect(pageWrites(context)).toBe(1);
  });

  it('two agents resolving the same tab at once: exactly one gets it, decided when the hold is taken', async () => {
    const context = setup();
    // Both pass the early look (nobody holds it yet) and meet again when the hold is taken.
    const [byA, byB] = await Promise.all([resolve(context, A), resolve(context, B)]);
    expect([byA.ok, byB.ok].sort()).toEqual([false, true]);
    const loser = byA.ok ? byB : byA;
    expect(!loser.ok && loser.error.code).toBe('target_busy');
    expect(context.handleRecords.size).toBe(1);
  });

  it('references stay readable by everyone: B reads the blog A holds, and inspects it', async () => {
    const context = setup();
    await writeHandle(context, A);
    const read = await resolve(context, B, { destination: undefined, readOnly: true, references: [{ site: 'blog' }] });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const reference = read.value.references?.[0]?.handle ?? '';
    const inspected = await inspectTool.handler({ profile: PROFILE, workspace: 'ws_test', handle: reference }, trace('inspect', B, {}), context);
    expect(inspected.ok).toBe(true);
  });

  it('the same agent resolving again keeps its hold, and its earlier handle still writes', async () => {
    const context = setup();
    const first = await writeHandle(context, A);
    const since = context.session.getState().holds['1']?.since;
    context.now += 60_000;
    await writeHandle(context, A);
    expect(context.session.getState().holds['1']?.since).toBe(since);
    expect((await act(context, A, { handle: first, plan: fill('still mine') })).ok).toBe(true);
  });

  it('a handle that reached another agent writes nothing: target_busy, who holds it', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    const answer = await act(context, B, { handle: handleA, plan: fill('Agent B: a different post entirely.') });
    expect(!answer.ok && answer.error.code).toBe('target_busy');
    expect(pageWrites(context)).toBe(0);
  });

  it('an idle hold ends after 10 minutes: then another agent may take the tab, and the first one’s handle is refused', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    context.now += HOLD_IDLE_MS;
    const handleB = await writeHandle(context, B);
    expect(context.session.getState().holds['1']?.agent.session).toBe('session-b');
    const late = await act(context, A, { handle: handleA, plan: fill('late') });
    expect(!late.ok && late.error.code).toBe('target_busy');
    expect((await act(context, B, { handle: handleB, plan: fill('mine now') })).ok).toBe(true);
  });

  it('context says who holds each tab (and which are the asking agent’s own)', async () => {
    const context = setup();
    await writeHandle(context, A);
    const args = { profile: PROFILE, workspace: 'ws_test' };
    const seenByB = await contextTool.handler(args, trace('context', B, args), context);
    const seenByA = await contextTool.handler(args, trace('context', A, args), context);
    const blogOf = (outcome: typeof seenByA) => (outcome.ok ? outcome.value.profiles[0]?.workspaces[0]?.tabs.find((item) => item.tabId === 1) : undefined);
    expect(blogOf(seenByB)?.heldBy).toEqual({ agent: 'Claude Code (aaaa)', since: new Date(context.now).toISOString() });
    expect(blogOf(seenByA)?.heldBy).toMatchObject({ yours: true });
    expect(seenByA.ok && seenByA.value.profiles[0]?.workspaces[0]?.tabs.find((item) => item.tabId === 2)?.heldBy).toBeUndefined();
  });
});

describe('a tab that leaves', () => {
  it('removed from the workspace: its hold is dropped, and the others stay', async () => {
    const context = setup();
    await writeHandle(context, A);
    const mine = context.session.getState().holds['1'];
    if (!mine) throw new Error('no hold');
    context.session.setState({ holds: { ...context.session.getState().holds, '9': { ...mine, tabId: 9 } } });
    await dropHolds(context, (hold) => hold.tabId === 1);
    expect(Object.keys(context.session.getState().holds)).toEqual(['9']);
    expect((await resolve(context, B)).ok).toBe(true);
  });
});

describe('release', () => {
  it('release: true with no plan frees the tab; another agent may take it; the first handle is then refused', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    expect(await act(context, A, { handle: handleA, release: true })).toEqual({ ok: true, value: { released: { tabId: 1 } } });
    expect(context.session.getState().holds).toEqual({});
    const again = await act(context, A, { handle: handleA, plan: fill('after release') });
    expect(!again.ok && again.error).toMatchObject({ code: 'context_changed', details: { changed: ['holder'] } });
    expect((await resolve(context, B)).ok).toBe(true);
  });

  it('release: true with a plan frees the tab once the plan ran; a refused plan keeps it', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    context.page.act = () => ({ ok: false, error: { code: 'field_changed', message: 'changed' } });
    const refused = await act(context, A, { handle: handleA, plan: fill('x'), release: true });
    expect(refused.ok).toBe(false);
    expect(context.session.getState().holds['1']).toBeDefined();
    delete context.page.act;
    const done = await act(context, A, { handle: handleA, plan: fill('x'), release: true });
    expect(done.ok && done.value).toMatchObject({ released: { tabId: 1 } });
    expect(context.session.getState().holds).toEqual({});
  });

  it('a release of a tab the session does not hold → invalid_request naming the holder, or none', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    await releaseTab(context, 1, null);
    const handleB = await writeHandle(context, B);
    const byA = await act(context, A, { handle: handleA, release: true });
    expect(!byA.ok && byA.error).toMatchObject({ code: 'invalid_request', details: { tabId: 1, heldBy: { agent: 'Cursor (bbbb)' } } });
    expect(!byA.ok && byA.error.message).toContain('Cursor (bbbb) does');
    expect(context.session.getState().holds['1']?.agent.session).toBe('session-b');
    await act(context, B, { handle: handleB, release: true });
    const none = await act(context, B, { handle: handleB, release: true });
    expect(!none.ok && none.error).toEqual({
      code: 'invalid_request',
      message: 'You do not hold this tab: nobody does. Nothing was released.',
      details: { tabId: 1 },
    });
  });

  it('the person releases it: the holder’s next act is context_changed (holder), and writes nothing', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    expect((await releaseTab(context, 1, null)).ok).toBe(true);
    const next = await act(context, A, { handle: handleA, plan: fill('after the person said no') });
    expect(!next.ok && next.error).toMatchObject({ code: 'context_changed', details: { changed: ['holder'], tabId: 1 } });
    expect(pageWrites(context)).toBe(0);
  });

  it('the person releases it while the act waits for approval: nothing is written (checked again at the last moment)', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    const publish = { steps: [...fill('Post').steps, { op: 'click' as const, action: 'publish' }] };
    const answer = act(context, A, { handle: handleA, plan: publish, approvalTimeoutSeconds: 60 });
    await vi.waitFor(() => expect(Object.values(context.session.getState().approvals)).toHaveLength(1));
    const approval = Object.values(context.session.getState().approvals)[0];
    expect(approval?.agent).toEqual({ name: 'Claude Code', id: 'aaaa' });
    expect(approval?.action).toBe('publish');
    await releaseTab(context, 1, null);
    await context.approvals.decide(approval?.id ?? '', true);
    const done = await answer;
    expect(!done.ok && done.error).toMatchObject({ code: 'context_changed', details: { changed: ['holder'] } });
    expect(pageWrites(context)).toBe(0);
  });
});

describe('a session that ends', () => {
  it('lets go of its tab at once', async () => {
    const context = setup();
    await writeHandle(context, A);
    await sessionsEnded(context, [A.session]);
    expect((await resolve(context, B)).ok).toBe(true);
  });

  it('mid-act: keeps its hold until the act’s outcome is kept, then releases it', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    const publish = { steps: [...fill('Post').steps, { op: 'click' as const, action: 'publish' }] };
    const answer = act(context, A, { handle: handleA, plan: publish, requestId: 'rq_mid', approvalTimeoutSeconds: 60 });
    await vi.waitFor(() => expect(Object.values(context.session.getState().approvals)).toHaveLength(1));
    await sessionsEnded(context, [A.session]);
    expect(context.session.getState().holds['1']).toMatchObject({ ending: true });
    expect((await resolve(context, B)).ok).toBe(false);
    await context.approvals.decide(Object.keys(context.session.getState().approvals)[0] ?? '', true);
    expect((await answer).ok).toBe(true);
    expect(context.actRecordMap.get('rq_mid')?.state).toBe('done');
    expect(context.session.getState().holds).toEqual({});
    expect((await resolve(context, B)).ok).toBe(true);
  });
});

describe('a scheduled act holds its target until it fires', () => {
  it('from scheduling: another agent is refused even after the scheduling session ended', async () => {
    const context = setup();
    const handleA = await writeHandle(context, A);
    const scheduled = await act(context, A, { handle: handleA, plan: fill('tonight'), at: new Date(context.now + 3_600_000).toISOString() });
    expect(scheduled.ok).toBe(true);
    expect(context.scheduled[0]?.agent).toEqual(A);
    await sessionsEnded(context, [A.session]);
    const byB = await resolve(context, B);
    expect(!byB.ok && byB.error.code).toBe('target_busy');
  });
});

describe('asking the person on ambiguous_target', () => {
  const pending = (context: FakeToolContext) => Object.values(context.session.getState().questions).filter((question) => question.decision === 'pending');

  it('the person picks: the resolve answers with that tab’s handle', async () => {
    const context = setup();
    context.session.setState({ seen: { '3': { state: 'signed_in', account: 'alice', documentId: 'doc-3', at: 0 } } });
    const answer = resolve(context, A, { destination: { site: 'cafe.example' }, ask: 30 });
    await vi.waitFor(() => expect(pending(context)).toHaveLength(1));
    const [question] = pending(context);
    expect(question).toMatchObject({
      agent: { name: 'Claude Code', id: 'aaaa' },
      role: 'write',
      named: 'cafe.example',
      candidates: [
        { tabId: 2, site: 'cafe.example', title: 'Notes A', account: null },
        { tabId: 3, site: 'cafe.example', title: 'Notes B', account: 'alice' },
      ],
      expiresAt: context.now + 30_000,
    });
    // The person also lets agents write on the cafe meanwhile: the pick is resolved against the workspace as it is now.
    const space = context.local.getState().workspaces.ws_test;
    if (!space) throw new Error('no workspace');
    context.local.setState({
      workspaces: { ws_test: { ...space, sites: { ...space.sites, 'https://cafe.example': { writable: true, publishWithoutApproval: false } } } },
    });
    expect(await context.questions.answer(question?.id ?? '', 3)).toBe(true);
    const resolved = await answer;
    expect(resolved.ok && resolved.value.write?.tabId).toBe(3);
  });

  it('an ambiguous reference is asked about too, and only that reference changes', async () => {
    const context = setup();
    const answer = resolve(context, A, { references: [{ site: 'cafe.example' }], ask: true });
    await vi.waitFor(() => expect(pending(context)).toHaveLength(1));
    expect(pending(context)[0]?.role).toBe('reference');
    await context.questions.answer(pending(context)[0]?.id ?? '', 2);
    const resolved = await answer;
    expect(resolved.ok && resolved.value.write?.tabId).toBe(1);
    expect(resolved.ok && resolved.value.references?.map((item) => item.tabId)).toEqual([2]);
  });

  it('the person declines: approval_denied, nothing minted, nothing held', async () => {
    const context = setup();
    const answer = resolve(context, A, { destination: { site: 'cafe.example' }, ask: true });
    await vi.waitFor(() => expect(pending(context)).toHaveLength(1));
    await context.questions.answer(pending(context)[0]?.id ?? '', null);
    const resolved = await answer;
    expect(!resolved.ok && resolved.error).toMatchObject({ code: 'approval_denied', details: { role: 'write', named: 'cafe.example' } });
    expect(context.handleRecords.size).toBe(0);
    expect(context.session.getState().holds).toEqual({});
  });

  it('nobody answers in time: ambiguous_target as before, saying the person did not choose', async () => {
    vi.useFakeTimers();
    try {
      const context = setup();
      const answer = resolve(context, A, { destination: { site: 'cafe.example' }, ask: 2 });
      await vi.advanceTimersByTimeAsync(2_000);
      const resolved = await answer;
      expect(!resolved.ok && resolved.error).toMatchObject({
        code: 'ambiguous_target',
        details: { asked: 'no answer', candidates: [{ tabId: 2 }, { tabId: 3 }] },
      });
      expect(!resolved.ok && resolved.error.message).toContain('did not choose within 2 s');
      expect(pending(context)).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without ask, nobody is asked', async () => {
    const context = setup();
    const resolved = await resolve(context, A, { destination: { site: 'cafe.example' } });
    expect(!resolved.ok && resolved.error.code).toBe('ambiguous_target');
    expect(Object.keys(context.session.getState().questions)).toHaveLength(0);
  });
});
