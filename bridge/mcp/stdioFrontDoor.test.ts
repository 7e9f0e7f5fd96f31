import { PassThrough } from 'node:stream';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { EarlyFacts } from './earlyAnswers.ts';
import type { Link } from './browserLink.ts';
import { serve } from './mcpServer.ts';
import { toolDefinitions } from './mcpTools.ts';
import { earlyFacts } from './builtFacts.ts';
import { SERVER_INFO } from './serverIdentity.ts';
import { MAX_LINE_BYTES, StdioFrontDoor } from './stdioFrontDoor.ts';

const facts: EarlyFacts = earlyFacts({ latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS }, toolDefinitions());

const link: Link = { call: async ({ tool }) => ({ ok: true, result: { tool } }) };

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number } };

/** A front door on in-memory stdio, with the SDK's Server connected when (and only when) the test says so. */
function harness(options: { facts?: EarlyFacts | null } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Message[] = [];
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
      out.push(JSON.parse(text.slice(0, end)) as Message);
      text = text.slice(end + 1);
    }
  });
  const logged: string[] = [];
  let needed = 0;
  let initialized = 0;
  let ended = 0;
  const door = new StdioFrontDoor(stdin, stdout, {
    facts: options.facts === undefined ? facts : options.facts,
    needed: () => (needed += 1),
    initialized: () => (initialized += 1),
    ended: () => (ended += 1),
    log: (line) => logged.push(line),
  });
  let closed = false;
  door.onclose = () => (closed = true);
  door.listen();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  return {
    out,
    logged,
    door,
    needed: () => needed,
    initialized: () => initialized,
    ended: () => ended,
    end: async () => {
      stdin.end();
      await settle();
    },
    closed: () => closed,
    send: async (...lines: Array<unknown>) => {
      stdin.write(lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line)) + '\n').join(''));
      await settle();
    },
    raw: async (bytes: string | Buffer) => {
      stdin.write(bytes);
      await settle();
    },
    connect: async () => {
      let initialized = 0;
      const server = await serve(link, door, () => (initialized += 1));
      await settle();
      return { server, initialized: () => initialized };
    },
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'agent', version: '7' } },
};
const initializedNote = { jsonrpc: '2.0', method: 'notifications/initialized' };
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const callContext = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'context', arguments: {} } };

