import { describe, expect, it } from 'vitest';
import { PAGE_AGENT, shortIdOf, UNNAMED_AGENT } from '../shared/agent/agentIdentity.ts';
import { failure, success, tetherError } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import type { ToolResults } from '../shared/agent/results.ts';
import { fakeToolContext } from './testing/fakeToolContext.ts';
import { createHarness, type ToolHandlers } from './harness.ts';

const RESULTS: ToolResults = {
  context: { profiles: [] },
  resolve: { explanation: 'Writing to ‘Post’ (blog.example) as alice — this request named “blog”.' },
  inspect: { signIn: { state: 'signed_in', account: 'alice' }, fields: [{ name: 'body', kind: 'textarea', length: 0, hash: 'v1:0' }] },
  act: { requestId: 'rq_1', steps: [{ step: 0, verified: true }], url: 'https://blog.example/write', done: 'On ‘Post’: clear body.' },
};

function tools(overrides: Partial<ToolHandlers> = {}): ToolHandlers & { calls: string[] } {
  const calls: string[] = [];
  const handler =
    <K extends keyof ToolResults>(name: K) =>
    async (_args: unknown, trace: { point(name: 'decide' | 'dispatch' | 'observe'): void }) => {
      calls.push(name);
      trace.point('decide');
      trace.point('dispatch');
      trace.point('observe');
      return success(RESULTS[name]);
    };
  return { calls, context: handler('context'), resolve: handler('resolve'), inspect: handler('inspect'), act: handler('act'), ...overrides };
}

function journal() {
  const saved: JournalRecord[] = [];
  return { saved, sink: { save: async (record: JournalRecord) => void saved.push(record) } };
}

