import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { earlyAnswer, type EarlyFacts } from './earlyAnswers.ts';
import { createMcpServer } from './mcpServer.ts';
import { toolDefinitions } from './mcpTools.ts';
import { earlyFacts } from './builtFacts.ts';

const facts: EarlyFacts = earlyFacts({ latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS }, toolDefinitions());

const neverCalled = { call: () => Promise.reject(new Error('no call expected')) };

/**
 * What the SDK's Server answers to `message` arriving on stdio: null when its stdio transport
 * refuses the line, or when it sends nothing back.
 */
async function sdkAnswer(message: unknown): Promise<unknown> {
  let parsed: JSONRPCMessage;
  try {
    parsed = deserializeMessage(JSON.stringify(message));
  } catch {
    return null;
  }
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(neverCalled);
  await server.connect(serverSide);
  const answered = new Promise<unknown>((resolve) => {
    client.onmessage = resolve;
    setTimeout(() => resolve(null), 200);
  });
  await client.start();
  await client.send(parsed);
  const answer = await answered;
  await server.close();
  return answer;
}

const initialize = (params: Record<string, unknown>, id: string | number = 1) => ({ jsonrpc: '2.0', id, method: 'initialize', params });
const client = { name: 'claude-code', version: '2.1.0' };

describe('early answers: what real clients send is answered before the SDK loads, exactly as the SDK answers it', () => {
  const answered: Array<[string, Record<string, unknown>]> = [
    ['the SDK Client', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client }],
    [
      'a client with roots and elicitation',
      { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true }, elicitation: {} }, clientInfo: client },
    ],
    [
      'a client with sampling, elicitation forms, experimental features and tasks',
      {
        protocolVersion: '2025-03-26',
        capabilities: {
          sampling: { context: {}, tools: {} },
          elicitation: { form: { applyDefaults: true }, url: {} },
          experimental: { vendor: { on: true } },
          extensions: { 'acme/thing': {} },
          tasks: { list: {}, cancel: {} },
        },
        clientInfo: { ...client, title: 'Claude Code', websiteUrl: 'https://example.com', description: 'an agent' },
      },
    ],
    ['an old client', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: client }],
    ['a client from the future (gets the latest version)', { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: client }],
    ['a capability this SDK does not know (ignored by it)', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { teleport: {} }, clientInfo: client }],
  ];
  for (const [who, params] of answered) {
    it(`initialize from ${who}`, async () => {
      const message = initialize(params, 'init-1');
      const early = earlyAnswer(message, facts, false);
      expect(early?.method).toBe('initialize');
      expect(early?.response).toEqual(await sdkAnswer(message));
    });
  }

  it('tools/list, with and without a cursor, once initialize was answered', async () => {
    for (const message of [
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 'x', method: 'tools/list', params: { cursor: 'c' } },
    ]) {
      const early = earlyAnswer(message, facts, true);
      expect(early?.method).toBe('tools/list');
      expect(early?.response).toEqual(await sdkAnswer(message));
    }
  });
});

describe('early answers: anything unusual waits for the SDK', () => {
  const base = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client };
  const deferred: Array<[string, unknown, boolean]> = [
    ['not JSON-RPC 2.0', { jsonrpc: '1.0', id: 1, method: 'initialize', params: base }, false],
    ['an extra top-level key (the SDK refuses it)', { ...initialize(base), extra: 1 }, false],
    ['a fractional id', initialize(base, 1.5), false],
    ['no id (a notification)', { jsonrpc: '2.0', method: 'initialize', params: base }, false],
    ['_meta', initialize({ ...base, _meta: { progressToken: 1 } }), false],
    ['client icons', initialize({ ...base, clientInfo: { ...client, icons: [] } }), false],
    ['a missing client version', initialize({ ...base, clientInfo: { name: 'x' } }), false],
    ['roots.listChanged not a boolean', initialize({ ...base, capabilities: { roots: { listChanged: 'yes' } } }), false],
    ['task requests', initialize({ ...base, capabilities: { tasks: { requests: {} } } }), false],
    ['a second initialize', initialize(base, 2), true],
    ['tools/list before initialize', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, false],
    ['tools/list with _meta', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: {} } }, true],
    ['tools/list with a cursor that is not a string', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 3 } }, true],
    ['a tool call', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context' } }, true],
    ['ping', { jsonrpc: '2.0', id: 2, method: 'ping' }, true],
    ['not an object', [1, 2], true],
  ];
  for (const [what, message, initializeAnswered] of deferred) {
    it(what, () => {
      expect(earlyAnswer(message, facts, initializeAnswered)).toBeNull();
    });
  }
});

