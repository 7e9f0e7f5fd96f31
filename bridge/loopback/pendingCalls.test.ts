import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { PendingCalls } from './pendingCalls.ts';

const answer = (text: string): Envelope => ({ ok: true, result: { text }, meta: { tool: 'context' } });
const timedOut = (): Envelope => ({ ok: false, error: { code: 'timeout', message: 'late' }, meta: { tool: 'context' } });

describe('PendingCalls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('each call gets its own id and exactly one answer', async () => {
    const calls = new PendingCalls<string>('r');
    const first = calls.open('alice', 1000, timedOut);
    const second = calls.open('bob', 1000, timedOut);
    expect(first.id).not.toBe(second.id);
    expect(calls.settle(second.id, () => answer('b'))).toBe(true);
    expect(calls.settle(second.id, () => answer('again'))).toBe(false);
    expect(calls.settle(first.id, () => answer('a'))).toBe(true);
    expect(await first.answer).toEqual(answer('a'));
    expect(await second.answer).toEqual(answer('b'));
    expect(calls.size).toBe(0);
  });

  it('a call with no answer in time gets the timeout answer, and a late answer is dropped', async () => {
    const calls = new PendingCalls<string>('r');
    const call = calls.open('alice', 1000, timedOut);
    vi.advanceTimersByTime(1000);
    expect(await call.answer).toEqual(timedOut());
    expect(calls.settle(call.id, () => answer('late'))).toBe(false);
  });

  it('only the sender a call went to may answer it; unknown ids change nothing', async () => {
    const calls = new PendingCalls<{ peer: string }>('r');
    const call = calls.open({ peer: 'alice' }, 1000, timedOut);
    expect(
      calls.settle(
        call.id,
        () => answer('from bob'),
        (tag) => tag.peer === 'bob',
      ),
    ).toBe(false);
    expect(calls.settle('r999', () => answer('x'))).toBe(false);
    expect(
      calls.settle(
        call.id,
        () => answer('from alice'),
        (tag) => tag.peer === 'alice',
      ),
    ).toBe(true);
    expect(await call.answer).toEqual(answer('from alice'));
  });

  it('settleAll ends the calls of one connection, with an answer built from each call', async () => {
    const calls = new PendingCalls<{ peer: string; tool: string }>('a');
    const a = calls.open({ peer: 'alice', tool: 'inspect' }, 1000, timedOut);
    const b = calls.open({ peer: 'bob', tool: 'act' }, 1000, timedOut);
    expect(
      calls.settleAll(
        (tag) => tag.peer === 'alice',
        (tag) => answer(`gone during ${tag.tool}`),
      ),
    ).toBe(1);
    expect(await a.answer).toEqual(answer('gone during inspect'));
    expect(calls.size).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(await b.answer).toEqual(timedOut());
  });
});
