/**
 * The session after pairing. Every message is sealed with AES-256-GCM under a key derived with
 * HKDF-SHA256 from the pairing token and the handshake transcript (both nonces, version, the
 * client's identity, the server's name): one key per direction, and each frame's nonce is its
 * counter in that direction. A frame that was forged, changed, replayed, reordered, dropped,
 * reflected back to its sender or sealed under another session does not open, and the channel
 * breaks: its owner closes the connection. A program in the middle that passed the handshake
 * through reads nothing and gets nothing obeyed.
 *
 * Messages are JSON; one larger than a frame is split into chunks, each sealed as its own frame
 * (a flag byte says whether more follow), so frames on the wire stay small for every peer while a
 * paired peer can still send a large plan or page text. The receiver reassembles at most
 * `messageBytes`.
 *
 * Transport-independent: bytes in, bytes out (WebSocket binary frames, the host's unix socket).
 * Web Crypto by default, so it runs in the service worker and in Node alike; the Node sides pass
 * node:crypto (bridge/nodeFrameCipher.ts), which seals and opens the same frames synchronously:
 * a frame then leaves or is delivered in the same turn, without a round trip through a thread pool.
 */
import { MAX_FRAME_BYTES, MAX_MESSAGE_BYTES } from './bridgeProtocol.ts';

export type Side = 'client' | 'server';
export type Direction = 'client-to-server' | 'server-to-client';

export interface SessionKeys {
  /** Seals what this side sends. */
  seal: CryptoKey;
  sealDirection: Direction;
  /** Opens what the other side sends. */
  open: CryptoKey;
  openDirection: Direction;
}

const encoder = new TextEncoder();
/** Flag byte plus the AES-GCM tag: what a chunk costs on top of its data. */
export const FRAME_OVERHEAD = 1 + 16;
const MORE = 1;
const LAST = 0;

/** The two session keys, derived from the token and the whole handshake, for one side. */
export async function deriveSessionKeys(token: string, transcript: string, side: Side): Promise<SessionKeys> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(token), 'HKDF', false, ['deriveKey']);
  const salt = await crypto.subtle.digest('SHA-256', encoder.encode(`tether-session|${transcript}`));
  const key = (direction: Direction) =>
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt, info: encoder.encode(`tether session key ${direction}`) },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
  const [clientToServer, serverToClient] = await Promise.all([key('client-to-server'), key('server-to-client')]);
  return side === 'client'
    ? { seal: clientToServer, sealDirection: 'client-to-server', open: serverToClient, openDirection: 'server-to-client' }
    : { seal: serverToClient, sealDirection: 'server-to-client', open: clientToServer, openDirection: 'client-to-server' };
}

/** 96-bit nonce: the direction, then the frame's counter (64-bit big-endian). Never reused under one key. */
export function nonceFor(direction: Direction, counter: number): Uint8Array<ArrayBuffer> {
  const nonce = new Uint8Array(12);
  const view = new DataView(nonce.buffer);
  view.setUint32(0, direction === 'client-to-server' ? 1 : 2);
  view.setBigUint64(4, BigInt(counter));
  return nonce;
}

/** What each frame authenticates besides its data: its direction. */
export function additionalDataFor(direction: Direction): Uint8Array<ArrayBuffer> {
  return encoder.encode(`tether ${direction}`);
}

function params(direction: Direction, counter: number): AesGcmParams {
  return { name: 'AES-GCM', iv: nonceFor(direction, counter), additionalData: additionalDataFor(direction), tagLength: 128 };
}

/** Seals one frame's plaintext as frame number `counter` in `direction`. */
export async function sealFrame(key: CryptoKey, direction: Direction, counter: number, plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.encrypt(params(direction, counter), key, plain));
}

/** Opens frame number `counter`; null when it is not exactly what the other side sealed there. */
export async function openFrame(
  key: CryptoKey,
  direction: Direction,
  counter: number,
  frame: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params(direction, counter), key, frame));
  } catch {
    return null;
  }
}

/**
 * How frames are sealed and opened: the same AES-256-GCM frames (data, then the 16-byte tag), by
 * Web Crypto (asynchronous) or by a synchronous implementation where there is one.
 */
export interface FrameCipher {
  seal(key: CryptoKey, direction: Direction, counter: number, plain: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | Promise<Uint8Array<ArrayBuffer>>;
  open(
    key: CryptoKey,
    direction: Direction,
    counter: number,
    frame: Uint8Array<ArrayBuffer>,
  ): Uint8Array<ArrayBuffer> | null | Promise<Uint8Array<ArrayBuffer> | null>;
}

export const webCryptoCipher: FrameCipher = { seal: sealFrame, open: openFrame };

/** Why a channel stopped: a frame that did not open, was too big, or held something that is not a message. */
export type ChannelFailure = 'forged' | 'oversize' | 'malformed';

export class MessageTooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`The message is ${bytes} bytes; the bridge carries at most ${limit}.`);
  }
}

export class ChannelClosed extends Error {
  constructor() {
    super('The session is closed.');
  }
}

export interface ChannelEvents {
  message(value: unknown): void;
  /** Called once, on the first frame that fails; nothing is delivered after it. */
  broken(failure: ChannelFailure): void;
}

export interface ChannelLimits {
  frameBytes: number;
  messageBytes: number;
  /** Web Crypto unless given. */
  cipher: FrameCipher;
}