describe('early answers: generated requests', () => {
  type Path = string[];
  const paths: Path[] = [
    ['jsonrpc'],
    ['id'],
    ['method'],
    ['extra'],
    ['params'],
    ['params', '_meta'],
    ['params', 'protocolVersion'],
    ['params', 'capabilities'],
    ['params', 'capabilities', 'roots'],
    ['params', 'capabilities', 'roots', 'listChanged'],
    ['params', 'capabilities', 'sampling'],
    ['params', 'capabilities', 'sampling', 'context'],
    ['params', 'capabilities', 'sampling', 'tools'],
    ['params', 'capabilities', 'elicitation'],
    ['params', 'capabilities', 'elicitation', 'form'],
    ['params', 'capabilities', 'elicitation', 'form', 'applyDefaults'],
    ['params', 'capabilities', 'elicitation', 'url'],
    ['params', 'capabilities', 'experimental'],
    ['params', 'capabilities', 'experimental', 'x'],
    ['params', 'capabilities', 'extensions'],
    ['params', 'capabilities', 'extensions', 'a/b'],
    ['params', 'capabilities', 'tasks'],
    ['params', 'capabilities', 'tasks', 'list'],
    ['params', 'capabilities', 'tasks', 'requests'],
    ['params', 'capabilities', 'other'],
    ['params', 'clientInfo'],
    ['params', 'clientInfo', 'name'],
    ['params', 'clientInfo', 'version'],
    ['params', 'clientInfo', 'title'],
    ['params', 'clientInfo', 'websiteUrl'],
    ['params', 'clientInfo', 'icons'],
    ['params', 'cursor'],
  ];
  type Mutation = { path: Path; value: unknown };
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(undefined),
    fc.constant({}),
    fc.constant([]),
    fc.constant(true),
    fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS, '2099-01-01'),
    fc.constant({ listChanged: true }),
  );
  const mutation: fc.Arbitrary<Mutation> = fc.record({ path: fc.constantFrom(...paths), value });

  function apply(target: Record<string, unknown>, { path, value: next }: Mutation): void {
    let node: Record<string, unknown> = target;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (typeof child !== 'object' || child === null || Array.isArray(child)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1] ?? '';
    if (next === undefined) Reflect.deleteProperty(node, last);
    // A copy: generated values (fc.constant({})) are shared between runs and must not be changed.
    else node[last] = structuredClone(next);
  }

  it('an early answer is always the SDK’s answer', async () => {
    let early = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('initialize', 'tools/list'),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (method, mutations, initializeAnswered) => {
          const message: Record<string, unknown> = JSON.parse(
            JSON.stringify(
              method === 'initialize'
                ? initialize({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client })
                : { jsonrpc: '2.0', id: 5, method },
            ),
          );
          for (const change of mutations) apply(message, change);
          const sent: unknown = JSON.parse(JSON.stringify(message));
          const answer = earlyAnswer(sent, facts, initializeAnswered);
          if (!answer) return;
          early += 1;
          expect(answer.response).toEqual(await sdkAnswer(sent));
        },
      ),
      { numRuns: 400 },
    );
    // The generator must reach the early path often enough for the property to mean something.
    expect(early).toBeGreaterThan(40);
  }, 60_000);
});
