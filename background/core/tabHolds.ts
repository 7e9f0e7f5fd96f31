/**
 * Holds: a write target belongs to one agent's task. The per-act reservation (tabReservations.ts)
 * keeps two acts from interleaving on a page for the length of one act; a hold keeps two agents'
 * tasks from interleaving on it for the length of a task — one agent's title over another's body.
 *
 * - Resolving a write target makes the agent's session its holder. The same session resolving it
 *   again keeps the hold (and its start); another session's resolve or act is `target_busy`.
 * - It is a lease: every request of the session renews it; it ends when the session says `release`,
 *   when the session ends (its bridge went away: see the channel), when the person releases it in
 *   the panel, or after HOLD_IDLE_MS without a request from the session. A tab with an act running
 *   is in use whatever the clock says (an act may wait minutes for the person's approval).
 * - A session that ends while its act runs keeps the hold until that act's outcome is kept.
 * - A scheduled act holds its target from scheduling until it fires: derived from the scheduled
 *   act itself (local state), so it needs no renewal and outlives the session that scheduled it.
 * - A write handle is minted under one hold and writes only under it: once that hold is gone, the
 *   handle's next act is refused (`context_changed`, changed: ["holder"]), or `target_busy` if
 *   another agent holds the tab now. References stay readable by everyone.
 *
 * Pure functions over plain data: the worker keeps the table in the session store (it survives a
 * worker restart, not a browser restart, like handles), and decides with it synchronously, so two
 * resolves racing in one worker cannot both take a tab.
 */
import { agentWords, type AgentLabel, type AgentSession } from '../../shared/agent/agentIdentity.ts';
import { tetherError, type TetherError } from '../../shared/errors.ts';

export const HOLD_IDLE_MS = 10 * 60 * 1000;
/** A renewal is stored at most this often: the lease is minutes long, a request comes every few milliseconds. */
export const RENEW_STORED_EVERY_MS = 30_000;

export interface Hold {
  /** Handles minted under this hold carry it. */
  id: string;
  tabId: number;
  workspaceId: string;
  agent: AgentSession;
  since: number;
  /** The session's last request (stored at most every RENEW_STORED_EVERY_MS). */
  usedAt: number;
  /** The program it was taken for, if the request named one. */
  task?: string;
  /** The session ended while an act ran here: released once that act's outcome is kept. */
  ending?: true;
}

/** Holds by tab id (as text: a storage key). */
export type HoldTable = Record<string, Hold>;

/** What holds a tab, as another agent and the person are told. */
export interface Holder {
  agent: AgentLabel;
  session: string;
  since: number;
  task?: string;
  /** A scheduled act's hold: when it fires. */
  until?: number;
}

/** A scheduled act as a hold: its agent (if it had one), when it was scheduled, its program. */
export interface ScheduledHold {
  tabId: number;
  agent?: AgentSession;
  since: number;
  dueAt: number;
  task: string;
}

export interface HoldInput {
  holds: HoldTable;
  scheduled: readonly ScheduledHold[];
  /** Tabs with an act running now: their holds are in use. */
  busyTabIds: readonly number[];
  now: number;
}

export function isLive(hold: Hold, now: number, busyTabIds: readonly number[]): boolean {
  return hold.usedAt + HOLD_IDLE_MS > now || busyTabIds.includes(hold.tabId);
}

/** The live hold on a tab, if any (an expired one is as good as none). */
export function liveHold(input: Pick<HoldInput, 'holds' | 'now' | 'busyTabIds'>, tabId: number): Hold | null {
  const hold = input.holds[String(tabId)];
  return hold && isLive(hold, input.now, input.busyTabIds) ? hold : null;
}

const fromHold = (hold: Hold): Holder => ({
  agent: { name: hold.agent.name, id: hold.agent.id },
  session: hold.agent.session,
  since: hold.since,
  ...(hold.task !== undefined ? { task: hold.task } : {}),
});

const fromScheduled = (scheduled: ScheduledHold): Holder => ({
  agent: scheduled.agent ? { name: scheduled.agent.name, id: scheduled.agent.id } : { name: 'a scheduled act', id: 'at' },
  session: scheduled.agent?.session ?? '',
  since: scheduled.since,
  task: scheduled.task,
  until: scheduled.dueAt,
});

