import { describe, expect, it } from 'vitest';
import { NativeReader, nativeFrame, type NativeInput } from './nativeFraming.ts';

function read(chunks: Buffer[], max = 1000): NativeInput[] {
  const seen: NativeInput[] = [];
  const reader = new NativeReader(max, (input) => seen.push(input));
  for (const chunk of chunks) reader.push(chunk);
  return seen;
}

function bytewise(buffer: Buffer): Buffer[] {
  return [...buffer].map((byte) => Buffer.from([byte]));
}

describe('NativeReader', () => {
  it('reads messages whole, however the pipe splits them', () => {
    const stream = Buffer.concat([nativeFrame({ a: 1 }, 1000) as Buffer, nativeFrame('두 번째', 1000) as Buffer]);
    const expected = [
      { kind: 'message', value: { a: 1 } },
      { kind: 'message', value: '두 번째' },
    ];
    expect(read([stream])).toEqual(expected);
    expect(read(bytewise(stream))).toEqual(expected);
  });

  it('skips a message over the limit without holding it, and reads the next one', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(5000, 0);
    const stream = Buffer.concat([header, Buffer.alloc(5000, 0x61), nativeFrame({ after: true }, 1000) as Buffer]);
    const expected = [
      { kind: 'oversize', bytes: 5000 },
      { kind: 'message', value: { after: true } },
    ];
    expect(read([stream])).toEqual(expected);
    expect(read([stream.subarray(0, 100), stream.subarray(100, 4000), stream.subarray(4000)])).toEqual(expected);
  });

  it('reports what is not JSON (or not UTF-8) and goes on', () => {
    const raw = (bytes: Buffer) => {
      const header = Buffer.alloc(4);
      header.writeUInt32LE(bytes.length, 0);
      return Buffer.concat([header, bytes]);
    };
    expect(read([raw(Buffer.from('nope')), raw(Buffer.from([0x22, 0xff, 0x22])), nativeFrame(1, 10) as Buffer])).toEqual([
      { kind: 'malformed', bytes: 4 },
      { kind: 'malformed', bytes: 3 },
      { kind: 'message', value: 1 },
    ]);
  });

  it('writes nothing over the limit', () => {
    expect(nativeFrame('x'.repeat(10), 12)).not.toBeNull();
    expect(nativeFrame('x'.repeat(11), 12)).toBeNull();
  });
});
