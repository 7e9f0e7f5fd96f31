/**
 * Native messaging: the extension's service worker opens a port to Tether's native host
 * (`runtime.connectNative(NATIVE_HOST_NAME)`); the browser starts the host (one per profile) and
 * keeps the worker alive while the port is open. MCP bridge processes reach the host over a
 * private unix socket (see bridge/native/hostProgram.ts). These are the messages on the port, in both
 * directions, and the ones between the host and a bridge inside their sealed session. Every side
 * parses what it receives with these schemas: the other end is a separate program.
 *
 *   worker → host   hello (profile), response (an envelope for a request id), profile (renamed)
 *   host → worker   bridges (how many agent servers are connected), request, part (a chunk of a
 *                   request too large for one native message), direct (a bridge's loopback port
 *                   and the pairing token, for the worker's direct link to it; null port: none),
 *                   ended (the MCP sessions of a bridge that went away)
 *   host → bridge   profile (which browser profile this host serves), response
 *   bridge → host   request, hub (this bridge holds the loopback port: the worker may link to it directly)
 */
import { z } from 'zod';
import { bridgeRequestSchema, bridgeResponseSchema, endedSchema } from '../link/bridgeProtocol.ts';
import { TOKEN_MAX_LENGTH, TOKEN_MIN_LENGTH } from '../link/bridgePort.ts';

/** The host's name in its manifest and in connectNative: lower case, dots only. */
export const NATIVE_HOST_NAME = 'dev.tether.host';
/**
 * Tether's extension id, fixed by the `key` in manifest.json (an unpacked or self-built copy gets
 * this id wherever it is loaded). A store build has the id the store gave it: `npx tether-mcp
 * install --extension-id <id>`.
 */
export const TETHER_EXTENSION_ID = 'lmdeipcgcniedmmnmekpfbklipnogfgp';
/**
 * Tether's add-on id in Firefox (`browser_specific_settings.gecko.id`, the same in every build):
 * the one id Firefox's host manifest names in `allowed_extensions`.
 */
export const FIREFOX_ADDON_ID = 'tether@tether-mcp';
export const NATIVE_PROTOCOL_VERSION = 1;

/** Chrome closes the whole port when the host sends one message over 1 MiB; a request is split below that. */
export const MAX_FROM_HOST_BYTES = 1024 * 1024;
/** Bytes of a request per `part` (base64 makes them 4/3 larger, still well under MAX_FROM_HOST_BYTES). */
export const PART_BYTES = 600 * 1024;
/** Chrome refuses (throws) a message from the extension over 64 MiB. */
export const MAX_TO_HOST_BYTES = 64 * 1024 * 1024;

const profile = z.object({ id: z.string().min(1).max(200), label: z.string().max(200) });
export type NativeProfile = z.infer<typeof profile>;

/**
 * What a worker can take besides the first protocol's messages; a host sends nothing else to it (an
 * older worker would refuse it): `direct` offers, and `ended` sessions (`agents`).
 */
export const WORKER_FEATURES = ['direct', 'agents'] as const;

export const workerHelloSchema = z.object({
  type: z.literal('hello'),
  version: z.number().int(),
  profile,
  extension: z.object({ id: z.string().max(100), version: z.string().max(50) }),
  features: z.array(z.string().max(50)).max(20).optional(),
});
export const profileUpdateSchema = z.object({ type: z.literal('profile'), profile });

/** What the worker sends the host. */
export const fromWorkerSchema = z.discriminatedUnion('type', [workerHelloSchema, bridgeResponseSchema, profileUpdateSchema]);
export type FromWorker = z.infer<typeof fromWorkerSchema>;

export const bridgesSchema = z.object({ type: z.literal('bridges'), count: z.number().int().nonnegative() });
export const partSchema = z.object({
  type: z.literal('part'),
  id: z.string().min(1).max(100),
  index: z.number().int().nonnegative(),
  last: z.boolean(),
  /** Base64 of the next PART_BYTES of the request's JSON (UTF-8). */
  data: z.string().max(Math.ceil(PART_BYTES / 3) * 4),
});

const port = z.number().int().min(1).max(65535);

/**
 * The direct link: a bridge that holds the loopback port (the hub) is reached by the worker over
 * a WebSocket of its own, paired with the token the host and its bridges share, so a request skips
 * the host process (one process hop each way fewer). The host says which port; null: none now.
 */
export const directSchema = z.object({
  type: z.literal('direct'),
  port: port.nullable(),
  token: z.string().min(TOKEN_MIN_LENGTH).max(TOKEN_MAX_LENGTH).optional(),
});
export type DirectOffer = z.infer<typeof directSchema>;

/** What the host sends the worker. */
export const toWorkerSchema = z.discriminatedUnion('type', [bridgesSchema, bridgeRequestSchema, partSchema, directSchema, endedSchema]);
export type ToWorker = z.infer<typeof toWorkerSchema>;

