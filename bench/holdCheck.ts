/**
 * The hold check's cost per request (background/core/tabHolds.ts through holdStore.ts), as the
 * worker does it: every request renews its session's holds; a resolve asks who else holds its write
 * target and then takes (here: keeps) the hold; an act checks twice that it may write (at
 * validation and right before the page) and notes the act's end. Over a table of 1 to 1,000 held
 * tabs and five scheduled acts, in-memory stores as the worker's (zustand's getState/setState),
 * CPU time per request in Node's V8 — the worker's engine. The bench prints it next to the page
 * round trip measured in the same run.
 */
import { claimTab, mayWrite, renewSession, actFinished, holdInput, type HoldDeps } from '../background/core/holdStore.ts';
import { otherHolder, renewHolds, type Hold, type HoldTable } from '../background/core/tabHolds.ts';
import { createTabReservations } from '../background/core/tabReservations.ts';
import type { LocalState, SessionState, ScheduledAct } from '../background/state/store.ts';
import type { AgentSession } from '../shared/agent/agentIdentity.ts';
import { binding, tab } from '../shared/testing/fixtures.ts';
import { perCallMicros } from './resolverScale.ts';

export interface HoldCheckRow {
  holds: number;
  /** Per resolve: renew, who else holds the target, keep the hold. */
  resolveUs: number;
  /** Per act: renew, may it write (twice), the act's end noted. */
  actUs: number;
  /** The pass over the table that looks for holds to renew, made once per 15 s per session (the requests between skip it). */
  renewPassUs: number;
}

const NOW = 1_700_000_000_000;

function store<T extends object>(state: T) {
  let current = state;
  return {
    getState: () => current,
    setState: (change: Partial<T> | ((value: T) => Partial<T>)) => {
      current = { ...current, ...(typeof change === 'function' ? change(current) : change) };
    },
  };
}

function depsFor(count: number): { deps: HoldDeps; agent: AgentSession; holdId: string; tabId: number } {
  const agent: AgentSession = { name: 'Claude Code', id: 'a3f2', session: 'a'.repeat(32) };
  const holds: HoldTable = {};
  for (let index = 0; index < count; index += 1) {
    const holder: AgentSession = index === 0 ? agent : { name: `Agent ${index}`, id: String(index), session: `${index}`.padStart(32, '0') };
    const hold: Hold = { id: `hd_${index}`, tabId: index, workspaceId: 'ws_test', agent: holder, since: NOW - 60_000, usedAt: NOW - 1_000 };
    holds[String(index)] = hold;
  }
  const scheduled: Record<string, ScheduledAct> = {};
  for (let index = 0; index < 5; index += 1) {
    const target = binding(tab(10_000 + index, `https://blog.example/later/${index}`));
    scheduled[`sa_${index}`] = {
      id: `sa_${index}`,
      requestId: `rq_${index}`,
      programId: `pg_${index}`,
      workspaceId: 'ws_test',
      binding: target,
      plan: { steps: [{ op: 'click', action: 'publish' }] },
      inspected: {},
      dueAt: NOW + 3_600_000,
      createdAt: NOW - 10_000,
    };
  }
  const local = store<LocalState>({ profile: null, workspaces: {}, programs: {}, scheduled, connection: { token: null, port: 17345 } });
  const session = store<SessionState>({ approvals: {}, seen: {}, departures: {}, holds, questions: {}, agentIds: {} });
  return { deps: { local, session, reservations: createTabReservations(), clock: () => NOW }, agent, holdId: 'hd_0', tabId: 0 };
}

export async function measureHoldCheck(counts = [1, 10, 100, 1000]): Promise<HoldCheckRow[]> {
  const rows: HoldCheckRow[] = [];
  for (const count of counts) {
    const { deps, agent, holdId, tabId } = depsFor(count);
    // The same work as the worker's, minus the awaits (nothing here waits: the table changes in memory).
    const resolve = () => {
      void renewSession(deps, agent.session);
      if (otherHolder(holdInput(deps), tabId, agent.session)) throw new Error('bench setup: held by another');
      void claimTab(deps, { tabId, workspaceId: 'ws_test', agent });
    };
    const act = () => {
      void renewSession(deps, agent.session);
      if (!mayWrite(deps, { tabId, session: agent.session, holdId }).ok) throw new Error('bench setup: may not write');
      void mayWrite(deps, { tabId, session: agent.session, holdId });
      void actFinished(deps, tabId, agent.session);
    };
    resolve();
    act();
    const table = deps.session.getState().holds;
    rows.push({
      holds: count,
      resolveUs: perCallMicros(resolve),
      actUs: perCallMicros(act),
      renewPassUs: perCallMicros(() => void renewHolds(table, agent.session, NOW)),
    });
    await Promise.resolve();
  }
  return rows;
}
