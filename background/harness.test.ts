import { describe, expect, it } from 'vitest';
import { failure, success, tetherError } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/journalRecord.ts';
import { createHarness, type ToolHandlers } from './harness.ts';

function tools(overrides: Partial<ToolHandlers> = {}): ToolHandlers & { calls: string[] } {
  const calls: string[] = [];
  const handler = (name: string) => async (_args: unknown, trace: { point(name: 'decide' | 'dispatch' | 'observe'): void }) => {
    calls.push(name);
    trace.point('decide');
    trace.point('dispatch');
    trace.point('observe');
    return success({ from: name });
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
    const harness = createHarness({ ready: async () => undefined, tools: tools(), journal: sink });
    const envelope = await harness({ tool: 'resolve', args: { profile: 'p', workspace: 'w' }, callId: 'c1' }, 'agent');
    expect(envelope.ok).toBe(true);
    expect(envelope.meta).toMatchObject({ tool: 'resolve', callId: 'c1', profile: 'p', journal: { saved: true } });
    expect(saved).toHaveLength(1);
    expect(Object.keys(saved[0]?.lifecycle ?? {})).toEqual(['prepare', 'decide', 'dispatch', 'observe', 'record']);
    expect(saved[0]).toMatchObject({ tool: 'resolve', via: 'agent', outcome: 'done', profileId: 'p', workspaceId: 'w' });
  });

  it('a refusal reaches no tool, changes nothing, and is recorded', async () => {
    const { saved, sink } = journal();
    const handlers = tools();
    const harness = createHarness({ ready: async () => undefined, tools: handlers, journal: sink });
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
      tools: tools(),
      journal: { save: async () => Promise.reject(new Error('QuotaExceededError')) },
    });
    const envelope = await harness({ tool: 'context', args: {} }, 'agent');
    expect(envelope.ok).toBe(true);
    expect(envelope.ok && envelope.result).toEqual({ from: 'context' });
    expect(envelope.meta.journal).toEqual({ saved: false, problem: expect.stringMatching(/^storage: .*QuotaExceededError/) });
  });

  it('a tool that throws becomes an error value, journaled', async () => {
    const { saved, sink } = journal();
    const harness = createHarness({
      ready: async () => undefined,
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
    const harness = createHarness({ ready: async () => undefined, tools: tools(), journal: sink });
    const text = 'x'.repeat(10_000);
    await harness({ tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'fill', field: 'body', text }] } } }, 'agent');
    expect(JSON.stringify(saved[0]?.request).length).toBeLessThan(3000);
  });
});
