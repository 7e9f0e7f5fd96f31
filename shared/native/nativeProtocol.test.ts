import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../link/bridgeProtocol.ts';
import {
  FIREFOX_ADDON_ID,
  MAX_FROM_HOST_BYTES,
  PartAssembler,
  TETHER_EXTENSION_ID,
  bridgeToHostSchema,
  fromWorkerSchema,
  installCommand,
  nativeProblemOf,
  partSchema,
  splitForWorker,
} from './nativeProtocol.ts';

const request = (text: string) => ({ type: 'request' as const, id: 'n1', tool: 'act', args: { text } });

describe('splitForWorker and PartAssembler', () => {
  it('sends a small request as it is', () => {
    expect(splitForWorker(request('hi'))).toEqual([request('hi')]);
  });

  it('splits a large request into parts each under the browser’s 1 MiB, and puts it back together', () => {
    const big = request('가나다 "quoted" \\ '.repeat(200_000));
    const parts = splitForWorker(big);
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) expect(new TextEncoder().encode(JSON.stringify(part)).length).toBeLessThan(MAX_FROM_HOST_BYTES);
    const assembler = new PartAssembler(MAX_MESSAGE_BYTES);
    const outcomes = parts.map((part) => assembler.take(partSchema.parse(part)));
    expect(outcomes.slice(0, -1).every((outcome) => outcome.kind === 'pending')).toBe(true);
    expect(outcomes.at(-1)).toEqual({ kind: 'done', message: big });
  });

  const cases: Array<[string, Array<{ index: number; last: boolean; data: string }>, number, string]> = [
    ['a first part that is not part 0', [{ index: 1, last: true, data: 'e30=' }], MAX_MESSAGE_BYTES, 'a part out of order'],
    [
      'a gap',
      [
        { index: 0, last: false, data: 'e30=' },
        { index: 2, last: true, data: 'e30=' },
      ],
      MAX_MESSAGE_BYTES,
      'a part out of order',
    ],
    ['not base64', [{ index: 0, last: true, data: '%%%' }], MAX_MESSAGE_BYTES, 'a part that is not base64'],
    [
      'over the limit',
      [
        { index: 0, last: false, data: 'e30=' },
        { index: 1, last: true, data: 'e30=' },
      ],
      3,
      'a message over 3 bytes',
    ],
    ['not JSON', [{ index: 0, last: true, data: btoa('{nope') }], MAX_MESSAGE_BYTES, 'a message that is not JSON'],
    ['not UTF-8', [{ index: 0, last: true, data: btoa('\xff\xfe') }], MAX_MESSAGE_BYTES, 'a message that is not JSON'],
  ];
  it.each(cases)('refuses %s, and forgets it', (_name, parts, limit, why) => {
    const assembler = new PartAssembler(limit);
    const outcomes = parts.map((part) => assembler.take({ type: 'part', id: 'x', ...part }));
    expect(outcomes.at(-1)).toEqual({ kind: 'refused', id: 'x', why });
    // Forgotten: a new message under the same id starts from part 0.
    expect(assembler.take({ type: 'part', id: 'x', index: 0, last: true, data: 'e30=' })).toEqual({ kind: 'done', message: {} });
  });

  it('holds at most a few split messages at once', () => {
    const assembler = new PartAssembler(MAX_MESSAGE_BYTES, 2);
    assembler.take({ type: 'part', id: 'a', index: 0, last: false, data: 'e30=' });
    assembler.take({ type: 'part', id: 'b', index: 0, last: false, data: 'e30=' });
    expect(assembler.take({ type: 'part', id: 'c', index: 0, last: false, data: 'e30=' })).toEqual({
      kind: 'refused',
      id: 'c',
      why: 'too many split messages at once',
    });
  });
});

describe('what the browser says when the port closes', () => {
  it.each([
    ['Specified native messaging host not found.', 'not_installed'],
    ['Access to the specified native messaging host is forbidden.', 'forbidden'],
    ['Error when communicating with the native messaging host.', 'broken'],
    ['Native host has exited.', 'exited'],
    ['Failed to start native messaging host.', 'exited'],
    ['No such native application dev.tether.host', 'not_installed'],
    ['No such native application other.host', 'exited'],
    [undefined, 'exited'],
  ])('%s → %s', (message, problem) => {
    expect(nativeProblemOf(message)).toBe(problem);
  });

  it('gives the install command, with the id only for another build', () => {
    expect(installCommand(TETHER_EXTENSION_ID)).toBe('npx -y tether-mcp install');
    expect(installCommand('abcdefghijklmnopabcdefghijklmnop')).toBe('npx -y tether-mcp install --extension-id abcdefghijklmnopabcdefghijklmnop');
    expect(installCommand(FIREFOX_ADDON_ID)).toBe('npx -y tether-mcp install --browser firefox');
  });
});

describe('the direct link’s messages', () => {
  it('a bridge’s hub message: a port number or null, nothing else', () => {
    for (const port of [1, 17345, 65535, null]) expect(bridgeToHostSchema.safeParse({ type: 'hub', port }).success).toBe(true);
    for (const bad of [
      { type: 'hub' },
      { type: 'hub', port: 0 },
      { type: 'hub', port: 65536 },
      { type: 'hub', port: 1.5 },
      { type: 'hub', port: '17345' },
      { type: 'hub', port: -1 },
      { type: 'hub', port: 1e300 },
    ])
      expect(bridgeToHostSchema.safeParse(bad).success).toBe(false);
  });

  it('a worker’s hello may name what it takes; a list too long or too odd is refused', () => {
    const hello = { type: 'hello', version: 1, profile: { id: 'pr', label: 'P' }, extension: { id: 'x', version: '1' } };
    expect(fromWorkerSchema.safeParse(hello).success).toBe(true);
    expect(fromWorkerSchema.safeParse({ ...hello, features: ['direct'] }).success).toBe(true);
    expect(fromWorkerSchema.safeParse({ ...hello, features: Array.from({ length: 21 }, () => 'direct') }).success).toBe(false);
    expect(fromWorkerSchema.safeParse({ ...hello, features: ['x'.repeat(51)] }).success).toBe(false);
    expect(fromWorkerSchema.safeParse({ ...hello, features: 'direct' }).success).toBe(false);
  });
});