/** Everyone who holds a tab now other than `session`: a live hold, then scheduled acts. */
export function otherHolder(input: HoldInput, tabId: number, session: string): Holder | null {
  const hold = liveHold(input, tabId);
  if (hold && hold.agent.session !== session) return fromHold(hold);
  const scheduled = input.scheduled.find((item) => item.tabId === tabId && item.agent?.session !== session);
  return scheduled ? fromScheduled(scheduled) : null;
}

export type ClaimOutcome = { ok: true; holds: HoldTable; hold: Hold; renewed: boolean } | { ok: false; heldBy: Holder };

/**
 * A resolve that chose `tabId` as its write target: the session takes the hold, keeps its own, or
 * hears who holds it. The table comes back unchanged (the same object) when nothing needs storing.
 */
export function claimHold(
  input: HoldInput,
  claim: { tabId: number; workspaceId: string; agent: AgentSession; task?: string; newId: () => string },
): ClaimOutcome {
  const heldBy = otherHolder(input, claim.tabId, claim.agent.session);
  if (heldBy) return { ok: false, heldBy };
  const key = String(claim.tabId);
  const mine = liveHold(input, claim.tabId);
  if (mine && mine.workspaceId === claim.workspaceId) {
    const task = claim.task ?? mine.task;
    if (mine.usedAt + RENEW_STORED_EVERY_MS > input.now && task === mine.task && mine.ending === undefined)
      return { ok: true, holds: input.holds, hold: mine, renewed: true };
    const { ending: _ending, ...kept } = mine;
    const hold: Hold = { ...kept, usedAt: input.now, ...(task !== undefined ? { task } : {}) };
    return { ok: true, holds: { ...input.holds, [key]: hold }, hold, renewed: true };
  }
  const hold: Hold = {
    id: claim.newId(),
    tabId: claim.tabId,
    workspaceId: claim.workspaceId,
    agent: claim.agent,
    since: input.now,
    usedAt: input.now,
    ...(claim.task !== undefined ? { task: claim.task } : {}),
  };
  return { ok: true, holds: { ...prunedHolds(input), [key]: hold }, hold, renewed: false };
}

export type WriteCheck = { ok: true } | { ok: false; reason: 'held'; heldBy: Holder } | { ok: false; reason: 'lost' };

/**
 * May this session write this tab now, with a handle minted under `holdId`? Only under that very
 * hold, still live; a scheduled act of another session holds the tab too. (`holdId` absent: a
 * scheduled act firing, which holds the tab itself — only another session's live hold stands in its way.)
 */
export function checkWrite(input: HoldInput, write: { tabId: number; session: string; holdId?: string }): WriteCheck {
  if (write.holdId === undefined) {
    const hold = liveHold(input, write.tabId);
    return hold && hold.agent.session !== write.session ? { ok: false, reason: 'held', heldBy: fromHold(hold) } : { ok: true };
  }
  const heldBy = otherHolder(input, write.tabId, write.session);
  const hold = liveHold(input, write.tabId);
  if (hold && hold.id === write.holdId && hold.agent.session === write.session && !heldBy) return { ok: true };
  return heldBy ? { ok: false, reason: 'held', heldBy } : { ok: false, reason: 'lost' };
}

/** Every request of a session renews its holds (stored only when the stored time is getting old). */
export function renewHolds(holds: HoldTable, session: string, now: number): HoldTable {
  let changed: HoldTable | null = null;
  // Every request runs this: one pass, no copies unless something is stored.
  for (const key in holds) {
    const hold = holds[key];
    if (hold === undefined || hold.agent.session !== session || hold.ending !== undefined || hold.usedAt + RENEW_STORED_EVERY_MS > now) continue;
    // Renewing an expired hold would bring it back after another agent might have been told the tab is free.
    if (hold.usedAt + HOLD_IDLE_MS <= now) continue;
    changed ??= { ...holds };
    changed[key] = { ...hold, usedAt: now };
  }
  return changed ?? holds;
}

export type ReleaseOutcome = { ok: true; holds: HoldTable; released: Hold } | { ok: false; heldBy: Holder | null };

