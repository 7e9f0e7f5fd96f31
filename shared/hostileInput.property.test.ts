/**
 * Property tests of every input boundary that runs in Node: agent requests (the bridge and the
 * worker parse them alike), the worker's request entry, the MCP tool handler, the runtime and page
 * channels' schemas, and the bridge's frames. Arbitrary input yields a typed error, never a throw,
 * never prototype pollution, and never reaches a tool (the only code that touches tabs/scripting).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHarness, type ToolHandlers } from '../background/harness.ts';
import { fakeToolContext } from '../background/testing/fakeToolContext.ts';
import { callTool } from '../bridge/mcp/mcpTools.ts';
import { agentHelloSchema, bridgeRequestSchema, fromBrowserSchema, helloSchema, toBrowserSchema } from './link/bridgeProtocol.ts';
import { clientPairing, serverPairing, stepPairing } from './link/pairingHandshake.ts';
import { deriveSessionKeys, SealedChannel, type ChannelFailure } from './link/sealedChannel.ts';
import { ERROR_CODES, success } from './errors.ts';
import { pageRequestSchema, pageActResultSchema, pageInspectionSchema } from './page/pageProtocol.ts';
import { parseAgentRequest, toolLabel } from './agent/parseAgentRequest.ts';
import type { Envelope } from './agent/agentProtocol.ts';
import { runtimeRequestSchema } from './extension/uiProtocol.ts';
import { hostileJson, hostileTool, specialValues } from './testing/hostileInput.ts';

const RUNS = 400;

function noPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe('arbitrary input at every boundary', () => {
  it('parseAgentRequest: a typed outcome, never a throw', () => {
    fc.assert(
      fc.property(hostileTool, hostileJson, (tool, args) => {
        const outcome = parseAgentRequest(tool, args);
        if (!outcome.ok) {
          expect(ERROR_CODES).toContain(outcome.error.code);
          expect(outcome.error.message.length).toBeGreaterThan(0);
        }
        noPollution();
      }),
      { numRuns: RUNS },
    );
  });

  it('every special value is refused with invalid_request or missing_context', () => {
    for (const tool of ['context', 'resolve', 'inspect', 'act']) {
      for (const value of specialValues) {
        const outcome = parseAgentRequest(tool, value);
        if (tool !== 'context' || (typeof value === 'object' && value !== null && !Array.isArray(value))) {
          if (!outcome.ok) expect(['invalid_request', 'missing_context']).toContain(outcome.error.code);
        }
        noPollution();
      }
    }
  });

  it('the worker’s request entry: refusals never reach a tool; every answer is an envelope', async () => {
    let toolCalls = 0;
    const tool = async <R>(result: R) => {
      toolCalls += 1;
      return success(result);
    };
    const tools: ToolHandlers = {
      context: () => tool({ profiles: [] }),
      resolve: () => tool({ explanation: '' }),
      inspect: () => tool({ signIn: { state: 'unknown' as const } }),
      act: () => tool({ requestId: '', steps: [], url: '', done: '' }),
    };
    const harness = createHarness({ ready: async () => undefined, context: fakeToolContext(), tools, journal: { save: async () => undefined } });
    await fc.assert(
      fc.asyncProperty(hostileTool, hostileJson, async (name, args) => {
        const before = toolCalls;
        const envelope: Envelope = await harness({ tool: name as 'context', args }, 'agent');
        const parsed = parseAgentRequest(name, args);
        expect(envelope.ok).toBe(parsed.ok);
        expect(toolCalls - before).toBe(parsed.ok ? 1 : 0);
        if (!envelope.ok) expect(ERROR_CODES).toContain(envelope.error.code);
        noPollution();
      }),
      { numRuns: RUNS },
    );
  });

  it('the MCP tool handler: only valid requests reach the browser link', async () => {
    let forwarded = 0;
    const link = { call: async (): Promise<Envelope> => ((forwarded += 1), { ok: true, result: {}, meta: { tool: 'context' } }) };
    await fc.assert(
      fc.asyncProperty(hostileTool, hostileJson, async (name, args) => {
        const before = forwarded;
        const envelope = await callTool(link, toolLabel(name), args, 'c');
        expect(forwarded - before).toBe(parseAgentRequest(toolLabel(name), args).ok ? 1 : 0);
        expect(typeof envelope.ok).toBe('boolean');
        noPollution();
      }),
      { numRuns: RUNS },
    );
  });

  it('runtime, page and bridge channel schemas: parse or refuse, never throw', () => {
    const schemas = [
      runtimeRequestSchema,
      pageRequestSchema,
      pageActResultSchema,
      pageInspectionSchema,
      helloSchema,
      agentHelloSchema,
      bridgeRequestSchema,
      toBrowserSchema,
      fromBrowserSchema,
    ];
    fc.assert(
      fc.property(fc.oneof(hostileJson, fc.record({ type: fc.string(), channel: fc.string(), request: hostileJson }, { requiredKeys: [] })), (value) => {
        for (const schema of schemas) expect(() => schema.safeParse(value)).not.toThrow();
        noPollution();
      }),
      { numRuns: RUNS },
    );
  });

  it('the pairing handshake, on either side and in every phase: arbitrary frames fail it, never throw, never pair', async () => {
    const token = 'the-pairing-token-0123456789';
    const starts = [
      clientPairing(token, { role: 'browser', profile: { id: 'p', label: 'P' } }).state,
      serverPairing(token, 'hub', true).state,
      serverPairing(token, 'hub', false).state,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...starts),
        fc.oneof(
          hostileJson,
          fc.record(
            { type: fc.constantFrom('challenge', 'hello', 'welcome'), nonce: fc.string(), version: fc.integer(), proof: fc.string(), role: fc.string() },
            { requiredKeys: [] },
          ),
        ),
        async (state, frame) => {
          const step = await stepPairing(state, frame);
          expect(step.state.phase).toBe('failed');
          expect(step.send).toBeNull();
          noPollution();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the sealed session: arbitrary bytes break it and deliver nothing', async () => {
    const keys = await deriveSessionKeys('the-pairing-token-0123456789', 'transcript', 'server');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 20_000 }), { minLength: 1, maxLength: 4 }), async (frames) => {
        const delivered: unknown[] = [];
        const failures: ChannelFailure[] = [];
        const channel = new SealedChannel(keys, () => undefined, { message: (value) => delivered.push(value), broken: (failure) => failures.push(failure) });
        for (const frame of frames) channel.receive(frame);
        await channel.drained();
        expect(delivered).toEqual([]);
        expect(failures).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });
});
