/**
 * The first two lifecycle checks of every agent request, shared by the bridge (so an agent hears
 * about a malformed or incomplete request even when no browser is connected) and the service
 * worker (which trusts nothing it did not check itself): schema (invalid_request), then context
 * completeness (missing_context, naming exactly the missing fields — R9). Each tool's own checks
 * are in its record (background/tools/defineTool.ts): this finds the record and asks it.
 */
import { TOOLS, type ToolArgs } from '../../background/tools/registry.ts';
import { failure, success, tetherError, type Outcome } from '../errors.ts';
import { TOOL_NAMES, type ToolName } from './agentProtocol.ts';

/** A request that passed, as its tool's arguments. */
export type ParsedRequest<K extends ToolName = ToolName> = { [T in K]: { tool: T; args: ToolArgs[T] } }[K];

/** A tool name as text for messages and records, whatever was sent (never throws). */
export function toolLabel(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 40) : `(${value === null ? 'null' : typeof value})`;
}

export function isToolName(value: unknown): value is ToolName {
  return typeof value === 'string' && (TOOL_NAMES as readonly string[]).includes(value);
}

function parsedAs<K extends ToolName>(tool: K, args: object): Outcome<ParsedRequest<K>> {
  const record = TOOLS.find((candidate) => candidate.name === tool);
  if (!record) return failure(tetherError('invalid_request', `Unknown tool. Use one of: ${TOOL_NAMES.join(', ')}.`, { tool }));
  const parsed = record.parse(args);
  // The record was found by this very name: its arguments are this tool's (TypeScript cannot follow `find`).
  return parsed.ok ? success({ tool, args: parsed.value } as ParsedRequest<K>) : parsed;
}

export function parseAgentRequest(tool: unknown, rawArgs: unknown): Outcome<ParsedRequest> {
  if (!isToolName(tool)) {
    return failure(tetherError('invalid_request', `Unknown tool. Use one of: ${TOOL_NAMES.join(', ')}.`, { tool: toolLabel(tool) }));
  }
  const args = rawArgs ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    return failure(tetherError('invalid_request', 'Arguments must be a JSON object.'));
  }
  return parsedAs(tool, args);
}