/** Between the host and a bridge, inside the sealed session. */
export const hostToBridgeSchema = z.discriminatedUnion('type', [profileUpdateSchema, bridgeResponseSchema]);
/** A bridge holds the loopback port (it is the hub): the worker may link to it directly; null: no longer. */
export const hubSchema = z.object({ type: z.literal('hub'), port: port.nullable() });
export const bridgeToHostSchema = z.discriminatedUnion('type', [bridgeRequestSchema, hubSchema]);

/**
 * What the browser says when the port closes (Chromium's `runtime.lastError.message`, Firefox's
 * `port.error.message`), and what it means for the person (the strings are the browsers' own:
 * Chromium 150 and 156; Firefox ESR 140 and 153). Firefox says "No such native application" both
 * when no manifest names the host and when the manifest does not name this add-on (it hides which),
 * so there it is always `not_installed`; a host that exits is a close without an error.
 */
export type NativeProblem = 'not_installed' | 'forbidden' | 'exited' | 'broken';

export function nativeProblemOf(message: string | undefined): NativeProblem {
  if (message === 'Specified native messaging host not found.' || message === `No such native application ${NATIVE_HOST_NAME}`) return 'not_installed';
  if (message === 'Access to the specified native messaging host is forbidden.') return 'forbidden';
  if (message === 'Error when communicating with the native messaging host.') return 'broken';
  return 'exited';
}

/** The one command that installs the host for this extension (the id only when it is not the built-in one; Firefox by name). */
export function installCommand(extensionId: string): string {
  if (extensionId === FIREFOX_ADDON_ID) return 'npx -y tether-mcp install --browser firefox';
  return extensionId === TETHER_EXTENSION_ID ? 'npx -y tether-mcp install' : `npx -y tether-mcp install --extension-id ${extensionId}`;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * One message for the worker as the native messages to send: itself when it fits, otherwise its
 * JSON split into `part`s (reassembled by `PartAssembler`).
 */
export function splitForWorker(message: { type: 'request'; id: string } & Record<string, unknown>, partBytes = PART_BYTES): unknown[] {
  const json = JSON.stringify(message);
  // A UTF-16 unit is at most 3 bytes of UTF-8: most requests are known to fit without encoding them.
  if (json.length * 3 < MAX_FROM_HOST_BYTES - 1024) return [message];
  const bytes = new TextEncoder().encode(json);
  if (bytes.length < MAX_FROM_HOST_BYTES - 1024) return [message];
  const parts: unknown[] = [];
  for (let offset = 0, index = 0; offset < bytes.length; offset += partBytes, index += 1) {
    parts.push({
      type: 'part',
      id: message.id,
      index,
      last: offset + partBytes >= bytes.length,
      data: bytesToBase64(bytes.subarray(offset, offset + partBytes)),
    });
  }
  return parts;
}

export type PartOutcome = { kind: 'pending' } | { kind: 'done'; message: unknown } | { kind: 'refused'; id: string; why: string };

/**
 * Puts split requests back together, one per id, in order, up to `maxBytes` each; anything out of
 * order, too large or not JSON is refused (and forgotten) rather than guessed at.
 */
export class PartAssembler {
  private readonly open = new Map<string, { next: number; chunks: Uint8Array[]; bytes: number }>();

  constructor(
    private readonly maxBytes: number,
    private readonly maxOpen = 8,
  ) {}

  take(part: z.infer<typeof partSchema>): PartOutcome {
    const refuse = (why: string): PartOutcome => {
      this.open.delete(part.id);
      return { kind: 'refused', id: part.id, why };
    };
    let entry = this.open.get(part.id);
    if (!entry) {
      if (part.index !== 0) return refuse('a part out of order');
      if (this.open.size >= this.maxOpen) return refuse('too many split messages at once');
      entry = { next: 0, chunks: [], bytes: 0 };
      this.open.set(part.id, entry);
    }
    if (part.index !== entry.next) return refuse('a part out of order');
    let chunk: Uint8Array;
    try {
      chunk = base64ToBytes(part.data);
    } catch {
      return refuse('a part that is not base64');
    }
    entry.bytes += chunk.length;
    if (entry.bytes > this.maxBytes) return refuse(`a message over ${this.maxBytes} bytes`);
    entry.chunks.push(chunk);
    entry.next += 1;
    if (!part.last) return { kind: 'pending' };
    this.open.delete(part.id);
    const whole = new Uint8Array(entry.bytes);
    let offset = 0;
    for (const piece of entry.chunks) {
      whole.set(piece, offset);
      offset += piece.length;
    }
    try {
      return { kind: 'done', message: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(whole)) as unknown };
    } catch {
      return refuse('a message that is not JSON');
    }
  }
}
