/**
 * The hub and each native host forward calls from several bridge connections, each call naming
 * the MCP session it comes from (shared/agent/agentIdentity.ts). These keep one connection from speaking
 * for another's session, and say which sessions ended when a connection goes.
 */
import { randomBytes } from 'node:crypto';
import type { AgentIdentity } from '../shared/agent/agentIdentity.ts';
import { tetherError } from '../shared/errors.ts';
import type { Envelope } from '../shared/agent/agentProtocol.ts';

export const NOT_YOUR_SESSION = 'A bridge speaks only for its own MCP sessions: this one belongs to another connection (or this connection names too many).';
export const MAX_SESSIONS_PER_CONNECTION = 16;

/**
 * Which connection each MCP session's calls come through (`self`: this process's own MCP server).
 * A session key is a secret of its bridge, so another connection that presents it is refused: a
 * client that holds the token still cannot speak for a session it did not start (agentIdentity.ts).
 */
export class SessionOwners<C> {
  private readonly owners = new Map<string, C>();
  private readonly byOwner = new Map<C, Set<string>>();

  /**
   * Whether `from` may speak for `session` (and from now on it does): not when another connection
   * does, nor past MAX_SESSIONS_PER_CONNECTION (a bridge runs one MCP session; a few is plenty).
   */
  claim(session: string, from: C): boolean {
    const owner = this.owners.get(session);
    if (owner !== undefined) return owner === from;
    const mine = this.byOwner.get(from) ?? new Set<string>();
    if (mine.size >= MAX_SESSIONS_PER_CONNECTION) return false;
    mine.add(session);
    this.byOwner.set(from, mine);
    this.owners.set(session, from);
    return true;
  }

  /** The sessions `from` spoke for, now forgotten (it went away). */
  release(from: C): string[] {
    const ended = [...(this.byOwner.get(from) ?? [])];
    this.byOwner.delete(from);
    for (const session of ended) this.owners.delete(session);
    return ended;
  }
}

/** The refusal for a session key presented by a connection that does not own it. */
export function notYourSession(): Envelope {
  return { ok: false, error: tetherError('invalid_request', NOT_YOUR_SESSION) };
}

/** A random session for a connection whose bridge names none (an older tether-mcp): its calls are one agent. */
export function unnamedAgentFor(): AgentIdentity {
  return { name: 'an agent (older tether-mcp)', session: randomBytes(16).toString('hex') };
}
