import { describe, expect, it } from 'vitest';
import { toolRecord } from '../../background/tools/registry.ts';
import { planSchema, type Envelope, type ToolName } from '../../shared/agent/agentProtocol.ts';
import type { AgentCall, Link } from './browserLink.ts';
import { callTool, defaultLang, toolDefinitions } from './mcpTools.ts';

/** What a model reads with every conversation: the tools/list answer's tools, as JSON (3,000 before images: issue 25 added the image step and its sources). */
const TOOL_LIST_BUDGET_BYTES = 3_300;

type Schema = { [key: string]: unknown };
const asSchema = (value: unknown): Schema => (typeof value === 'object' && value !== null ? (value as Schema) : {});

function acceptedArguments(name: ToolName): string[] {
  return Object.keys(toolRecord(name).args.shape);
}

describe('the tool list a model reads', () => {
  const tools = toolDefinitions();

  it(`fits in ${TOOL_LIST_BUDGET_BYTES} bytes`, () => {
    expect(Buffer.byteLength(JSON.stringify(tools), 'utf8')).toBeLessThanOrEqual(TOOL_LIST_BUDGET_BYTES);
  });

  it('lists only arguments the server accepts, and every one it accepts but debug and lang', () => {
    for (const tool of tools) {
      const listed = Object.keys(asSchema(tool.inputSchema.properties));
      const accepted = acceptedArguments(tool.name);
      expect(
        listed.every((key) => accepted.includes(key)),
        tool.name,
      ).toBe(true);
      expect(accepted.filter((key) => !listed.includes(key)).sort(), tool.name).toEqual(['debug', 'lang']);
    }
  });

  it('defines the target spec once and uses it for the destination and every reference', () => {
    const resolve = tools.find((tool) => tool.name === 'resolve')?.inputSchema ?? {};
    const properties = asSchema(resolve.properties);
    expect(asSchema(properties.destination).$ref).toBe('#/$defs/tab');
    expect(asSchema(asSchema(properties.references).items).$ref).toBe('#/$defs/tab');
    expect(Object.keys(asSchema(asSchema(asSchema(resolve.$defs).tab).properties))).toEqual(['handle', 'tabId', 'url', 'site', 'title']);
    expect(JSON.stringify(resolve).match(/"url":\{/g)).toHaveLength(1);
  });

  it('a plan step is one object whose description says which fields each op takes — and that is what the server accepts', () => {
    const act = tools.find((tool) => tool.name === 'act')?.inputSchema ?? {};
    const step = asSchema(asSchema(asSchema(asSchema(asSchema(act.properties).plan).properties).steps).items);
    const ops = asSchema(asSchema(step.properties).op).enum;
    expect(ops).toEqual(['fill', 'append', 'image', 'clear', 'select', 'click']);
    const takes = new Map(
      String(step.description)
        .split('; ')
        .flatMap((part) => {
          const [named = '', fields = ''] = part.split(': ');
          return named.split('/').map((op) => [op, fields.split(', ')] as const);
        }),
    );
    const sample: Record<string, unknown> = {
      field: 'body',
      text: 'x',
      value: 'notes',
      action: 'publish',
      alt: 'Ridge',
      source: { ref: 'h_1', image: 'ridge' },
    };
    for (const op of ops as string[]) {
      const fields = takes.get(op) ?? [];
      const exactly = Object.fromEntries([['op', op], ...fields.map((field) => [field, sample[field] ?? ''])]);
      expect(planSchema.safeParse({ steps: [exactly] }).success, `${op} with ${fields.join(', ')}`).toBe(true);
      for (const missing of fields) {
        const without = Object.fromEntries(Object.entries(exactly).filter(([key]) => key !== missing));
        expect(planSchema.safeParse({ steps: [without] }).success, `${op} without ${missing}`).toBe(false);
      }
    }
  });
});

describe('calling a tool through the bridge', () => {
  function link(): Link & { calls: AgentCall[] } {
    const calls: AgentCall[] = [];
    return {
      calls,
      call: async (call: AgentCall): Promise<Envelope> => {
        calls.push(call);
        return { ok: true, result: { explanation: 'x' }, meta: { tool: call.tool, tookMs: 1 } };
      },
    };
  }

  it('explanations default to the language the MCP client configured (TETHER_LANG), else English; a request may say otherwise', async () => {
    expect(defaultLang(undefined)).toBe('en');
    expect(defaultLang('fr')).toBe('en');
    expect(defaultLang(' KO ')).toBe('ko');
    const korean = link();
    await callTool(korean, 'resolve', { profile: 'p', workspace: 'w' }, 'c1', 'ko');
    await callTool(korean, 'resolve', { profile: 'p', workspace: 'w', lang: 'en' }, 'c2', 'ko');
    expect(korean.calls.map((call) => (call.args as { lang?: string }).lang)).toEqual(['ko', 'en']);
    const english = link();
    await callTool(english, 'resolve', { profile: 'p', workspace: 'w' }, 'c3');
    expect(english.calls[0]?.args).toEqual({ profile: 'p', workspace: 'w' });
  });

  it('meta (with the call id) only when the request asks for it', async () => {
    expect(await callTool(link(), 'resolve', { profile: 'p', workspace: 'w', debug: true }, 'c1')).toMatchObject({ meta: { callId: 'c1', tookMs: 1 } });
  });

  it.each([
    [{ lang: 'de' }, /"en", "ko"/],
    [{ debug: 'true' }, /debug must be true or false/],
  ])('bad options %j are refused here with invalid_request, never sent to the browser', async (options, message) => {
    const browser = link();
    const envelope = await callTool(browser, 'inspect', { profile: 'p', workspace: 'w', handle: 'h', ...options }, 'c1');
    expect(envelope).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(message) } });
    expect(browser.calls).toEqual([]);
  });
});
