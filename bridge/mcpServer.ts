/** The MCP server on stdio, built on the SDK's low-level Server so refusals keep Tether's envelope. */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { USAGE } from '../shared/usage.ts';
import type { Link } from './link.ts';
import { callTool, defaultLang, toToolResult, toolDefinitions } from './mcpTools.ts';
import { TETHER_VERSION } from './version.ts';

/**
 * The SDK validates JSON Schemas only for elicitation, which Tether never asks for; its default
 * validator (Ajv) costs a noticeable part of every start, so the server gets one that refuses.
 */
const noSchemaValidation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'Tether asks for no elicitation.' }),
};

export function createMcpServer(link: Link): Server {
  const server = new Server(
    { name: 'tether', version: TETHER_VERSION },
    { capabilities: { tools: {} }, instructions: USAGE, jsonSchemaValidator: noSchemaValidation },
  );
  let calls = 0;
  const lang = defaultLang(process.env.TETHER_LANG);
  const tools = toolDefinitions();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls += 1;
    const envelope = await callTool(link, request.params.name, request.params.arguments, `mcp-${process.pid}-${calls}`, lang);
    return toToolResult(envelope);
  });
  return server;
}

export async function serveStdio(link: Link): Promise<Server> {
  const server = createMcpServer(link);
  await server.connect(new StdioServerTransport());
  return server;
}