describe('the request entry (lifecycle and journal)', () => {
  it('passes the five lifecycle points and answers after the record is saved', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: tools(), journal: sink });
    const envelope = await harness({ tool: 'resolve', args: { profile: 'p', workspace: 'w', debug: true }, callId: 'c1' }, 'agent');
    expect(envelope.ok).toBe(true);
    expect(envelope.meta).toMatchObject({
      tool: 'resolve',
      callId: 'c1',
      profile: 'p',
      journal: { saved: true, id: saved[0]?.id },
      tookMs: expect.any(Number),
    });
    expect(saved).toHaveLength(1);
    expect(Object.keys(saved[0]?.lifecycle ?? {})).toEqual(['prepare', 'decide', 'dispatch', 'observe', 'record']);
    expect(saved[0]).toMatchObject({ tool: 'resolve', via: 'agent', outcome: 'done', profileId: 'p', workspaceId: 'w' });
  });

  it('a refusal reaches no tool, changes nothing, and is recorded', async () => {
    const { saved, sink } = journal();
    const handlers = tools();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: handlers, journal: sink });
    const envelope = await harness({ tool: 'inspect', args: { profile: 'p' } }, 'agent');
    expect(envelope.ok).toBe(false);
    expect(!envelope.ok && envelope.error).toMatchObject({ code: 'missing_context', details: { missing: ['workspace', 'handle'] } });
    expect(handlers.calls).toEqual([]);
    expect(saved[0]).toMatchObject({ outcome: 'refused', error: { code: 'missing_context' } });
    expect(saved[0]?.lifecycle.decide).toBeUndefined();
  });

  it('if the record cannot be saved, the observation still goes out and the storage problem is reported', async () => {
    const harness = createHarness({
      ready: async () => undefined,
      context: fakeToolContext(),
      tools: tools(),
      journal: { save: async () => Promise.reject(new Error('QuotaExceededError')) },
    });
    const envelope = await harness({ tool: 'context', args: {} }, 'agent');
    expect(envelope.ok).toBe(true);
    expect(envelope.ok && envelope.result).toEqual(RESULTS.context);
    // Reported even though the request did not ask for diagnostics.
    expect(envelope.meta).toEqual({ journal: { saved: false, problem: expect.stringMatching(/^storage: .*QuotaExceededError/) } });
  });

  it('a tool that throws becomes an error value, journaled', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({
      ready: async () => undefined,
      context: fakeToolContext(),
      tools: tools({ context: async () => Promise.reject(new Error('boom')) }),
      journal: sink,
    });
    const envelope = await harness({ tool: 'context', args: {} }, 'ui');
    expect(!envelope.ok && envelope.error.details).toEqual({ internal: true });
    expect(saved[0]?.via).toBe('ui');
  });

  it('a refusal after steps ran is journaled as rolled back', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({
      ready: async () => undefined,
      context: fakeToolContext(),
      tools: tools({
        act: async (_args, trace) => {
          trace.rolledBack = true;
          return failure(tetherError('field_changed', 'changed while running'));
        },
      }),
      journal: sink,
    });
    await harness({ tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'clear', field: 'body' }] } } }, 'agent');
    expect(saved[0]?.outcome).toBe('rolled_back');
  });

  it('long texts are shortened in the journal', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: tools(), journal: sink });
    const text = 'x'.repeat(10_000);
    await harness({ tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'fill', field: 'body', text }] } } }, 'agent');
    expect(JSON.stringify(saved[0]?.request).length).toBeLessThan(3000);
  });
  it('without debug, an answer is the result alone: no meta, no times, no ids', async () => {
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: tools(), journal: journal().sink });
    expect(await harness({ tool: 'inspect', args: { profile: 'p', workspace: 'w', handle: 'h' }, callId: 'c1' }, 'agent')).toEqual({
      ok: true,
      result: RESULTS.inspect,
    });
    const refused = await harness({ tool: 'inspect', args: { profile: 'p' } }, 'agent');
    expect(Object.keys(refused)).toEqual(['ok', 'error']);
  });

  it.each([
    [{ lang: 'fr' }, /lang must be one of: "en", "ko"/],
    [{ lang: 'EN' }, /lang must be one of: "en", "ko"/],
    [{ debug: 'yes' }, /debug must be true or false/],
    [{ debug: 1 }, /debug must be true or false/],
  ])('bad answer options %j → invalid_request naming what is allowed; no tool runs', async (options, message) => {
    const handlers = tools();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: handlers, journal: journal().sink });
    const envelope = await harness({ tool: 'resolve', args: { profile: 'p', workspace: 'w', ...options } }, 'agent');
    expect(!envelope.ok && envelope.error.code).toBe('invalid_request');
    expect(!envelope.ok && envelope.error.message).toMatch(message);
    expect(handlers.calls).toEqual([]);
  });

  it('a tool that settles early has its record saving while it finishes; the answer still waits for the record', async () => {
    const order: string[] = [];
    let finishTool: () => void = () => undefined;
    let finishSave: () => void = () => undefined;
    const harness = createHarness({
      ready: async () => undefined,
      context: fakeToolContext(),
      tools: tools({
        act: async (_args, trace) => {
          const answer = trace.settle(success(RESULTS.act));
          await new Promise<void>((resolve) => (finishTool = resolve));
          order.push('tool done');
          return answer;
        },
      }),
      journal: {
        save: async (record) => {
          order.push(`saving ${record.outcome}`);
          await new Promise<void>((resolve) => (finishSave = resolve));
          order.push('saved');
        },
      },
    });
    const answering = harness(
      { tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'clear', field: 'body' }] } } },
      'agent',
    ).then((envelope) => {
      order.push('answered');
      return envelope;
    });
    await expect.poll(() => order).toEqual(['saving done']);
    finishTool();
    await expect.poll(() => order).toEqual(['saving done', 'tool done']);
    finishSave();
    expect((await answering).ok).toBe(true);
    expect(order).toEqual(['saving done', 'tool done', 'saved', 'answered']);
  });
});

