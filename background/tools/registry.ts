/**
 * The agent tools, in the order the MCP tool list and the reference give them. Everything else
 * about a tool — parsing, dispatch, the tool list, the docs — is read from these records.
 */
import type { z } from 'zod';
import type { ToolName } from '../../shared/agent/agentProtocol.ts';
import type { ToolResults } from '../../shared/agent/results.ts';
import { actTool } from './actTool.ts';
import { contextTool } from './contextTool.ts';
import type { ToolHandler } from './defineTool.ts';
import { inspectTool } from './inspectTool.ts';
import { resolveTool } from './resolveTool.ts';

export const TOOLS = [contextTool, resolveTool, inspectTool, actTool] as const;

type Records = (typeof TOOLS)[number];

/** Each tool's arguments, by name, as its schema parses them. */
export type ToolArgs = { [R in Records as R['name']]: z.infer<R['args']> };

/** Each tool's handler, by name: what the harness dispatches to (tests hand it fakes). */
export type ToolHandlers = { [N in ToolName]: ToolHandler<ToolArgs[N], ToolResults[N]> };

// Every wire name has exactly one record (a record's result type is checked in TOOL_HANDLERS).
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _everyName: Exactly<Records['name'], ToolName> = true;

/** The handlers of the records, for the harness. */
export const TOOL_HANDLERS: ToolHandlers = {
  context: contextTool.handler,
  resolve: resolveTool.handler,
  inspect: inspectTool.handler,
  act: actTool.handler,
};

/** One tool's record, by name. */
export function toolRecord<N extends ToolName>(name: N): Extract<Records, { name: N }> {
  const record = TOOLS.find((tool): tool is Extract<Records, { name: N }> => tool.name === name);
  if (!record) throw new Error(`No record for tool ${name}`);
  return record;
}
