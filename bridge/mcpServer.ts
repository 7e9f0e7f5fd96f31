/** The MCP server on stdio, built on the SDK's low-level Server so refusals keep Tether's envelope. */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { USAGE } from '../shared/usage.ts';
import type { Link } from './link.ts';
import type { ToolDefinition } from './mcpTools.ts';
import { TETHER_VERSION } from './version.ts';

/**
 * The tool list, computed by the build from toolDefinitions() (scripts/buildBridge.mjs): the
 * compiled server answers `tools/list` without building Tether's schemas. From source it is
 * computed on first use.
 */
declare const __TETHER_TOOL_LIST__: ToolDefinition[] | undefined;

/**
 * The SDK validates JSON Schemas only for elicitation, which Tether never asks for; its default
 * validator (Ajv) costs a noticeable part of every start, so the server gets one that refuses.
 */
const noSchemaValidation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'Tether asks for no elicitation.' }),
};

/** Tether's schemas and validation: loaded at the first call (the build keeps them in a chunk of their own). */
const loadTools = () => import('./mcpTools.ts');

/** `initialized`: called once the client has the server's answer to `initialize`. */
export function createMcpServer(link: Link, initialized?: () => void): Server {
  const server = new Server(
    { name: 'tether', version: TETHER_VERSION },
    { capabilities: { tools: {} }, instructions: USAGE, jsonSchemaValidator: noSchemaValidation },
  );
  let calls = 0;
  let tools: Promise<ToolDefinition[]> | null = typeof __TETHER_TOOL_LIST__ === 'undefined' ? null : Promise.resolve(__TETHER_TOOL_LIST__);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await (tools ??= loadTools().then((module) => module.toolDefinitions())) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls += 1;
    const callId = `mcp-${process.pid}-${calls}`;
    const { callTool, defaultLang, toToolResult } = await loadTools();
    const envelope = await callTool(link, request.params.name, request.params.arguments, callId, defaultLang(process.env.TETHER_LANG));
    return toToolResult(envelope);
  });
  server.oninitialized = initialized;
  return server;
}

export async function serveStdio(link: Link, initialized?: () => void): Promise<Server> {
  const server = createMcpServer(link, initialized);
  await server.connect(new StdioServerTransport());
  return server;
}
