import type { ToolDefinition } from '../bridge/mcp/mcpTools.ts';

export function compiledToolList(scratch: string): Promise<ToolDefinition[]>;
