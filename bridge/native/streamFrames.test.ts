import { describe, expect, it } from 'vitest';
import { StreamFrameReader, type StreamProblem } from './streamFrames.ts';

function frame(kind: number, payload: Buffer, declared = payload.length + 1): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(declared, 0);
  header[4] = kind;
  return Buffer.concat([header, payload]);
}

function read(chunks: Buffer[]): { frames: Array<string | Uint8Array>; problems: StreamProblem[] } {
  const frames: Array<string | Uint8Array> = [];
  const problems: StreamProblem[] = [];
  const reader = new StreamFrameReader(
    (received) => frames.push(received),
    (what) => problems.push(what),
    100,
  );
  for (const chunk of chunks) reader.push(chunk);
  return { frames, problems };
}

describe('StreamFrameReader', () => {
  it('gives text and binary frames in order, across any split', () => {
    const stream = Buffer.concat([frame(0, Buffer.from('{"a":1}')), frame(1, Buffer.from([1, 2, 3]))]);
    const whole = read([stream]);
    expect(whole).toEqual({ frames: ['{"a":1}', new Uint8Array([1, 2, 3])], problems: [] });
    expect(read([...stream].map((byte) => Buffer.from([byte])))).toEqual(whole);
  });

  it.each<[string, Buffer, StreamProblem]>([
    ['a length over the limit (nothing of it held)', frame(1, Buffer.alloc(0), 0xffffffff), 'oversize'],
    ['a length of zero', frame(0, Buffer.alloc(0), 0), 'oversize'],
    ['an unknown kind', frame(7, Buffer.from('x')), 'unknown_kind'],
    ['invalid UTF-8 in a text frame', frame(0, Buffer.from([0xff, 0xfe])), 'invalid_utf8'],
  ])('stops at %s, once, and reads nothing after it', (_name, bad, problem) => {
    expect(read([bad, frame(0, Buffer.from('later'))])).toEqual({ frames: [], problems: [problem] });
  });
});
