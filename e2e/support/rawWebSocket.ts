/**
 * A WebSocket client written by hand on a TCP socket, to send the bridge the frames a real client
 * library would refuse to make: reserved opcodes, invalid UTF-8, frames of any declared size.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A masked client frame (mask key 0 unless given): FIN set, `opcode`, `payload`; `declared` overrides the length field. */
export function clientFrame(opcode: number, payload: Buffer, declared = payload.length, mask = Buffer.alloc(4)): Buffer {
  const head =
    declared < 126
      ? Buffer.from([0x80 | opcode, 0x80 | declared])
      : declared < 65536
        ? Buffer.from([0x80 | opcode, 0x80 | 126, declared >> 8, declared & 0xff])
        : Buffer.concat([
            Buffer.from([0x80 | opcode, 0x80 | 127]),
            (() => {
              const length = Buffer.alloc(8);
              length.writeBigUInt64BE(BigInt(declared));
              return length;
            })(),
          ]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
  return Buffer.concat([head, mask, masked]);
}

export interface RawConnection {
  socket: Socket;
  /** The HTTP status line of the upgrade answer. */
  status: string;
  /** Everything the server sent after the upgrade. */
  received: Buffer[];
  closed: Promise<void>;
}

/** Completes the WebSocket upgrade on `port` (no Origin: a local program), without any handshake after it. */
export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let status = '';
    const closed = new Promise<void>((ended) => socket.once('close', () => ended()));
    socket.on('error', () => undefined);
    socket.once('close', () => fail(new Error(`the connection to port ${port} closed before the upgrade`)));
    socket.once('connect', () => {
      socket.write(
        `GET /tether HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk) => {
      if (status) {
        received.push(chunk);
        return;
      }
      const text = chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      status = text.slice(0, text.indexOf('\r\n'));
      if (!status.includes(' 101 ')) fail(new Error(`upgrade refused: ${status}`));
      if (end + 4 < chunk.length) received.push(chunk.subarray(end + 4));
      done({ socket, status, received, closed });
    });
  });
}

/** Writes `bytes` (in pieces, as a slow or large sender would) unless the server closed first. */
export async function writeAll(connection: RawConnection, bytes: Buffer, piece = 1024 * 1024): Promise<void> {
  for (let start = 0; start < bytes.length && !connection.socket.destroyed; start += piece) {
    const ok = connection.socket.write(bytes.subarray(start, start + piece));
    if (!ok) await Promise.race([new Promise((drained) => connection.socket.once('drain', drained)), connection.closed]);
  }
}

/** The close code of the close frame the server sent on this connection, or null if it sent none. */
export function closeCodeOf(connection: RawConnection): number | null {
  const bytes = Buffer.concat(connection.received);
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    const opcode = (bytes[offset] ?? 0) & 0x0f;
    let length = (bytes[offset + 1] ?? 0) & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (opcode === 0x8 && length >= 2 && start + 2 <= bytes.length) return bytes.readUInt16BE(start);
    offset = start + length;
  }
  return null;
}
