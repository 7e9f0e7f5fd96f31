/**
 * A ws socket on the bridge's port (one the hub accepted, or a relay's own) wrapped in a
 * PairedConnection: handshake, then the sealed session.
 *
 * Every socket gets its 'error' listener before anything else: ws reports a peer's protocol error
 * (a reserved opcode, invalid UTF-8 in a text frame, a frame over `maxPayload`) as an 'error'
 * event, and an 'error' event without a listener ends the whole process. Here it closes only
 * that socket.
 */
import type WebSocket from 'ws';
import { MAX_FRAME_BYTES } from '../../shared/link/bridgeProtocol.ts';
import type { PairingStep } from '../../shared/link/pairingHandshake.ts';
import { PairedConnection, type ConnectionEvents, type FrameTransport } from '../../shared/link/pairedConnection.ts';
import { nodeFrameCipher } from '../nodeFrameCipher.ts';

/** For both the server and the client side: no frame (nor message) over MAX_FRAME_BYTES, no compression. */
export const SOCKET_LIMITS = { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false } as const;

/** A peer that does not answer our close frame is cut off after this. */
const CLOSE_GRACE_MS = 1_000;

function bytesOf(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

export interface SocketEvents extends ConnectionEvents {
  /** The socket closed, for whatever reason (after `failed`, when that was the reason). */
  closed(code: number): void;
}

export function pairSocket(socket: WebSocket, start: PairingStep, events: SocketEvents, log: (line: string) => void): PairedConnection {
  socket.on('error', (error) => {
    log(`closed a connection after a socket error: ${error.message}`);
    // While connecting, ws closes the socket itself after reporting the error.
    if (socket.readyState !== socket.CONNECTING) socket.terminate();
  });
  const transport: FrameTransport = {
    sendText: (text) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    },
    sendBinary: (frame) => {
      if (socket.readyState === socket.OPEN) socket.send(frame, { binary: true });
    },
    close: (code, reason) => {
      if (socket.readyState === socket.CONNECTING) {
        socket.terminate();
        return;
      }
      socket.close(code, reason);
      setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
  const connection = new PairedConnection(transport, start, events, { cipher: nodeFrameCipher });
  // ws has checked a text frame's UTF-8 already.
  socket.on('message', (data, isBinary) => connection.receive(isBinary ? bytesOf(data) : new TextDecoder().decode(bytesOf(data))));
  socket.on('close', (code) => {
    void connection.closed();
    events.closed(code);
  });
  return connection;
}
