/**
 * One Tether for the benchmarks: demo sites, Chromium with the built extension, a shared
 * workspace over the blog editor and a cafe post, and an MCP client whose `tether-mcp` the
 * extension is paired with — the same path an agent uses.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from '@playwright/test';
import type { ToolEnvelope, ToolName } from '../shared/protocol.ts';
import { startSites, type RunningSites } from '../e2e/sites/server.ts';
import { launchTether, type LaunchedTether } from '../e2e/support/launchTether.ts';
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
  /** One tool call: the answer as that tool's envelope, and what the model reads of it (the text content). */
  call<T extends ToolName>(tool: T, args?: Record<string, unknown>): Promise<{ envelope: ToolEnvelope<T>; text: string }>;
  close(): Promise<void>;
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
  const launched = await launchTether();
  const driver = new TetherDriver(launched.context, launched.extensionId, sites);
  await driver.signIn('blog', 'alice');
  await driver.signIn('cafe', 'alice_k');
  const blog = await driver.open('blog', '/write?editor=plain');
  const cafe = await driver.open('cafe', '/posts/1');
  await blog.waitForFunction(() => 'blogEditor' in window);
  const workspace = await driver.workspaceOf([blog, cafe], { name: 'Bench', writable: ['blog'], publishWithoutApproval: true });

  const port = 19000 + (process.pid % 500);
  const token = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, { TETHER_PORT: String(port), TETHER_TOKEN: token, TETHER_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'tether-bench-')), TETHER_HOME: mkdtempSync(join(tmpdir(), 'tether-bench-home-')) });
  const transport = new StdioClientTransport({ command: 'node', args: [resolve(import.meta.dirname, '..', 'dist-bridge', 'tether-mcp.js'), '--quiet'], env, stderr: 'ignore' });
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  await client.connect(transport);
  await driver.must({ type: 'connection.set', token, port });
  await waitFor(async () => (await driver.state()).connection.state === 'connected', 'the extension to connect');

  const call = async <T extends ToolName>(tool: T, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join('');
    return { envelope: result.structuredContent as ToolEnvelope<T>, text };
  };
  return {
    sites,
    launched,
    driver,
    client,
    blog,
    cafe,
    profile: await driver.profileId(),
    workspace: workspace.id,
    call,
    async close() {
      await client.close();
      await launched.context.close();
      await sites.close();
    },
  };
}
