/**
 * The MCP server, built on the SDK's low-level Server so refusals keep Tether's envelope. main.ts
 * loads this module (and with it the SDK) only after the client's first answers are out: it
 * connects to the transport that gave them (stdioFrontDoor.ts).
 */
import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { agentNameOf, type AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import { BUILT_TOOL_LIST } from './builtFacts.ts';
import type { Link } from './browserLink.ts';
import type { ToolDefinition } from './mcpTools.ts';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from './serverIdentity.ts';

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
    { ...SERVER_INFO },
    { capabilities: { ...SERVER_CAPABILITIES }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: noSchemaValidation },
  );
  let calls = 0;
  // This MCP session's key: drawn once, a secret of this process (see shared/agent/agentIdentity.ts).
  const session = randomBytes(16).toString('hex');
  /** Who this session is: the client's own name from its `initialize`, known by the time it calls a tool. */
  const agent = (): AgentIdentity => ({ name: agentNameOf(server.getClientVersion()), session });
  let tools: Promise<ToolDefinition[]> | null = BUILT_TOOL_LIST ? Promise.resolve(BUILT_TOOL_LIST) : null;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await (tools ??= loadTools().then((module) => module.toolDefinitions())) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls += 1;
    const callId = `mcp-${process.pid}-${calls}`;
    const { callTool, defaultLang, toToolResult } = await loadTools();
    const envelope = await callTool(link, request.params.name, request.params.arguments, callId, defaultLang(process.env.TETHER_LANG), agent());
    return toToolResult(envelope);
  });
  server.oninitialized = initialized;
  return server;
}

export async function serve(link: Link, transport: Transport, initialized?: () => void): Promise<Server> {
  const server = createMcpServer(link, initialized);
  await server.connect(transport);
  return server;
}
