/**
 * docs/protocol.md's tool reference, written from the records (registry.ts): each tool's line,
 * the context it needs, the handle role it uses, and its arguments with what their schema says.
 * `npm run docs:tools` writes it between the markers; toolReference.test.ts fails when the file
 * is stale, so CI (the unit tests) catches a record changed without its reference.
 */
import { z } from 'zod';
import type { ToolName } from '../../shared/agent/agentProtocol.ts';
import type { ContextNeed } from './defineTool.ts';

export const REFERENCE_START = '<!-- tool-reference: generated from background/tools/registry.ts by `npm run docs:tools`; do not edit by hand -->';
export const REFERENCE_END = '<!-- /tool-reference -->';

/** What every tool takes, said once instead of in every tool's list. */
const EVERY_TOOL = new Set(['lang', 'debug']);

/** The part of a record the reference reads. */
export interface ReferencedTool {
  name: ToolName;
  description: string;
  args: z.ZodType;
  needs: { context: readonly ContextNeed[]; role?: 'any' | 'write' };
}

type JsonSchema = { [key: string]: unknown };
const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

export function renderToolReference(tools: readonly ReferencedTool[]): string {
  const lines = [REFERENCE_START, '', '| tool | needs | arguments | what it does |', '| --- | --- | --- | --- |'];
  const notes: string[] = [];
  for (const tool of tools) {
    const json = z.toJSONSchema(tool.args, { io: 'input', unrepresentable: 'any' });
    const properties = isSchema(json.properties) ? json.properties : {};
    const args = Object.keys(properties).filter((key) => !EVERY_TOOL.has(key));
    const needs = [...tool.needs.context, ...(tool.needs.role === 'write' ? ['a write handle'] : tool.needs.role === 'any' ? ['a handle of either role'] : [])];
    lines.push(
      `| \`${tool.name}\` | ${needs.length > 0 ? needs.join(', ') : '—'} | ${args.map((key) => `\`${key}\``).join(', ') || '—'} | ${tool.description} |`,
    );
    for (const key of args) {
      const described = properties[key];
      if (isSchema(described) && typeof described.description === 'string') notes.push(`- \`${tool.name}.${key}\`: ${described.description}`);
    }
  }
  lines.push('', 'Every tool also takes `lang` (`"en"` or `"ko"`) and `debug` (`true`: diagnostics in `meta`).');
  if (notes.length > 0) lines.push('', ...notes);
  lines.push('', REFERENCE_END);
  return lines.join('\n');
}

/** The document with its reference section replaced; null when the markers are missing. */
export function withToolReference(document: string, reference: string): string | null {
  const start = document.indexOf(REFERENCE_START);
  const end = document.indexOf(REFERENCE_END);
  if (start < 0 || end < start) return null;
  return document.slice(0, start) + reference + document.slice(end + REFERENCE_END.length);
}
