import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import {
  afterAct,
  busyError,
  checkWrite,
  claimHold,
  endSessions,
  HOLD_IDLE_MS,
  liveHold,
  prunedHolds,
  releaseHold,
  RENEW_STORED_EVERY_MS,
  renewHolds,
  type Hold,
  type HoldInput,
  type HoldTable,
  type ScheduledHold,
} from './tabHolds.ts';

const NOW = 1_700_000_000_000;
const A: AgentSession = { name: 'Claude Code', id: 'a1a1', session: 'sa' };
const B: AgentSession = { name: 'Cursor', id: 'b2b2', session: 'sb' };

function hold(tabId: number, agent: AgentSession, extra: Partial<Hold> = {}): Hold {
  return { id: `hd_${tabId}_${agent.id}`, tabId, workspaceId: 'ws', agent, since: NOW - 60_000, usedAt: NOW - 1_000, ...extra };
}

function table(...holds: Hold[]): HoldTable {
  return Object.fromEntries(holds.map((item) => [String(item.tabId), item]));
}

function input(holds: HoldTable, extra: Partial<HoldInput> = {}): HoldInput {
  return { holds, scheduled: [], busyTabIds: [], now: NOW, ...extra };
}

const scheduledBy = (agent: AgentSession | undefined, tabId = 1): ScheduledHold => ({
  tabId,
  ...(agent ? { agent } : {}),
  since: NOW - 5_000,
  dueAt: NOW + 3_600_000,
  task: 'scheduled 09:00',
});

let ids = 0;
const newId = () => `hd_new_${(ids += 1)}`;

describe('claimHold: a resolve that chose a write target', () => {
  it.each<[string, HoldInput, AgentSession, 'taken' | 'kept' | 'busy']>([
    ['a free tab → taken by the agent', input({}), A, 'taken'],
    ['its own live hold → kept (same hold)', input(table(hold(1, A))), A, 'kept'],
    ['another agent’s live hold → busy', input(table(hold(1, B))), A, 'busy'],
    ['another agent’s hold idle past the limit → taken', input(table(hold(1, B, { usedAt: NOW - HOLD_IDLE_MS }))), A, 'taken'],
    [
      'another agent’s idle hold with its act still running → busy',
      input(table(hold(1, B, { usedAt: NOW - HOLD_IDLE_MS - 1 })), { busyTabIds: [1] }),
      A,
      'busy',
    ],
    ['another agent’s scheduled act on the tab → busy', input({}, { scheduled: [scheduledBy(B)] }), A, 'busy'],
    ['its own scheduled act on the tab → taken', input({}, { scheduled: [scheduledBy(A)] }), A, 'taken'],
    ['a scheduled act stored before agents had names → busy for everyone', input({}, { scheduled: [scheduledBy(undefined)] }), A, 'busy'],
    ['another agent holds another tab → taken', input(table(hold(2, B))), A, 'taken'],
  ])('%s', (_what, given, agent, expected) => {
    const outcome = claimHold(given, { tabId: 1, workspaceId: 'ws', agent, newId });
    if (expected === 'busy') {
      expect(outcome.ok).toBe(false);
      return;
    }
    if (!outcome.ok) throw new Error('expected a hold');
    expect(outcome.hold.agent).toEqual(agent);
    expect(outcome.holds['1']).toEqual(outcome.hold);
    if (expected === 'kept') {
      expect(outcome.hold.id).toBe(given.holds['1']?.id);
      expect(outcome.hold.since).toBe(given.holds['1']?.since);
    } else expect(outcome.hold.since).toBe(NOW);
  });

  it('says who holds it, since when and for what task', () => {
    const outcome = claimHold(input(table(hold(1, B, { task: 'weekly notes' }))), { tabId: 1, workspaceId: 'ws', agent: A, newId });
    expect(outcome).toEqual({ ok: false, heldBy: { agent: { name: 'Cursor', id: 'b2b2' }, session: 'sb', since: NOW - 60_000, task: 'weekly notes' } });
    if (outcome.ok) return;
    expect(busyError(outcome.heldBy, 1)).toEqual({
      code: 'target_busy',
      message: expect.stringContaining('Cursor (b2b2) holds this tab for “weekly notes” since') as string,
      details: { tabId: 1, heldBy: { agent: 'Cursor (b2b2)', since: new Date(NOW - 60_000).toISOString(), task: 'weekly notes' } },
    });
  });

  it('keeping a fresh hold writes nothing (the same table comes back)', () => {
    const holds = table(hold(1, A));
    const outcome = claimHold(input(holds), { tabId: 1, workspaceId: 'ws', agent: A, newId });
    expect(outcome.ok && outcome.holds).toBe(holds);
  });

  it('keeping an old one renews it; an ended session resolving again is no longer ending', () => {
    const outcome = claimHold(input(table(hold(1, A, { usedAt: NOW - RENEW_STORED_EVERY_MS, ending: true }))), {
      tabId: 1,
      workspaceId: 'ws',
      agent: A,
      newId,
    });
    expect(outcome.ok && outcome.hold).toEqual({ ...hold(1, A), usedAt: NOW });
  });

  it('a new hold drops the expired ones', () => {
    const outcome = claimHold(input(table(hold(2, B, { usedAt: NOW - HOLD_IDLE_MS }))), { tabId: 1, workspaceId: 'ws', agent: A, newId });
    expect(outcome.ok && Object.keys(outcome.holds)).toEqual(['1']);
  });
});

