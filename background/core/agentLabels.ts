/**
 * Short ids the person can trust to tell agents apart. An agent's short id is four characters
 * derived from its session key (shared/agent/agentIdentity.ts), and every paired client can draw keys
 * until one has the four characters of another agent's id (a few seconds of hashing: found by the
 * attacker's review of 2026-12-01). So the worker remembers which key first showed each id; a
 * later key that derives the same id is shown with more characters, until its id is one no other
 * key shows. Whoever came second can no longer appear as "Claude Code (a3f2)".
 *
 * The table lives in storage.session (it survives the worker being stopped, as holds and approvals
 * do); it keeps the AGENT_ID_TABLE_MAX most recently seen ids.
 */
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { StateAccess } from './contracts.ts';

export const AGENT_ID_TABLE_MAX = 256;
/** How stale an id's `at` may be before a request stores it again (not every request writes storage). */
export const AGENT_ID_RENEW_MS = 60_000;

/** Displayed id → the session key that shows it, and when it was last seen. */
export type AgentIdTable = Record<string, { session: string; at: number }>;

/** Four more characters for the `round`th extension of a key's id (FNV-1a over the round and the key). */
function moreOf(session: string, round: number): string {
  let hash = 0x811c9dc5;
  const text = `${round}:${session}`;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % 36 ** 4).toString(36).padStart(4, '0');
}

/** The id to show for `agent`, and the table that remembers it. */
export function distinctLabel(table: AgentIdTable, agent: AgentSession, now: number): { agent: AgentSession; table: AgentIdTable } {
  let id = agent.id;
  for (let round = 1; (table[id]?.session ?? agent.session) !== agent.session; round += 1) {
    // A key that already extended its id keeps the id it was shown with: the first free one.
    id = `${agent.id}-${moreOf(agent.session, round)}`;
  }
  const entries = Object.entries({ ...table, [id]: { session: agent.session, at: now } });
  // The oldest go first when the table is full.
  const next: AgentIdTable = Object.fromEntries(entries.sort(([, a], [, b]) => b.at - a.at).slice(0, AGENT_ID_TABLE_MAX));
  return { agent: id === agent.id ? agent : { ...agent, id }, table: next };
}

/**
 * The agent of a request as it is shown (the harness asks before any tool runs). Stored again only
 * when the table changes or the id's `at` is older than AGENT_ID_RENEW_MS, so a busy session's
 * requests do not each write storage; worked out inside the update, so two sessions' first
 * requests at once both stay in the table.
 */
export async function shownAgent(deps: { session: StateAccess<{ agentIds: AgentIdTable }>; clock(): number }, agent: AgentSession): Promise<AgentSession> {
  const now = deps.clock();
  const known = deps.session.getState().agentIds;
  const quick = distinctLabel(known, agent, now).agent;
  const entry = known[quick.id];
  if (entry?.session === agent.session && entry.at <= now && now - entry.at < AGENT_ID_RENEW_MS) return quick;
  let shown = quick;
  await deps.session.setState((state) => {
    const next = distinctLabel(state.agentIds, agent, now);
    shown = next.agent;
    return { agentIds: next.table };
  });
  return shown;
}