/**
 * `release` by a session (only its own hold), or by the person (`session: null`: whoever holds it).
 * A scheduled act's hold is not released this way: the person ends the scheduled act.
 */
export function releaseHold(input: HoldInput, tabId: number, session: string | null): ReleaseOutcome {
  const hold = liveHold(input, tabId);
  if (hold && session !== null && hold.agent.session !== session) return { ok: false, heldBy: fromHold(hold) };
  if (!hold) {
    const scheduled = input.scheduled.find((item) => item.tabId === tabId);
    return { ok: false, heldBy: scheduled ? fromScheduled(scheduled) : null };
  }
  const { [String(tabId)]: _released, ...rest } = input.holds;
  return { ok: true, holds: rest, released: hold };
}

/** Sessions that ended: their holds go now, except where their act is running (kept until it is recorded). */
export function endSessions(holds: HoldTable, sessions: readonly string[], busyTabIds: readonly number[]): HoldTable {
  if (!Object.values(holds).some((hold) => sessions.includes(hold.agent.session))) return holds;
  return Object.fromEntries(
    Object.entries(holds).flatMap(([key, hold]): Array<[string, Hold]> => {
      if (!sessions.includes(hold.agent.session)) return [[key, hold]];
      return busyTabIds.includes(hold.tabId) ? [[key, { ...hold, ending: true }]] : [];
    }),
  );
}

/** An act finished on the tab and its outcome is kept: a session that ended meanwhile lets go now; one that goes on has used it. */
export function afterAct(holds: HoldTable, tabId: number, session: string, now: number): HoldTable {
  const key = String(tabId);
  const hold = holds[key];
  if (!hold || hold.agent.session !== session) return holds;
  if (hold.ending) {
    const { [key]: _released, ...rest } = holds;
    return rest;
  }
  // An act that waited for the person may have outlasted the idle time: it was in use all along.
  return hold.usedAt + RENEW_STORED_EVERY_MS > now ? holds : { ...holds, [key]: { ...hold, usedAt: now } };
}

/** Expired holds dropped (the same object when none is). */
export function prunedHolds(input: Pick<HoldInput, 'holds' | 'now' | 'busyTabIds'>): HoldTable {
  const live = Object.entries(input.holds).filter(([, hold]) => isLive(hold, input.now, input.busyTabIds));
  return live.length === Object.keys(input.holds).length ? input.holds : Object.fromEntries(live);
}

/** The words of `target_busy` for a tab someone else holds: who, since when, for what, and what to do. */
export function busyMessage(heldBy: Holder): string {
  const who = agentWords(heldBy.agent);
  const task = heldBy.task !== undefined ? ` for “${heldBy.task}”` : '';
  if (heldBy.until !== undefined) {
    return `${who} scheduled an act on this tab${task}; it holds the tab until ${new Date(heldBy.until).toISOString()}. Wait until then, or ask the person to end it in Tether's panel.`;
  }
  return `${who} holds this tab${task} since ${new Date(heldBy.since).toISOString()}. Wait until it releases it, or ask the person to release it in Tether's panel.`;
}

/** `details.heldBy` as agents read it. */
export function heldByDetails(heldBy: Holder): { agent: string; since: string; task?: string; until?: string } {
  return {
    agent: agentWords(heldBy.agent),
    since: new Date(heldBy.since).toISOString(),
    ...(heldBy.task !== undefined ? { task: heldBy.task } : {}),
    ...(heldBy.until !== undefined ? { until: new Date(heldBy.until).toISOString() } : {}),
  };
}

/** `target_busy` for a tab another agent's task holds. */
export function busyError(heldBy: Holder, tabId: number): TetherError {
  return tetherError('target_busy', busyMessage(heldBy), { tabId, heldBy: heldByDetails(heldBy) });
}

/** `context_changed` for a write handle whose hold is gone (released, expired, or its session ended). */
export function holderChanged(tabId: number): TetherError {
  return tetherError(
    'context_changed',
    'This handle’s hold on the tab is gone: it was released (by you or the person), ended with its session, or was idle too long. Resolve again.',
    { changed: ['holder'], tabId },
  );
}