describe('the stdio front door', () => {
  it('answers initialize and tools/list before the SDK is there, and asks for it only once the client has its tools', async () => {
    const door = harness();
    await door.send(initialize, initializedNote);
    expect(door.out.map((message) => message.id)).toEqual([1]);
    expect(door.out[0]?.result?.protocolVersion).toBe('2025-06-18');
    // `initialized` alone does not hurry the SDK (the tools/list behind it would wait for it); the
    // browser side may start.
    expect(door.needed()).toBe(0);
    expect(door.initialized()).toBe(1);
    await door.send(listTools);
    expect(door.out.map((message) => message.id)).toEqual([1, 2]);
    expect(door.out[1]?.result?.tools).toEqual(facts.tools);
    expect(door.needed()).toBe(1);
  });

  it('hands the held lines to the SDK’s Server in order: it knows its client, hears `initialized` and answers initialize only once', async () => {
    const door = harness();
    await door.send(initialize, initializedNote, listTools);
    const { server, initialized } = await door.connect();
    expect(server.getClientVersion()).toEqual({ name: 'agent', version: '7' });
    expect(server.getClientCapabilities()).toEqual({ roots: {} });
    expect(initialized()).toBe(1);
    await door.send(callContext);
    expect(door.out.map((message) => message.id)).toEqual([1, 2, 3]);
    expect(JSON.stringify(door.out[2]?.result)).toContain('"tool":"context"');
  });

  it('a client that uses the initialize request’s id again gets that answer: only the replay’s is dropped', async () => {
    const door = harness();
    await door.send(initialize, { jsonrpc: '2.0', id: 1, method: 'ping' });
    await door.connect();
    expect(door.out).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ serverInfo: SERVER_INFO }) }),
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
  });

  it('a second notification before the tool list asks for the SDK: nothing piles up waiting for it', async () => {
    const door = harness();
    await door.send(initialize, initializedNote);
    expect(door.needed()).toBe(0);
    await door.send(initializedNote);
    expect(door.needed()).toBe(1);
    expect(door.initialized()).toBe(1);
  });

  it('a call before the tool list asks for the SDK at once and is answered once it connects', async () => {
    const door = harness();
    await door.send(initialize, callContext);
    expect(door.needed()).toBe(1);
    expect(door.out.map((message) => message.id)).toEqual([1]);
    await door.connect();
    expect(door.out.map((message) => message.id)).toEqual([1, 3]);
  });

  it('without the build’s facts nothing is answered early: the SDK answers everything', async () => {
    const door = harness({ facts: null });
    await door.send(initialize, listTools);
    expect(door.out).toEqual([]);
    expect(door.needed()).toBe(2);
    await door.connect();
    expect(door.out.map((message) => message.id)).toEqual([1, 2]);
    expect(door.out[0]?.result?.protocolVersion).toBe('2025-06-18');
  });

  it('reads lines split across chunks and ending in CRLF', async () => {
    const door = harness();
    const line = JSON.stringify(initialize);
    await door.raw(line.slice(0, 10));
    expect(door.out).toEqual([]);
    await door.raw(`${line.slice(10)}\r\n`);
    expect(door.out.map((message) => message.id)).toEqual([1]);
  });

  it('a malformed line before the SDK is handed to it, which refuses it; the server goes on', async () => {
    const door = harness();
    await door.send(initialize, '{not json', '{"jsonrpc":"2.0","id":9,"method":"ping","extra":true}');
    expect(door.needed()).toBeGreaterThan(0);
    const errors: string[] = [];
    door.door.onerror = (error) => errors.push(error.message);
    await door.connect();
    expect(errors).toHaveLength(2);
    expect(door.closed()).toBe(false);
    await door.send({ jsonrpc: '2.0', id: 10, method: 'ping' });
    expect(door.out.map((message) => message.id)).toEqual([1, 10]);
  });

  it('a request nested too deep to write again is not answered early: the SDK answers it, and nothing throws', async () => {
    const door = harness();
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const line = JSON.stringify(initialize).replace('"roots":{}', `"roots":{},"experimental":{"x":{"deep":${deep}}}`);
    await door.raw(`${line}\n`);
    expect(door.out).toEqual([]);
    expect(door.needed()).toBe(1);
    const { server } = await door.connect();
    expect(door.out.map((message) => message.id)).toEqual([1]);
    expect(server.getClientVersion()).toEqual({ name: 'agent', version: '7' });
  });

  it('what the Server throws on is reported, not thrown into stdin’s handler; the server goes on', async () => {
    const door = harness();
    await door.send(initialize);
    await door.connect();
    const errors: string[] = [];
    door.door.onerror = (error) => errors.push(error.message);
    const serverOnMessage = door.door.onmessage;
    door.door.onmessage = (message) => {
      if ('id' in message && message.id === 'boom') throw new Error('the Server failed');
      serverOnMessage?.(message);
    };
    await door.send({ jsonrpc: '2.0', id: 'boom', method: 'ping' }, { jsonrpc: '2.0', id: 11, method: 'ping' });
    expect(errors).toEqual(['the Server failed']);
    expect(door.out.map((message) => message.id)).toEqual([1, 11]);
  });

  it('stdin ending before the SDK is loaded: the requests read before it are answered first', async () => {
    const door = harness();
    await door.send(initialize, { jsonrpc: '2.0', id: 2, method: 'ping' }, { jsonrpc: '2.0', id: 3, method: 'resources/list' });
    await door.end();
    expect(door.ended()).toBe(0);
    await door.connect();
    expect(door.ended()).toBe(1);
    // Answers in any order (JSON-RPC allows it): an unknown method is refused at once.
    expect(door.out.map((message) => message.id).sort()).toEqual([1, 2, 3]);
    expect(door.out.find((message) => message.id === 3)?.error?.code).toBe(-32601);
  });

  it('stdin ending with nothing waiting ends at once', async () => {
    const door = harness();
    await door.send(initialize, listTools);
    // The tool list asked for the SDK; the replayed initialize waits for it, so the end waits too.
    await door.end();
    expect(door.ended()).toBe(0);
    await door.connect();
    expect(door.ended()).toBe(1);
    const idle = harness();
    await idle.end();
    expect(idle.ended()).toBe(1);
    expect(idle.needed()).toBe(0);
  });

  it('only the replayed initialize’s answer is dropped, once: any id the client picks is answered', async () => {
    const door = harness();
    await door.send(initialize);
    await door.connect();
    await door.send(
      { jsonrpc: '2.0', id: 'tether:early-initialize-replayed', method: 'ping' },
      { jsonrpc: '2.0', id: 'tether:early-initialize:x', method: 'ping' },
    );
    expect(door.out.map((message) => message.id)).toEqual([1, 'tether:early-initialize-replayed', 'tether:early-initialize:x']);
  });

  it('a line over the SDK’s limit closes the door, before or after the SDK', async () => {
    for (const connected of [false, true]) {
      const door = harness();
      await door.send(initialize);
      if (connected) await door.connect();
      await door.raw(Buffer.alloc(MAX_LINE_BYTES + 1, 'a'));
      expect(door.closed(), `connected: ${connected}`).toBe(true);
      if (!connected) expect(door.logged.join(' ')).toContain('maximum size');
      await door.send(listTools);
      expect(door.out.map((message) => message.id)).toEqual([1]);
    }
  });
});
