/**
 * The four MCP tools, exactly: context, resolve, inspect, act, as their records say
 * (background/tools/registry.ts: name, description, arguments). Every answer is Tether's envelope;
 * a refusal is a tool result with isError: true and the envelope as structuredContent. Malformed
 * or incomplete requests are refused here, with the same codes the extension uses, whether or not
 * a browser is connected.
 *
 * A model reads the tool list with every conversation, so it is small: the descriptions say what
 * the schemas cannot, limits stay in the server's own validation, the target spec is defined once
 * (`$defs`), and a plan step is one object whose description says which fields each op takes.
 */
import { z } from 'zod';
import type { AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import type { Lang } from '../../shared/model/explain.ts';
import { parseAgentRequest } from '../../shared/agent/parseAgentRequest.ts';
import { targetSpecSchema, type Envelope, type ToolName } from '../../shared/agent/agentProtocol.ts';
import { TOOLS } from '../../background/tools/registry.ts';
import { attachImageFiles } from './imageFiles.ts';
import type { Link } from './browserLink.ts';

/** Shared definitions, by name: each is written once per tool and referenced where it is used. */
const DEFINITIONS: Record<string, z.ZodType> = { tab: targetSpecSchema };

/**
 * Arguments listed in the form a model needs, the server accepting more: `ask` also takes the
 * seconds the person has to choose (docs/protocol.md), which only the tests and careful callers use.
 */
const LISTED_AS: Record<string, Record<string, unknown>> = { ask: { type: 'boolean' } };

/** Limits stay in the server's validation (the answer names any that is broken); unknown keys are refused there too. */
const SERVER_ONLY_KEYWORDS = new Set(['$schema', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'minimum', 'maximum', 'additionalProperties']);

/**
 * Accepted by every tool but not listed: `debug` (diagnostics in meta) is for people reading
 * answers, and the explanations' language is the MCP client's setting (`TETHER_LANG`) unless a
 * request says `lang` (docs/protocol.md).
 */
const UNLISTED_ARGUMENTS: ReadonlySet<string> = new Set(['debug', 'lang']);

type JsonSchema = { [key: string]: unknown };

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutDescription(schema: JsonSchema): string {
  const { description: _description, $schema: _dialect, ...rest } = schema;
  return JSON.stringify(rest);
}

/** A discriminated union on `op` as one object: the ops as an enum, every field once, and which fields each op takes. */
function mergedOps(variants: JsonSchema[]): JsonSchema | null {
  const ops = variants.map((variant) => (isSchema(variant.properties) && isSchema(variant.properties.op) ? variant.properties.op.const : undefined));
  if (ops.some((op) => typeof op !== 'string')) return null;
  const properties: JsonSchema = { op: { enum: ops } };
  const takes = new Map<string, string[]>();
  variants.forEach((variant, index) => {
    for (const [key, value] of Object.entries(variant.properties as JsonSchema)) if (key !== 'op' && !(key in properties)) properties[key] = value;
    const required = (Array.isArray(variant.required) ? variant.required : []).filter((key) => key !== 'op').join(', ');
    takes.set(required, [...(takes.get(required) ?? []), String(ops[index])]);
  });
  const description = [...takes.entries()].map(([required, named]) => `${named.join('/')}: ${required}`).join('; ');
  return { type: 'object', description, properties, required: ['op'] };
}

function compact(node: unknown, defs: Map<string, { json: string; schema: JsonSchema }>, used: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, defs, used));
  if (!isSchema(node)) return node;
  for (const [name, def] of defs) {
    if (withoutDescription(node) !== def.json) continue;
    used.add(name);
    return typeof node.description === 'string' && node.description !== def.schema.description
      ? { $ref: `#/$defs/${name}`, description: node.description }
      : { $ref: `#/$defs/${name}` };
  }
  if (Array.isArray(node.oneOf) && node.oneOf.every(isSchema)) {
    const merged = mergedOps(node.oneOf);
    if (merged) return compact(merged, defs, used);
  }
  // A union of object shapes its description names in a line (an image's source): that line alone.
  if (Array.isArray(node.anyOf) && typeof node.description === 'string') return { type: 'object', description: node.description };
  // A map whose values a description names: the keys' schema says nothing more.
  if (isSchema(node.propertyNames) && typeof node.description === 'string') return { type: 'object', description: node.description };
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (SERVER_ONLY_KEYWORDS.has(key)) continue;
    // An enum or a constant says its type already.
    if (key === 'type' && ('enum' in node || 'const' in node)) continue;
    out[key] = compact(value, defs, used);
  }
  return out;
}

function inputSchema(schema: z.ZodType, unlisted: ReadonlySet<string>): Record<string, unknown> {
  const defs = new Map<string, { json: string; schema: JsonSchema }>();
  for (const [name, definition] of Object.entries(DEFINITIONS)) {
    const json = z.toJSONSchema(definition, { io: 'input' });
    defs.set(name, { json: withoutDescription(json), schema: compact(json, new Map(), new Set()) as JsonSchema });
  }
  const used = new Set<string>();
  const compacted = compact(z.toJSONSchema(schema, { io: 'input' }), defs, used) as JsonSchema;
  if (isSchema(compacted.properties)) {
    compacted.properties = Object.fromEntries(
      Object.entries(compacted.properties)
        .filter(([key]) => !unlisted.has(key))
        .map(([key, value]) => [key, LISTED_AS[key] ?? value]),
    );
  }
  if (used.size > 0) compacted.$defs = Object.fromEntries([...used].map((name) => [name, defs.get(name)?.schema]));
  return compacted;
}

export interface ToolDefinition {
  name: ToolName;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function toolDefinitions(): ToolDefinition[] {
  // Every answer is the envelope (ok, result | error{code,message,details}), described once in
  // context's usage text rather than repeated as an output schema on every tool.
  return TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema(tool.args, UNLISTED_ARGUMENTS),
  }));
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

export function toToolResult(envelope: Envelope): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: { ...envelope },
    isError: !envelope.ok,
  };
}

/**
 * The language explanations come in when a request does not say: `TETHER_LANG` from the MCP
 * client's server configuration (`"env": {"TETHER_LANG": "ko"}`), else English. (The MCP
 * initialize handshake carries no locale to go by.)
 */
export function defaultLang(setting: string | undefined): Lang {
  return setting?.trim().toLowerCase() === 'ko' ? 'ko' : 'en';
}

/** One tool call; `agent` is this MCP session (the envelope carries it: the arguments cannot). */
export async function callTool(link: Link, name: string, args: unknown, callId: string, lang: Lang = 'en', agent?: AgentIdentity): Promise<Envelope> {
  const parsed = parseAgentRequest(name, args);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const request = parsed.value;
  let sent: Record<string, unknown> = request.args;
  // An act's image files are read here, as the user, and checked before anything is sent.
  if (request.tool === 'act' && request.args.plan) {
    const plan = await attachImageFiles(request.args.plan);
    if (!plan.ok) return { ok: false, error: plan.error };
    sent = { ...request.args, plan: plan.value };
  }
  const forwarded = request.args.lang === undefined && lang !== 'en' ? { ...sent, lang } : sent;
  const envelope = await link.call({ tool: request.tool, args: forwarded, ...(agent ? { agent } : {}) });
  return request.args.debug === true ? { ...envelope, meta: { ...envelope.meta, callId } } : envelope;
}
