/**
 * Messages on the loopback WebSocket between the bridge (Node) and its peers: browser profiles
 * (the extension) and other bridge processes relaying their agent's requests. Both sides parse
 * what they receive with these schemas: the other end is a separate program.
 *
 * Handshake: the server sends a `challenge` nonce; the client answers `hello` with its own nonce
 * and a proof (HMAC of both nonces under the pairing token, see pairingProof.ts); the server
 * answers `welcome` with its proof. The token itself never crosses the socket.
 */
import { z } from 'zod';

export const BRIDGE_PROTOCOL_VERSION = 2;
export const DEFAULT_BRIDGE_PORT = 17345;
/** Close codes the extension shows the person in words. */
export const CLOSE_BAD_TOKEN = 4401;
export const CLOSE_BAD_HELLO = 4400;
export const CLOSE_REPLACED = 4409;

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
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export const bridgeResponseSchema = z.object({
  type: z.literal('response'),
  id: z.string().min(1).max(100),
  envelope: z.unknown(),
});
export type BridgeResponse = z.infer<typeof bridgeResponseSchema>;

export const keepaliveSchema = z.object({ type: z.literal('keepalive') });

export const toBrowserSchema = z.discriminatedUnion('type', [challengeSchema, welcomeSchema, bridgeRequestSchema, keepaliveSchema]);
export const fromBrowserSchema = z.discriminatedUnion('type', [bridgeResponseSchema, keepaliveSchema]);
