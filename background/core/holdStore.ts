/**
 * The holds table as the tools use it: the rules of tabHolds.ts over the session store (the
 * table), local state (scheduled acts, which hold their targets) and the running acts (whose tabs
 * are in use). Every decision reads the table and writes its change in one synchronous step — the
 * stores change in memory at once and are written to storage after — so two requests racing in
 * this worker cannot both take a tab. The table is in storage.session: a restarted worker finds it.
 */
import { newId } from '../../shared/ids.ts';
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { LocalState, SessionState } from '../state/store.ts';
import type { StateAccess } from './contracts.ts';
import type { TabReservations } from './tabReservations.ts';
import {
  afterAct,
  checkWrite,
  claimHold,
  endSessions,
  prunedHolds,
  releaseHold,
  renewHolds,
  RENEW_STORED_EVERY_MS,
  type ClaimOutcome,
  type Hold,
  type HoldInput,
  type HoldTable,
  type ReleaseOutcome,
  type ScheduledHold,
  type WriteCheck,
} from './tabHolds.ts';

export interface HoldDeps {
  session: StateAccess<SessionState>;
  local: StateAccess<LocalState>;
  reservations: TabReservations;
  clock(): number;
}

/** Scheduled acts as holds: each holds its target until it fires. */
export function scheduledHolds(local: LocalState): ScheduledHold[] {
  return Object.values(local.scheduled).map((scheduled) => ({
    tabId: scheduled.binding.tabId,
    ...(scheduled.agent ? { agent: scheduled.agent } : {}),
    since: scheduled.createdAt,
    dueAt: scheduled.dueAt,
    task: local.programs[scheduled.programId]?.label ?? 'scheduled act',
  }));
}

export function holdInput(deps: HoldDeps): HoldInput {
  return {
    holds: deps.session.getState().holds,
    scheduled: scheduledHolds(deps.local.getState()),
    busyTabIds: deps.reservations.reserved(),
    now: deps.clock(),
  };
}

/** Writes a changed table (nothing when the rule returned the table it was given). */
async function store(deps: HoldDeps, before: HoldTable, after: HoldTable): Promise<void> {
  if (after !== before) await deps.session.setState({ holds: after });
}

export async function claimTab(deps: HoldDeps, claim: { tabId: number; workspaceId: string; agent: AgentSession; task?: string }): Promise<ClaimOutcome> {
  const input = holdInput(deps);
  const outcome = claimHold(input, { ...claim, newId: () => newId('hd', 9) });
  if (outcome.ok) await store(deps, input.holds, outcome.holds);
  return outcome;
}

export function mayWrite(deps: HoldDeps, write: { tabId: number; session: string; holdId?: string }): WriteCheck {
  return checkWrite(holdInput(deps), write);
}

/**
 * When each session's holds were last looked at for renewal, per session store (this worker's
 * memory only: a new worker looks at once). A renewal is stored at most every RENEW_STORED_EVERY_MS,
 * so within half of that nothing can need it, and a busy session's request costs no pass over the table.
 */
const lastRenewal = new WeakMap<object, Map<string, number>>();
const MAX_REMEMBERED_SESSIONS = 256;

/** A request of `session` arrived: its holds are in use. */
export async function renewSession(deps: HoldDeps, session: string): Promise<void> {
  const now = deps.clock();
  const seen = lastRenewal.get(deps.session) ?? new Map<string, number>();
  lastRenewal.set(deps.session, seen);
  const last = seen.get(session);
  if (last !== undefined && last <= now && now - last < RENEW_STORED_EVERY_MS / 2) return;
  seen.delete(session);
  seen.set(session, now);
  if (seen.size > MAX_REMEMBERED_SESSIONS) seen.delete(seen.keys().next().value ?? '');
  const before = deps.session.getState().holds;
  await store(deps, before, renewHolds(before, session, now));
}

/** `session` null: the person, releasing whoever holds it. */
export async function releaseTab(deps: HoldDeps, tabId: number, session: string | null): Promise<ReleaseOutcome> {
  const input = holdInput(deps);
  const outcome = releaseHold(input, tabId, session);
  if (outcome.ok) await store(deps, input.holds, prunedHolds({ ...input, holds: outcome.holds }));
  return outcome;
}

export async function sessionsEnded(deps: HoldDeps, sessions: readonly string[]): Promise<void> {
  const before = deps.session.getState().holds;
  await store(deps, before, endSessions(before, sessions, deps.reservations.reserved()));
}

/** An act's outcome is kept: the hold of a session that ended meanwhile goes now. */
export async function actFinished(deps: HoldDeps, tabId: number, session: string): Promise<void> {
  const before = deps.session.getState().holds;
  await store(deps, before, afterAct(before, tabId, session, deps.clock()));
}

/** Holds on tabs no longer shared with agents (a tab removed from its workspace, a workspace unshared or deleted): dropped. */
export async function dropHolds(deps: Pick<HoldDeps, 'session'>, match: (hold: Hold) => boolean): Promise<void> {
  const before = deps.session.getState().holds;
  if (!Object.values(before).some(match)) return;
  await deps.session.setState({ holds: Object.fromEntries(Object.entries(before).filter(([, hold]) => !match(hold))) });
}
