/**
 * One connection between the bridge and a peer, from its first frame to its close, over any
 * ordered message transport (a WebSocket, the host's unix socket): the pairing handshake in text frames
 * (pairingHandshake.ts), then the sealed session in binary frames (sealedChannel.ts). The hub,
 * a relay and the extension each wrap their socket in one.
 *
 * It fails closed: a frame over MAX_FRAME_BYTES, a binary frame before pairing or a text frame
 * after it, a handshake not finished in time, a failed proof or a sealed frame that does not open
 * closes the transport (with a code saying why) and reports the failure once. Nothing after that
 * is delivered.
 */
import { CLOSE_BAD_HELLO, CLOSE_BROKEN_SESSION, HANDSHAKE_TIMEOUT_MS, MAX_FRAME_BYTES, MAX_MESSAGE_BYTES } from './bridgeProtocol.ts';
import { stepPairing, type Paired, type Pairing, type PairingFailure, type PairingStep } from './pairingHandshake.ts';
import { parseFrame } from './parseFrame.ts';
import { SealedChannel, webCryptoCipher, type ChannelFailure, type FrameCipher } from './sealedChannel.ts';

export interface FrameTransport {
  sendText(text: string): void;
  sendBinary(frame: Uint8Array<ArrayBuffer>): void;
  close(code: number, reason: string): void;
}

export type ConnectionFailure =
  | { kind: 'pairing'; failure: PairingFailure }
  | { kind: 'timeout' }
  | { kind: 'frame'; problem: 'oversize' | 'binary_before_pairing' | 'text_after_pairing' | 'too_many_before_pairing' }
  | { kind: 'session'; failure: ChannelFailure };

export interface ConnectionEvents {
  paired(paired: Paired): void;
  message(value: unknown): void;
  /** The connection failed and its transport was closed; called at most once. */
  failed(failure: ConnectionFailure): void;
}

export interface ConnectionLimits {
  frameBytes: number;
  messageBytes: number;
  handshakeMs: number;
  /** How the session's frames are sealed and opened (Web Crypto unless given: Node passes node:crypto). */
  cipher: FrameCipher;
}

/** Handshake frames a peer may have waiting while a step computes; the real peers send one at a time. */
const MAX_TEXT_WAITING = 4;

export class PairedConnection {
  private state: Pairing;
  private channel: SealedChannel | null = null;
  private inbox: Promise<void> = Promise.resolve();
  /** Frames queued behind a handshake step, how many of them are text, and their bytes. */
  private waiting = 0;
  private waitingText = 0;
  private waitingBytes = 0;
  /** The client side: its peer may send sealed frames right behind the welcome. */
  private readonly isClient: boolean;
  private over = false;
  private readonly deadline: ReturnType<typeof setTimeout>;
  private readonly limits: ConnectionLimits;

  constructor(
    private readonly transport: FrameTransport,
    start: PairingStep,
    private readonly events: ConnectionEvents,
    limits: Partial<ConnectionLimits> = {},
  ) {
    this.limits = { frameBytes: MAX_FRAME_BYTES, messageBytes: MAX_MESSAGE_BYTES, handshakeMs: HANDSHAKE_TIMEOUT_MS, cipher: webCryptoCipher, ...limits };
    this.state = start.state;
    this.isClient = start.state.phase === 'awaiting_challenge';
    this.deadline = setTimeout(() => this.fail({ kind: 'timeout' }, CLOSE_BAD_HELLO, 'handshake timeout'), this.limits.handshakeMs);
    if (start.send) transport.sendText(JSON.stringify(start.send));
  }

  get paired(): boolean {
    return this.channel !== null;
  }

