/**
 * Who an agent is: one MCP session. The MCP server (bridge/mcp/mcpServer.ts) names it from the client's
 * `initialize` (`clientInfo.title`, else `clientInfo.name`) and a session key it draws once, and
 * every call it sends carries both in the call's envelope — never in the tool's arguments, which
 * the agent writes. The browser shows the name with a short id derived from the key, so two
 * sessions of one client ("Claude Code" in two terminals) are told apart.
 *
 * What it proves, and what not: the name is a label for the person, not a credential — every
 * client the person paired holds the token and may call itself anything. The key is a secret of
 * the session's bridge process (128 random bits, never shown to agents, the panel or the journal):
 * a request that carries it came from that session, so no other client can take over, renew or
 * release what the session holds by naming it. The native host and the hub also refuse a
 * connection that claims a key another live connection uses.
 */
import { z } from 'zod';

export const AGENT_NAME_MAX = 80;

/** On the wire, in the call's envelope (bridge → hub / host → worker). */
export const agentIdentitySchema = z.object({
  name: z.string().min(1).max(AGENT_NAME_MAX),
  session: z.string().regex(/^[0-9a-f]{32}$/),
});
export type AgentIdentity = z.infer<typeof agentIdentitySchema>;

/** What the person and other agents see: the name and a short id. */
export interface AgentLabel {
  name: string;
  id: string;
}

/** An agent as the worker keeps it: its label and its session key (kept, never shown). */
export interface AgentSession extends AgentLabel {
  session: string;
}

export const agentLabelSchema = z.object({ name: z.string().max(AGENT_NAME_MAX), id: z.string().max(16) });
export const agentSessionSchema = agentLabelSchema.extend({ session: z.string().min(1).max(64) });

/** A client's name as the person reads it: no control characters, spaces collapsed, at most AGENT_NAME_MAX characters. */
export function agentNameOf(clientInfo: { name?: unknown; title?: unknown } | undefined): string {
  for (const value of [clientInfo?.title, clientInfo?.name]) {
    if (typeof value !== 'string') continue;
    // Control and format characters (bidi overrides among them) would let a name disguise itself.
    const clean = value
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean !== '') return [...clean].slice(0, AGENT_NAME_MAX).join('');
  }
  return 'MCP client';
}

/** Four characters from the session key (FNV-1a): a label, not a secret, and it reveals nothing of the key that matters. */
export function shortIdOf(session: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < session.length; index += 1) {
    hash ^= session.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % 36 ** 4).toString(36).padStart(4, '0');
}

/**
 * Requests that carry no identity: from an older bridge or host (one shared session, as before
 * agents had names), and from Tether's own pages (the person's tools and the tests).
 */
export const UNNAMED_AGENT: AgentSession = { name: 'an agent (older tether-mcp)', id: 'old', session: 'unnamed' };
export const PAGE_AGENT: AgentSession = { name: 'Tether page', id: 'page', session: 'page' };

export function agentSessionOf(identity: AgentIdentity | undefined): AgentSession {
  if (!identity) return UNNAMED_AGENT;
  // Cleaned again: only the session's own bridge cleans it, and a client holding the token may
  // relay an envelope it wrote itself (through the hub or a native host).
  return { name: agentNameOf({ name: identity.name }), id: shortIdOf(identity.session), session: identity.session };
}

/** "Claude Code (a3f2)": how one agent is named in words. */
export function agentWords(agent: AgentLabel): string {
  return `${agent.name} (${agent.id})`;
}

export function labelOf(agent: AgentSession): AgentLabel {
  return { name: agent.name, id: agent.id };
}
