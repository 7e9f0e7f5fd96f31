/**
 * The four MCP tools, exactly: context, resolve, inspect, act. Small schemas, descriptions written
 * for a model. Every answer is Tether's envelope; a refusal is a tool result with isError: true
 * and the envelope as structuredContent. Malformed or incomplete requests are refused here, with
 * the same codes the extension uses, whether or not a browser is connected.
 */
import { z } from 'zod';
import { parseAgentRequest } from '../shared/parseAgentRequest.ts';
import { TOOL_SCHEMAS, type Envelope, type ToolName } from '../shared/protocol.ts';
import type { Link } from './link.ts';

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  context:
    'Start here. Lists connected browser profiles, the workspaces the person shared with agents, their tabs (tabId, title, url, whether the site is writable), the view, the request-time tab, and programs with their targets. With no arguments it also explains how to use the other tools. Reads nothing inside pages.',
  resolve:
    'Choose the tabs for a task in one shared workspace: a write target (where text goes) and references (only read). Name tabs by site ("blog", "cafe.naver.com", "네이버 카페"), url, title words, tabId or an earlier handle; omit destination to use the continued program or the active tab. Returns opaque handles and a one-line explanation for the person. Refuses (ambiguous_target with candidates, target_not_found, read_only_target, role_conflict, not_signed_in, draft_in_progress, target_busy…) rather than guess.',
  inspect:
    'Read one page through a handle: url, title, sign-in and account, editable fields (name, kind, length, hash), whether a draft is in progress, named actions, readable regions. Pass read:["post.body"] to get the text of fields or regions. The binding is checked first: context_changed if the tab navigated, closed or left the workspace.',
  act:
    'Run a plan on a write handle: ordered steps fill/append/clear/select on fields and click on named actions. The whole plan is checked before anything runs and every problem is listed; writes expect what the last inspect saw (or expect.hash / expect.text). A failure while running undoes the earlier steps. Publish/submit steps wait for the person’s approval unless the workspace allows them. requestId makes a retry run once; at (ISO time) runs it later.',
};

/** Size limits stay in the server's validation; the model does not need to read them. */
const LIMIT_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', '$schema']);

function compactSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactSchema);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !LIMIT_KEYWORDS.has(key))
      .map(([key, item]) => [key, compactSchema(item)]),
  );
}

export interface ToolDefinition {
  name: ToolName;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function toolDefinitions(): ToolDefinition[] {
  // Every answer is the envelope (ok, result | error{code,message,details}, meta), described once
  // in context's usage text rather than repeated as an output schema on every tool.
  return (Object.keys(TOOL_SCHEMAS) as ToolName[]).map((name) => ({
    name,
    description: TOOL_DESCRIPTIONS[name],
    inputSchema: compactSchema(z.toJSONSchema(TOOL_SCHEMAS[name], { io: 'input' })) as Record<string, unknown>,
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
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
  };
}

export async function callTool(link: Link, name: string, args: unknown, callId: string): Promise<Envelope> {
  const started = Date.now();
  const parsed = parseAgentRequest(name, args);
  if (!parsed.ok) {
    const tool = (Object.keys(TOOL_SCHEMAS) as string[]).includes(name) ? (name as ToolName) : 'unknown';
    return { ok: false, error: parsed.error, meta: { tool, callId, tookMs: Date.now() - started } };
  }
  const envelope = await link.call({ tool: parsed.value.tool, args: parsed.value.args });
  return { ...envelope, meta: { ...envelope.meta, callId } };
}
