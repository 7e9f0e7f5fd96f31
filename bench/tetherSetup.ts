/**
 * One Tether for the benchmarks: demo sites, Chromium with the built extension and the native host
 * installed for its profile (`tether-mcp install`, in a sandbox), a shared workspace over the blog
 * editor and a cafe post, and three MCP clients: one whose `tether-mcp` reaches the browser over the
 * native path as it does by default (the host offers the worker this bridge's loopback port, and
 * its calls go over that direct link), one on the native path told not to offer its port
 * (TETHER_DIRECT=off: every call through the host socket, the host and the native port), and one
 * that finds no host and goes over the WebSocket fallback the extension is paired with by token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from '@playwright/test';
import type { ToolEnvelope, ToolName } from '../shared/agent/agentProtocol.ts';
import { startSites, type RunningSites } from '../e2e/sites/server.ts';
import { launchTether, type LaunchedTether } from '../e2e/support/launchTether.ts';
import { installFor, nativeSandbox, profileMade } from '../e2e/support/nativeSetup.ts';
import { TetherDriver } from '../e2e/support/tetherDriver.ts';

export interface BenchTether {
  sites: RunningSites;
  launched: LaunchedTether;
  driver: TetherDriver;
  client: Client;
  blog: Page;
  cafe: Page;
  profile: string;
  workspace: string;
  /** One tool call over the native path (the direct link): the answer as that tool's envelope, and what the model reads of it (the text content). */
  call: BenchCall;
  /** The same from a bridge on the native path that offers no direct link: through the host. */
  callHost: BenchCall;
  /**
   * The same over the WebSocket fallback (a second MCP server that finds no native host). The
   * extension uses the WebSocket only while no native host serves: call `useWebSocket` first.
   */
  callWs: BenchCall;
  /** From now on the browser has no native host (its manifest removed, the port reopened): the extension connects over the WebSocket. */
  useWebSocket(): Promise<void>;
  close(): Promise<void>;
}

export type BenchCall = <T extends ToolName>(tool: T, args?: Record<string, unknown>) => Promise<{ envelope: ToolEnvelope<T>; text: string }>;

function callOver(client: Client): BenchCall {
  return async (tool, args = {}) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join('');
    return { envelope: result.structuredContent as ToolEnvelope<typeof tool>, text };
  };
}

async function mcpClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: 'node',
    args: [resolve(import.meta.dirname, '..', 'dist-bridge', 'tether-mcp.js'), '--quiet'],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function envWith(extra: Record<string, string>, without: string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !without.includes(key)) env[key] = value;
  return Object.assign(env, extra);
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startBenchTether(): Promise<BenchTether> {
  const sites = await startSites();
  const sandbox = nativeSandbox();
  const userDataDir = mkdtempSync(join(tmpdir(), 'tether-bench-profile-'));
  await installFor(sandbox, userDataDir);
  const launched = await launchTether({ userDataDir });
  const driver = new TetherDriver(launched.context, launched.extensionId, sites);
  await profileMade(driver);
  await driver.signIn('blog', 'alice');
  await driver.signIn('cafe', 'alice_k');
  const blog = await driver.open('blog', '/write?editor=plain');
  const cafe = await driver.open('cafe', '/posts/1');
  await blog.waitForFunction(() => 'blogEditor' in window);
  const workspace = await driver.workspaceOf([blog, cafe], { name: 'Bench', writable: ['blog'], publishWithoutApproval: true });

  // The native agent: finds the host's socket in the sandbox's run folder (its own hub port, unused).
  const nativePort = 19000 + (process.pid % 500);
  const client = await mcpClient(
    envWith({ TETHER_HOME: sandbox.home, TETHER_CONFIG_DIR: sandbox.configDir, TETHER_PORT: String(nativePort) }, ['TETHER_TOKEN']),
  );
  // A second native agent that offers no direct link (its own hub port, never offered): its calls go through the host.
  const hostClient = await mcpClient(
    envWith({ TETHER_HOME: sandbox.home, TETHER_CONFIG_DIR: sandbox.configDir, TETHER_PORT: String(nativePort + 250), TETHER_DIRECT: 'off' }, ['TETHER_TOKEN']),
  );
  await waitFor(async () => {
    const { connection } = await driver.state();
    return connection.native.state === 'connected' && connection.native.bridges > 1 && connection.direct.state === 'connected';
  }, 'the native host to pair with both MCP servers, and the direct link to the first');

  // The WebSocket agent: an empty run folder (no host to find), the extension paired with its hub by token.
  const port = nativePort + 500;
  const token = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const wsClient = await mcpClient(
    envWith({
      TETHER_PORT: String(port),
      TETHER_TOKEN: token,
      TETHER_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'tether-bench-')),
      TETHER_HOME: mkdtempSync(join(tmpdir(), 'tether-bench-home-')),
    }),
  );
  // Paired now; the extension stands by on it while the native host serves.
  await driver.must({ type: 'connection.set', token, port });
  let overWebSocket = false;

  return {
    sites,
    launched,
    driver,
    client,
    blog,
    cafe,
    profile: await driver.profileId(),
    workspace: workspace.id,
    call: callOver(client),
    callHost: callOver(hostClient),
    callWs: callOver(wsClient),
    async useWebSocket() {
      if (overWebSocket) return;
      overWebSocket = true;
      rmSync(join(userDataDir, 'NativeMessagingHosts'), { recursive: true, force: true });
      await driver.must({ type: 'connection.reconnect' });
      await waitFor(async () => (await driver.state()).connection.state === 'connected', 'the extension to connect over the WebSocket');
    },
    async close() {
      await client.close();
      await hostClient.close();
      await wsClient.close();
      await launched.context.close();
      await sites.close();
    },
  };
}
