import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { QuestionRequest } from '../../shared/model/question.ts';
import type { SessionState } from '../state/store.ts';
import { createQuestions } from './questions.ts';

function setup() {
  const session = createStore<SessionState>()(() => ({ approvals: {}, seen: {}, departures: {}, holds: {}, questions: {}, agentIds: {} }));
  let now = 1_000;
  const changed = vi.fn(async () => undefined);
  const questions = createQuestions({ session, changed, keepAlive: () => undefined, clock: () => now });
  const pending = () => Object.values(session.getState().questions).filter((question) => question.decision === 'pending');
  return { session, questions, pending, changed, advance: (ms: number) => (now += ms) };
}

const cafe = (agent: string): QuestionRequest => ({
  agent: { name: agent, id: agent.slice(0, 4) },
  workspaceId: 'ws',
  role: 'reference',
  named: 'cafe',
  candidates: [
    { tabId: 4, site: 'cafe.example', title: 'Notes A', account: 'alice' },
    { tabId: 5, site: 'cafe.example', title: 'Notes B', account: null },
  ],
});

describe('questions for the person', () => {
  it('is kept while it waits (the panel and the badge see it), and gone once answered', async () => {
    const { questions, pending, changed } = setup();
    const asked = questions.ask(cafe('Claude Code'), 60_000);
    await vi.waitFor(() => expect(pending()).toHaveLength(1));
    expect(changed).toHaveBeenCalled();
    const [question] = pending();
    expect(question).toMatchObject({ named: 'cafe', role: 'reference', agent: { name: 'Claude Code' }, expiresAt: 61_000 });
    expect(await questions.answer(question?.id ?? '', 5)).toBe(true);
    expect(await asked).toEqual({ kind: 'picked', tabId: 5 });
    expect(pending()).toHaveLength(0);
  });

  it.each<[string, number | null, unknown]>([
    ['a candidate → picked', 4, { kind: 'picked', tabId: 4 }],
    ['none → declined', null, { kind: 'declined' }],
  ])('%s', async (_what, tabId, expected) => {
    const { questions, pending } = setup();
    const asked = questions.ask(cafe('Claude Code'), 60_000);
    await vi.waitFor(() => expect(pending()).toHaveLength(1));
    expect(await questions.answer(pending()[0]?.id ?? '', tabId)).toBe(true);
    expect(await asked).toEqual(expected);
  });

  it('a tab that is not one of its candidates is not an answer; the question goes on waiting', async () => {
    const { questions, pending } = setup();
    void questions.ask(cafe('Claude Code'), 60_000);
    await vi.waitFor(() => expect(pending()).toHaveLength(1));
    expect(await questions.answer(pending()[0]?.id ?? '', 99)).toBe(false);
    expect(pending()).toHaveLength(1);
  });

  it('nobody answers in time → timeout; answering afterwards changes nothing', async () => {
    vi.useFakeTimers();
    try {
      const { questions, session, advance } = setup();
      const asked = questions.ask(cafe('Claude Code'), 1_000);
      await vi.advanceTimersByTimeAsync(0);
      const id = Object.keys(session.getState().questions)[0] ?? '';
      advance(1_000);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await asked).toEqual({ kind: 'timeout' });
      expect(await questions.answer(id, 4)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('two agents asking at once: each answer reaches only the request that asked it', async () => {
    const { questions, pending } = setup();
    const first = questions.ask(cafe('Claude Code'), 60_000);
    const second = questions.ask(cafe('Cursor'), 60_000);
    await vi.waitFor(() => expect(pending()).toHaveLength(2));
    const byAgent = (name: string) => pending().find((question) => question.agent.name === name)?.id ?? '';
    let secondAnswered = false;
    void second.then(() => (secondAnswered = true));
    expect(await questions.answer(byAgent('Claude Code'), 4)).toBe(true);
    expect(await first).toEqual({ kind: 'picked', tabId: 4 });
    expect(secondAnswered).toBe(false);
    expect(pending().map((question) => question.agent.name)).toEqual(['Cursor']);
    expect(await questions.answer(byAgent('Cursor'), null)).toBe(true);
    expect(await second).toEqual({ kind: 'declined' });
  });

  it('a question a stopped worker left (nobody waits for it) cannot be answered', async () => {
    const { questions, session } = setup();
    session.setState({ questions: { qu_old: { ...cafe('Old'), id: 'qu_old', createdAt: 0, expiresAt: 999_999, decision: 'pending' } } });
    expect(await questions.answer('qu_old', 4)).toBe(false);
  });
});
