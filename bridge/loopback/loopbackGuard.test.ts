import { describe, expect, it } from 'vitest';
import { classifyOrigin, isLoopbackHost } from './loopbackGuard.ts';
import { requestTimeoutMs } from './hub.ts';
import { toolDefinitions } from '../mcp/mcpTools.ts';

describe('the bridge’s guards', () => {
  it.each([
    ['127.0.0.1:17345', true],
    ['localhost:17345', true],
    ['[::1]:17345', true],
    ['LOCALHOST:17345', true],
    ['127.0.0.1:80', false],
    ['evil.example:17345', false],
    ['127.0.0.1.evil.example:17345', false],
    [undefined, false],
  ])('Host %s → %s', (host, expected) => {
    expect(isLoopbackHost(host, 17345)).toBe(expected);
  });

  it.each([
    ['chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'extension'],
    ['moz-extension://0d5f5c2e-1111-4f3c-9d0a-123456789abc', 'extension'],
    [undefined, 'local-program'],
    ['', 'local-program'],
    ['http://blog.localhost:4173', 'web'],
    ['null', 'web'],
    ['chrome-extension://abc/evil', 'web'],
  ])('Origin %s → %s', (origin, expected) => {
    expect(classifyOrigin(origin)).toBe(expected);
  });

  it('gives an act time for the person’s approval', () => {
    expect(requestTimeoutMs('inspect', {})).toBe(30_000);
    expect(requestTimeoutMs('act', { approvalTimeoutSeconds: 10 })).toBe(100_000);
  });

  it('offers exactly four tools, each with a description and an input schema', () => {
    const tools = toolDefinitions();
    expect(tools.map((tool) => tool.name)).toEqual(['context', 'resolve', 'inspect', 'act']);
    for (const tool of tools) {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
    }
  });
});
