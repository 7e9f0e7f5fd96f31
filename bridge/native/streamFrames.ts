/**
 * A stream socket (the host's unix socket) as a PairedConnection: the same handshake and sealed
 * session as the WebSocket, over frames of our own — a 4-byte big-endian length, a kind byte
 * (0 text, 1 binary), then the payload.
 *
 * Fails closed per peer: a length over the frame limit, an unknown kind or a socket error closes
 * that socket at once (nothing of an oversized frame is held), and the PairedConnection closes it
 * for anything out of protocol. Other peers and the process are untouched.
 */
import type { Socket } from 'node:net';
import { MAX_FRAME_BYTES } from '../../shared/link/bridgeProtocol.ts';
import type { PairingStep } from '../../shared/link/pairingHandshake.ts';
import { PairedConnection, type FrameTransport } from '../../shared/link/pairedConnection.ts';
import type { SocketEvents } from '../loopback/pairedWebSocket.ts';
import { nodeFrameCipher } from '../nodeFrameCipher.ts';

const TEXT = 0;
const BINARY = 1;
const HEADER = 5;

export type StreamProblem = 'oversize' | 'unknown_kind' | 'invalid_utf8';

function frame(kind: number, payload: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(payload.length + 1, 0);
  header[4] = kind;
  return Buffer.concat([header, payload]);
}

/** Splits a byte stream into frames; reports the first problem and stops. */
export class StreamFrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private stopped = false;

  constructor(
    private readonly deliver: (frame: string | Uint8Array) => void,
    private readonly problem: (what: StreamProblem) => void,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {}

  push(chunk: Buffer): void {
    if (this.stopped) return;
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (!this.stopped && this.buffered.length >= HEADER) {
      const length = this.buffered.readUInt32BE(0);
      if (length < 1 || length - 1 > this.maxFrameBytes) return this.stop('oversize');
      if (this.buffered.length < 4 + length) return;
      const kind = this.buffered[4];
      const payload = this.buffered.subarray(HEADER, 4 + length);
      this.buffered = this.buffered.subarray(4 + length);
      if (kind === BINARY) this.deliver(new Uint8Array(payload));
      else if (kind === TEXT) {
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(payload);
        } catch {
          return this.stop('invalid_utf8');
        }
        this.deliver(text);
      } else return this.stop('unknown_kind');
    }
  }

  private stop(what: StreamProblem): void {
    this.stopped = true;
    this.buffered = Buffer.alloc(0);
    this.problem(what);
  }
}

export function pairStream(socket: Socket, start: PairingStep, events: SocketEvents, log: (line: string) => void): PairedConnection {
  let closeCode = 1006;
  socket.on('error', (error) => log(`closed a socket after an error: ${error.message}`));
  const transport: FrameTransport = {
    sendText: (text) => {
      if (!socket.destroyed) socket.write(frame(TEXT, Buffer.from(text, 'utf8')));
    },
    sendBinary: (bytes) => {
      if (!socket.destroyed) socket.write(frame(BINARY, bytes));
    },
    close: (code) => {
      closeCode = code;
      socket.end();
      // A peer that does not close its side is cut off.
      setTimeout(() => socket.destroy(), 1_000).unref();
    },
  };
  const connection = new PairedConnection(transport, start, events, { cipher: nodeFrameCipher });
  const reader = new StreamFrameReader(
    (received) => connection.receive(received),
    (what) => {
      log(`closed a socket that sent a frame out of protocol (${what})`);
      closeCode = 4400;
      socket.destroy();
    },
  );
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('close', () => {
    void connection.closed();
    events.closed(closeCode);
  });
  return connection;
}
