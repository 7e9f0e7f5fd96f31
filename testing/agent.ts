/**
 * A real MCP client (the SDK's Client over stdio) that spawns the compiled MCP server
 * (`node dist-bridge/tether-mcp.js`, the file `npx tether-mcp` runs once the package is
 * installed), as an agent's host does from the MCP client configuration in the README.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from '@playwright/test';
import type { ToolEnvelope, ToolName } from '../shared/agent/agentProtocol.ts';
import type { NativeSandbox } from './native.ts';
import type { McpServerConfig } from './serverConfig.ts';
import { PACKAGE_ROOT, TETHER_MCP } from './paths.ts';

let nextPort = 17400 + (process.pid % 200) * 3;

export interface AgentOptions {
  port?: number;
  token?: string;
  configDir?: string;
  /**
   * The native path: the sandbox whose hosts this bridge finds (its TETHER_HOME and config
   * folder; the token is the one in that folder). Without it, the bridge gets an empty home of its
   * own, so it never finds hosts of browsers that are not the test's.
   */
  native?: NativeSandbox;
  /** More environment for the bridge (e.g. TETHER_DIRECT=off, TETHER_LANG=ko). */
  env?: Record<string, string>;
  /** What the client says of itself in `initialize` (its name is the agent's name in Tether). */
  clientInfo?: { name: string; version: string; title?: string };
}

/** What the MCP server needs to be started by another MCP client (your agent): the same server, the same browser. */
export type { McpServerConfig } from './serverConfig.ts';

/** What `pair` needs of a running Tether: its runtime messages. */
export interface Pairable {
  must(request: { type: 'connection.set'; token: string; port: number }): Promise<unknown>;
  state(): Promise<{ connection: { state: string } }>;
}

/** Whether something accepts connections on the loopback port now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class McpAgent {
  private constructor(
    readonly client: Client,
    readonly port: number,
    readonly token: string,
    readonly stderr: string[],
    /** Every JSON-RPC message this client received from its server, in order. */
    readonly received: unknown[],
    /** The ids of every request this client sent. */
    readonly sent: Array<string | number>,
    /** How to start this same server from another MCP client. */
    readonly server: McpServerConfig,
  ) {}

  static async start(options: AgentOptions = {}): Promise<McpAgent> {
    const port = options.port ?? (nextPort += 1);
    const token = options.token ?? `test-token-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.native?.env ?? process.env)) if (value !== undefined) env[key] = value;
    env.TETHER_PORT = String(port);
    Object.assign(env, options.env);
    if (options.native) {
      delete env.TETHER_TOKEN;
    } else {
      env.TETHER_TOKEN = token;
      env.TETHER_CONFIG_DIR = options.configDir ?? mkdtempSync(join(tmpdir(), 'tether-config-'));
      env.TETHER_HOME = mkdtempSync(join(tmpdir(), 'tether-home-'));
    }
    const server: McpServerConfig = { command: process.execPath, args: [TETHER_MCP], env };
    const transport = new StdioClientTransport({ ...server, cwd: PACKAGE_ROOT, stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client(options.clientInfo ?? { name: 'tether-e2e', version: '1.0.0' });
    const received: unknown[] = [];
    const sent: Array<string | number> = [];
    // What crosses this client's own stdio, both ways: a test can tell whether anything reached it that it did not ask for.
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      if ('id' in message && 'method' in message) sent.push(message.id);
      return send(message);
    };
    await client.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      received.push(message);
      deliver?.(message);
    };
    // The server starts its browser side (the loopback hub among it) just after the MCP handshake,
    // not before it (bridge/main.ts): tests that reach the port themselves start once it listens.
    await expect.poll(() => accepts(port), { timeout: 10_000, intervals: [5] }).toBe(true);
    return new McpAgent(client, port, token, stderr, received, sent, server);
  }

  /** One tool call; the answer is read as that tool's envelope (the assertions check what it holds). */
  async call<T extends ToolName>(tool: T, args: Record<string, unknown> = {}, options: { timeoutMs?: number } = {}): Promise<ToolEnvelope<T>> {
    const result = await this.client.callTool({ name: tool, arguments: args }, undefined, options.timeoutMs ? { timeout: options.timeoutMs } : undefined);
    const envelope = result.structuredContent as ToolEnvelope<T> | undefined;
    if (!envelope) throw new Error(`no structured content from ${tool}`);
    expect(result.isError === true).toBe(!envelope.ok);
    return envelope;
  }

  /** The tool names the server lists, in order. */
  async tools(): Promise<string[]> {
    return (await this.client.listTools()).tools.map((tool) => tool.name);
  }

  /** Pastes this bridge's token into the extension, as the person does once, and waits for the link (the token fallback). */
  async pair(tether: Pairable): Promise<void> {
    await tether.must({ type: 'connection.set', token: this.token, port: this.port });
    await expect.poll(async () => (await tether.state()).connection.state, { timeout: 15_000 }).toBe('connected');
  }

  private closed = false;

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}