describe('who asked: the agent of the envelope, never of the arguments', () => {
  const SESSION = '0123456789abcdef0123456789abcdef';

  it('the record names the MCP session’s agent (name and short id, not its key)', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: tools(), journal: sink });
    await harness({ tool: 'context', args: {}, agent: { name: 'Claude Code', session: SESSION } }, 'agent');
    expect(saved[0]?.agent).toEqual({ name: 'Claude Code', id: shortIdOf(SESSION) });
    expect(JSON.stringify(saved[0])).not.toContain(SESSION);
  });

  it('a name forged in the arguments is not taken: the request is refused as it stands, journaled under the session’s own name', async () => {
    const { saved, sink } = journal();
    const handlers = tools();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: handlers, journal: sink });
    const envelope = await harness({ tool: 'context', args: { agent: 'Mallory' }, agent: { name: 'Claude Code', session: SESSION } }, 'agent');
    expect(!envelope.ok && envelope.error.code).toBe('invalid_request');
    expect(handlers.calls).toEqual([]);
    expect(saved[0]?.agent?.name).toBe('Claude Code');
  });

  it('a second session whose key derives the same short id is shown with a longer one, in the record and to the tools', async () => {
    const keys = new Map<string, string>();
    let pair: [string, string] | null = null;
    for (let n = 0; pair === null; n += 1) {
      const key = n.toString(16).padStart(32, '0');
      const earlier = keys.get(shortIdOf(key));
      if (earlier !== undefined) pair = [earlier, key];
      else keys.set(shortIdOf(key), key);
    }
    const [victim, impostor] = pair;
    const { saved, sink } = journal();
    const handlers = tools();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: handlers, journal: sink });
    await harness({ tool: 'context', args: {}, agent: { name: 'Claude Code', session: victim } }, 'agent');
    await harness({ tool: 'context', args: {}, agent: { name: 'Claude Code', session: impostor } }, 'agent');
    await harness({ tool: 'context', args: {}, agent: { name: 'Claude Code', session: victim } }, 'agent');
    const ids = saved.map((record) => record.agent?.id);
    expect(ids[0]).toBe(shortIdOf(victim));
    expect(ids[2]).toBe(shortIdOf(victim));
    expect(ids[1]).not.toBe(shortIdOf(victim));
    expect(ids[1]?.startsWith(shortIdOf(impostor))).toBe(true);
  });

  it('a request without one (an older bridge) is the unnamed agent; one from Tether’s pages is “Tether page”', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools: tools(), journal: sink });
    await harness({ tool: 'context', args: {} }, 'agent');
    await harness({ tool: 'context', args: {} }, 'ui');
    expect(saved.map((record) => record.agent?.name)).toEqual([UNNAMED_AGENT.name, PAGE_AGENT.name]);
  });

  it('every request of a session renews its holds: a session that keeps asking keeps its tab', async () => {
    const context = fakeToolContext();
    const agent = { name: 'Claude Code', id: shortIdOf(SESSION), session: SESSION };
    context.session.setState({ holds: { '1': { id: 'hd_1', tabId: 1, workspaceId: 'w', agent, since: context.now, usedAt: context.now } } });
    const harness = createHarness({ ready: async () => undefined, context, tools: tools(), journal: journal().sink });
    for (let minute = 1; minute <= 15; minute += 1) {
      context.now += 60_000;
      await harness({ tool: 'context', args: {}, agent: { name: 'Claude Code', session: SESSION } }, 'agent');
    }
    expect(context.session.getState().holds['1']?.usedAt).toBeGreaterThan(context.now - 60_000);
    // Another session's requests renew nothing of it.
    context.now += 11 * 60_000;
    await harness({ tool: 'context', args: {}, agent: { name: 'Cursor', session: 'f'.repeat(32) } }, 'agent');
    expect(context.session.getState().holds['1']?.usedAt).toBeLessThan(context.now - 10 * 60_000);
  });
});