describe('checkWrite: an act through a handle minted under a hold', () => {
  const mine = hold(1, A);
  it.each<[string, HoldInput, { session: string; holdId?: string }, string]>([
    ['under its live hold → may write', input(table(mine)), { session: 'sa', holdId: mine.id }, 'ok'],
    ['the hold was released (nobody holds it) → lost', input({}), { session: 'sa', holdId: mine.id }, 'lost'],
    ['the hold expired → lost', input(table({ ...mine, usedAt: NOW - HOLD_IDLE_MS })), { session: 'sa', holdId: mine.id }, 'lost'],
    [
      'a later hold of the same agent → lost (the handle is from before)',
      input(table({ ...mine, id: 'hd_later' })),
      { session: 'sa', holdId: mine.id },
      'lost',
    ],
    ['another agent holds it now → held', input(table(hold(1, B))), { session: 'sa', holdId: mine.id }, 'held'],
    ['another agent’s handle naming this hold id → held (the id is not a key)', input(table(mine)), { session: 'sb', holdId: mine.id }, 'held'],
    ['another agent’s scheduled act → held', input(table(mine), { scheduled: [scheduledBy(B)] }), { session: 'sa', holdId: mine.id }, 'held'],
    ['a scheduled act firing, nobody else holds it → may write', input({}), { session: 'sa' }, 'ok'],
    ['a scheduled act firing, its own agent holds it → may write', input(table(mine)), { session: 'sa' }, 'ok'],
    ['a scheduled act firing, another agent holds it → held', input(table(hold(1, B))), { session: 'sa' }, 'held'],
  ])('%s', (_what, given, write, expected) => {
    const check = checkWrite(given, { tabId: 1, ...write });
    expect(check.ok ? 'ok' : check.reason).toBe(expected);
  });
});

describe('the lease', () => {
  it('every request of the session renews its holds, stored at most every 30 s; others are untouched', () => {
    const holds = table(hold(1, A, { usedAt: NOW - RENEW_STORED_EVERY_MS }), hold(2, A), hold(3, B, { usedAt: NOW - RENEW_STORED_EVERY_MS }));
    const renewed = renewHolds(holds, 'sa', NOW);
    expect(renewed['1']?.usedAt).toBe(NOW);
    expect(renewed['2']).toBe(holds['2']);
    expect(renewed['3']).toBe(holds['3']);
    expect(renewHolds(renewed, 'sa', NOW)).toBe(renewed);
  });

  it('an expired hold is not brought back by a late request', () => {
    const holds = table(hold(1, A, { usedAt: NOW - HOLD_IDLE_MS }));
    expect(renewHolds(holds, 'sa', NOW)).toBe(holds);
    expect(liveHold(input(holds), 1)).toBeNull();
  });

  it('pruning drops what expired, keeps what is live or in use', () => {
    const holds = table(hold(1, A, { usedAt: NOW - HOLD_IDLE_MS }), hold(2, B), hold(3, A, { usedAt: NOW - HOLD_IDLE_MS }));
    expect(Object.keys(prunedHolds({ holds, now: NOW, busyTabIds: [3] }))).toEqual(['2', '3']);
    const fresh = table(hold(2, B));
    expect(prunedHolds({ holds: fresh, now: NOW, busyTabIds: [] })).toBe(fresh);
  });
});

describe('releaseHold', () => {
  it.each<[string, HoldInput, string | null, 'released' | string | null]>([
    ['the holder releases its own', input(table(hold(1, A))), 'sa', 'released'],
    ['the person releases anyone’s', input(table(hold(1, B))), null, 'released'],
    ['another agent cannot: told who holds it', input(table(hold(1, B))), 'sa', 'Cursor'],
    ['nobody holds it: told none', input({}), 'sa', null],
    ['an expired hold is none', input(table(hold(1, A, { usedAt: NOW - HOLD_IDLE_MS }))), 'sa', null],
    ['a scheduled act’s hold is not released this way: told whose', input({}, { scheduled: [scheduledBy(B)] }), 'sb', 'Cursor'],
  ])('%s', (_what, given, session, expected) => {
    const outcome = releaseHold(given, 1, session);
    if (expected === 'released') {
      expect(outcome.ok && outcome.holds).toEqual({});
      return;
    }
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.heldBy?.agent.name ?? null).toBe(expected);
  });
});

describe('a session that ends', () => {
  it('lets go of its holds at once, except where its act runs: that one ends once the act is recorded', () => {
    const holds = table(hold(1, A), hold(2, A), hold(3, B));
    const ended = endSessions(holds, ['sa'], [2]);
    expect(Object.keys(ended)).toEqual(['2', '3']);
    expect(ended['2']?.ending).toBe(true);
    expect(ended['3']).toBe(holds['3']);
    expect(afterAct(ended, 2, 'sa', NOW)).toEqual({ '3': holds['3'] });
  });

  it('a session that goes on keeps its hold after its act (renewed if the act outlasted the idle time)', () => {
    const holds = table(hold(1, A, { usedAt: NOW - HOLD_IDLE_MS - 5 }));
    expect(afterAct(holds, 1, 'sa', NOW)['1']?.usedAt).toBe(NOW);
    const fresh = table(hold(1, A));
    expect(afterAct(fresh, 1, 'sa', NOW)).toBe(fresh);
    expect(afterAct(fresh, 1, 'sb', NOW)).toBe(fresh);
  });

  it('an end of sessions that hold nothing changes nothing', () => {
    const holds = table(hold(1, A));
    expect(endSessions(holds, ['sb'], [])).toBe(holds);
  });
});
