/**
 * Messages on the loopback WebSocket between the bridge (Node) and its peers: browser profiles
 * (the extension) and other bridge processes relaying their agent's requests. Both sides parse
 * what they receive with these schemas: the other end is a separate program.
 *
 * Handshake (text frames, see pairingHandshake.ts): the server sends a `challenge` nonce; the
 * client answers `hello` with its own nonce and a proof (HMAC of the whole handshake under the
 * pairing token, see pairingProof.ts); the server answers `welcome` with its proof. The token itself
 * never crosses the socket. After the welcome, every message is sealed (binary frames, see
 * sealedChannel.ts) under keys derived from the token and the handshake: a program in the middle
 * can neither read nor inject.
 */
import { z } from 'zod';
import { agentIdentitySchema } from '../agent/agentIdentity.ts';

/** 3: proofs cover the whole handshake, and the session after it is sealed. */
export const BRIDGE_PROTOCOL_VERSION = 3;
export { DEFAULT_BRIDGE_PORT } from './bridgePort.ts';
/** Close codes the extension shows the person in words. */
export const CLOSE_BAD_TOKEN = 4401;
export const CLOSE_BAD_HELLO = 4400;
/** A sealed frame failed its check (forged, replayed, reordered, oversized): the session is over. */
export const CLOSE_BROKEN_SESSION = 4403;
export const CLOSE_REPLACED = 4409;
/** Too many connections that have not proved the token yet: the oldest one makes room. */
export const CLOSE_BUSY = 4429;

/**
 * Every frame on the wire, before and after pairing, is at most this big: handshake frames are
 * well under 1 KB, and the sealed session splits larger messages into chunks of this size. A peer
 * that has not proved the token can make the hub hold at most this much per connection.
 */
export const MAX_FRAME_BYTES = 16 * 1024;
/**
 * The largest message the sealed session reassembles. A plan at its limits (50 steps of 200,000
 * characters of text plus as much in `expect.text`, 3 bytes per character in UTF-8) is about 60 MB.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Connections still in the handshake at once; a new one closes the oldest beyond this. */
export const MAX_UNPAIRED_CONNECTIONS = 16;
/** A peer that has not finished the handshake in this time is dropped (both ways). */
export const HANDSHAKE_TIMEOUT_MS = 5_000;

const nonce = z.string().regex(/^[0-9a-f]{32}$/);
const proof = z.string().regex(/^[0-9a-f]{64}$/);

export const challengeSchema = z.object({ type: z.literal('challenge'), nonce, version: z.number().int() });

export const browserHelloSchema = z.object({
  type: z.literal('hello'),
  role: z.literal('browser'),
  nonce,
  proof,
  version: z.number().int(),
  profile: z.object({ id: z.string().min(1).max(200), label: z.string().max(200) }),
});

export const agentHelloSchema = z.object({
  type: z.literal('hello'),
  role: z.literal('agent'),
  nonce,
  proof,
  version: z.number().int(),
  agent: z.string().max(200),
});

export const helloSchema = z.discriminatedUnion('role', [browserHelloSchema, agentHelloSchema]);
export type Hello = z.infer<typeof helloSchema>;

export const welcomeSchema = z.object({ type: z.literal('welcome'), server: z.string().max(200), proof });

/** A request travelling to a browser profile (from the hub) or to the hub (from a relay). */
export const bridgeRequestSchema = z.object({
  type: z.literal('request'),
  id: z.string().min(1).max(100),
  tool: z.string().max(40),
  args: z.unknown(),
  /** Which profile should answer; for relays only, the hub routes by it. */
  profile: z.string().max(200).optional(),
  /**
   * The MCP session that made the call (its name and session key): set by the session's own bridge,
   * carried by every hop, never taken from the tool's arguments. An older bridge sends none.
   */
  agent: agentIdentitySchema.optional(),
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export const bridgeResponseSchema = z.object({
  type: z.literal('response'),
  id: z.string().min(1).max(100),
  envelope: z.unknown(),
});
export type BridgeResponse = z.infer<typeof bridgeResponseSchema>;

export const keepaliveSchema = z.object({ type: z.literal('keepalive') });

/**
 * MCP sessions that ended (their bridge went away, or stopped): what they held is released. Sent
 * by the hub for its relays and for itself, and by a native host for its bridges, each only for the
 * sessions that came through that connection. An older worker ignores it.
 */
export const MAX_ENDED_SESSIONS = 64;
export const endedSchema = z.object({ type: z.literal('ended'), sessions: z.array(agentIdentitySchema.shape.session).min(1).max(MAX_ENDED_SESSIONS) });

/** Inside the sealed session: what the hub sends a browser, and what a browser answers. */
export const toBrowserSchema = z.discriminatedUnion('type', [bridgeRequestSchema, keepaliveSchema, endedSchema]);
export const fromBrowserSchema = z.discriminatedUnion('type', [bridgeResponseSchema, keepaliveSchema]);
