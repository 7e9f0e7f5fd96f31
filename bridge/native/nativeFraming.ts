/**
 * The browser's native messaging framing on the host's stdin and stdout: a 32-bit length in the
 * machine's byte order, then that many bytes of UTF-8 JSON.
 *
 * Reading fails closed without giving up the port: a message longer than the limit is skipped
 * (its bytes are read and dropped, never held) and one that is not JSON is dropped; both are
 * reported, and the next message is read as usual.
 */
import { endianness } from 'node:os';

const LITTLE = endianness() === 'LE';

export type NativeInput = { kind: 'message'; value: unknown } | { kind: 'oversize'; bytes: number } | { kind: 'malformed'; bytes: number };

export class NativeReader {
  private buffered: Buffer[] = [];
  private have = 0;
  /** Length of the message being read; null while reading a header. */
  private need: number | null = null;
  /** Bytes still to drop of an oversized message. */
  private skipping = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly deliver: (input: NativeInput) => void,
  ) {}

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.skipping > 0) {
      const dropped = Math.min(this.skipping, rest.length);
      this.skipping -= dropped;
      rest = rest.subarray(dropped);
    }
    if (rest.length === 0) return;
    this.buffered.push(rest);
    this.have += rest.length;
    for (;;) {
      if (this.need === null) {
        if (this.have < 4) return;
        const all = this.take(this.have);
        const length = LITTLE ? all.readUInt32LE(0) : all.readUInt32BE(0);
        const after = all.subarray(4);
        if (length > this.maxBytes) {
          this.deliver({ kind: 'oversize', bytes: length });
          const dropped = Math.min(length, after.length);
          this.skipping = length - dropped;
          this.reset(after.subarray(dropped));
          if (this.skipping > 0) return;
          continue;
        }
        this.need = length;
        this.reset(after);
      }
      if (this.have < this.need) return;
      const all = this.take(this.have);
      const body = all.subarray(0, this.need);
      this.reset(all.subarray(this.need));
      this.need = null;
      let value: unknown;
      try {
        value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch {
        this.deliver({ kind: 'malformed', bytes: body.length });
        continue;
      }
      this.deliver({ kind: 'message', value });
    }
  }

  private take(bytes: number): Buffer {
    const all = this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered, bytes);
    this.buffered = [all];
    return all;
  }

  private reset(rest: Buffer): void {
    this.buffered = rest.length > 0 ? [rest] : [];
    this.have = rest.length;
  }
}

/** One message as the bytes to write; null when it would be over `maxBytes` (the browser would close the port). */
export function nativeFrame(value: unknown, maxBytes: number): Buffer | null {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length > maxBytes) return null;
  const header = Buffer.alloc(4);
  if (LITTLE) header.writeUInt32LE(body.length, 0);
  else header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}