export class SealedChannel {
  private sent = 0;
  private received = 0;
  private outbox: Promise<void> = Promise.resolve();
  private inbox: Promise<void> = Promise.resolve();
  /** Sends and received frames still waiting for an asynchronous seal or open: while any are, later ones queue behind them. */
  private sealing = 0;
  private opening = 0;
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  /** Bytes received and not yet opened: bounded, so a flood cannot grow without limit. */
  private queuedBytes = 0;
  private over = false;
  private readonly limits: ChannelLimits;

  constructor(
    private readonly keys: SessionKeys,
    private readonly write: (frame: Uint8Array<ArrayBuffer>) => void,
    private readonly events: ChannelEvents,
    limits: Partial<ChannelLimits> = {},
  ) {
    this.limits = { frameBytes: MAX_FRAME_BYTES, messageBytes: MAX_MESSAGE_BYTES, cipher: webCryptoCipher, ...limits };
    if (this.limits.frameBytes <= FRAME_OVERHEAD) throw new RangeError('frames must be larger than their overhead');
  }

  /**
   * Seals a message and writes its frames, in order after every earlier send. Rejects with
   * MessageTooLarge (nothing is written) or ChannelClosed.
   */
  send(message: unknown): Promise<void> {
    if (this.over) return Promise.reject(new ChannelClosed());
    const text = JSON.stringify(message);
    if (text === undefined) return Promise.reject(new TypeError('Only JSON values can be sent.'));
    const bytes = encoder.encode(text);
    if (bytes.byteLength > this.limits.messageBytes) return Promise.reject(new MessageTooLarge(bytes.byteLength, this.limits.messageBytes));
    const room = this.limits.frameBytes - FRAME_OVERHEAD;
    const chunks: Array<Uint8Array<ArrayBuffer>> = [];
    for (let start = 0; start === 0 || start < bytes.byteLength; start += room) {
      const data = bytes.subarray(start, start + room);
      const plain = new Uint8Array(1 + data.byteLength);
      plain[0] = start + room >= bytes.byteLength ? LAST : MORE;
      plain.set(data, 1);
      chunks.push(plain);
    }
    // Counters are taken now, in call order; frames are written in the same order below.
    const first = this.sent;
    this.sent += chunks.length;
    const sealed = chunks.map((plain, index) => this.limits.cipher.seal(this.keys.seal, this.keys.sealDirection, first + index, plain));
    if (this.sealing === 0 && sealed.every((frame): frame is Uint8Array<ArrayBuffer> => frame instanceof Uint8Array)) {
      // Sealed already, nothing queued before it: written now.
      try {
        for (const frame of sealed) this.write(frame);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return Promise.resolve();
    }
    this.sealing += 1;
    const run = this.outbox.then(async () => {
      const frames = await Promise.all(sealed);
      if (this.over) throw new ChannelClosed();
      for (const frame of frames) this.write(frame);
    });
    this.outbox = run.then(
      () => void (this.sealing -= 1),
      () => void (this.sealing -= 1),
    );
    return run;
  }

  /** Takes one frame from the transport, in the order it arrived. */
  receive(frame: Uint8Array): void {
    if (this.over) return;
    if (frame.byteLength > this.limits.frameBytes) return this.fail('oversize');
    if (frame.byteLength < FRAME_OVERHEAD) return this.fail('malformed');
    this.queuedBytes += frame.byteLength;
    // Room for a whole message being opened while the next one arrives; past that it is a flood.
    if (this.queuedBytes + this.partBytes > 2 * this.limits.messageBytes) return this.fail('oversize');
    const counter = this.received;
    this.received += 1;
    const opened = this.limits.cipher.open(this.keys.open, this.keys.openDirection, counter, new Uint8Array(frame));
    if (this.opening === 0 && !(opened instanceof Promise)) {
      // Opened already, nothing queued before it: delivered now.
      this.queuedBytes -= frame.byteLength;
      if (opened === null) return this.fail('forged');
      return this.take(opened);
    }
    this.opening += 1;
    this.inbox = this.inbox.then(async () => {
      const plain = await opened;
      this.opening -= 1;
      this.queuedBytes -= frame.byteLength;
      if (this.over) return;
      if (plain === null) return this.fail('forged');
      this.take(plain);
    });
  }

  /** Resolves once every frame received so far has been opened (or refused) and delivered. */
  async drained(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.inbox) {
      seen = this.inbox;
      await seen;
    }
  }

  /** Stops sending and receiving without calling `broken` (the connection closed). */
  end(): void {
    this.over = true;
    this.parts = [];
    this.partBytes = 0;
  }

  private take(plain: Uint8Array): void {
    const flag = plain[0];
    if (flag !== MORE && flag !== LAST) return this.fail('malformed');
    const data = plain.subarray(1);
    if (this.partBytes + data.byteLength > this.limits.messageBytes) return this.fail('oversize');
    this.parts.push(data);
    this.partBytes += data.byteLength;
    if (flag === MORE) return;
    const whole = new Uint8Array(this.partBytes);
    let offset = 0;
    for (const part of this.parts) {
      whole.set(part, offset);
      offset += part.byteLength;
    }
    this.parts = [];
    this.partBytes = 0;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(whole));
    } catch {
      return this.fail('malformed');
    }
    try {
      this.events.message(value);
    } catch {
      // The owner's handler failing is not the peer's doing; the session goes on.
    }
  }

  private fail(failure: ChannelFailure): void {
    if (this.over) return;
    this.end();
    this.events.broken(failure);
  }
}
