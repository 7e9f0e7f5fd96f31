import type { ToolDefinition } from '../bridge/mcpTools.ts';

export function compiledToolList(scratch: string): Promise<ToolDefinition[]>;