  /** A frame from the transport, in arrival order: a string for a text frame, bytes for a binary one. */
  receive(frame: string | Uint8Array): void {
    if (this.over) return;
    // A string's length counts UTF-16 units, at most its UTF-8 size: a cheap, safe first check.
    if ((typeof frame === 'string' ? frame.length : frame.byteLength) > this.limits.frameBytes) {
      return this.fail({ kind: 'frame', problem: 'oversize' }, this.channel ? CLOSE_BROKEN_SESSION : CLOSE_BAD_HELLO, 'frame too large');
    }
    if (this.channel && this.waiting === 0) {
      void this.take(frame);
      return;
    }
    // Queued behind a handshake step. A server's peer sends nothing binary before the welcome it
    // has not had yet; a client's peer (the hub) may send sealed frames right behind its welcome,
    // as many as one large message takes.
    const text = typeof frame === 'string';
    const bytes = text ? frame.length : frame.byteLength;
    if (!text && !this.channel && !this.isClient)
      return this.fail({ kind: 'frame', problem: 'binary_before_pairing' }, CLOSE_BAD_HELLO, 'binary before pairing');
    if (text ? this.waitingText >= MAX_TEXT_WAITING : this.waitingBytes + bytes > 2 * this.limits.messageBytes) {
      return this.fail({ kind: 'frame', problem: 'too_many_before_pairing' }, CLOSE_BAD_HELLO, 'too many frames');
    }
    this.waiting += 1;
    this.waitingText += text ? 1 : 0;
    this.waitingBytes += bytes;
    this.inbox = this.inbox.then(async () => {
      try {
        await this.take(frame);
      } catch {
        this.fail({ kind: 'pairing', failure: { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO } }, CLOSE_BAD_HELLO, 'handshake error');
      }
      this.waiting -= 1;
      this.waitingText -= text ? 1 : 0;
      this.waitingBytes -= bytes;
    });
  }

  /** Sends one message through the sealed session (rejects before pairing, after the end, or when too large). */
  send(message: unknown): Promise<void> {
    if (!this.channel) return Promise.reject(new Error('not paired'));
    return this.channel.send(message);
  }

  /**
   * The transport closed: nothing more is taken, but the sealed frames that arrived before the
   * close are still opened and delivered (a hub that stops says which sessions ended just before
   * it closes, and opening is asynchronous), then everything stops. Resolves when it has.
   */
  async closed(): Promise<void> {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.deadline);
    const channel = this.channel;
    if (!channel) return;
    await channel.drained();
    channel.end();
  }

  /** Closes the transport from this side, e.g. when the owner is done with the peer: nothing more is delivered. */
  close(code: number, reason: string): void {
    this.over = true;
    clearTimeout(this.deadline);
    this.channel?.end();
    this.transport.close(code, reason);
  }

  private async take(frame: string | Uint8Array): Promise<void> {
    if (this.over) return;
    if (this.channel) {
      if (typeof frame === 'string') return this.fail({ kind: 'frame', problem: 'text_after_pairing' }, CLOSE_BROKEN_SESSION, 'text after pairing');
      this.channel.receive(frame);
      return;
    }
    if (typeof frame !== 'string') return this.fail({ kind: 'frame', problem: 'binary_before_pairing' }, CLOSE_BAD_HELLO, 'binary before pairing');
    const step = await stepPairing(this.state, parseFrame(frame));
    if (this.over) return;
    this.state = step.state;
    if (step.state.phase === 'failed')
      return this.fail({ kind: 'pairing', failure: step.state.failure }, step.state.failure.closeCode, step.state.failure.reason);
    // The channel exists before the welcome leaves, so whatever the peer sends next finds it.
    if (step.state.phase === 'paired') this.open(step.state);
    if (step.send) this.transport.sendText(JSON.stringify(step.send));
    if (step.state.phase === 'paired') this.events.paired(step.state);
  }

  private open(paired: Paired): void {
    clearTimeout(this.deadline);
    this.channel = new SealedChannel(
      paired.keys,
      (frame) => this.transport.sendBinary(frame),
      {
        message: (value) => this.events.message(value),
        broken: (failure) => this.fail({ kind: 'session', failure }, CLOSE_BROKEN_SESSION, `sealed frame ${failure}`),
      },
      { frameBytes: this.limits.frameBytes, messageBytes: this.limits.messageBytes, cipher: this.limits.cipher },
    );
  }

  private fail(failure: ConnectionFailure, code: number, reason: string): void {
    if (this.over) return;
    this.close(code, reason);
    this.events.failed(failure);
  }
}
