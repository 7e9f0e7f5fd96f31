/**
 * Playwright fixtures: the demo sites (one server per worker, reset per test) and a fresh Chromium
 * profile with the built extension per test.
 */
import { test as base, expect } from '@playwright/test';
import { rmSync } from 'node:fs';
import { startSites, type RunningSites } from './sites/server.ts';
import { HOST_RULES } from './sites/siteFixtures.ts';
import { launchTether } from './support/launchTether.ts';
import { McpAgent } from './support/mcpAgent.ts';
import { TetherDriver } from './support/tetherDriver.ts';

interface WorkerFixtures {
  sites: RunningSites;
}

interface TestFixtures {
  tether: TetherDriver;
  /** An MCP client with its own `npx tether-mcp`, not yet paired with the browser. */
  agent: McpAgent;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  sites: [
    async ({}, use) => {
      const sites = await startSites();
      await use(sites);
      await sites.close();
    },
    { scope: 'worker' },
  ],
  tether: async ({ sites }, use) => {
    sites.reset();
    // The real sites' hosts (blog.naver.com, …) reach the local fixtures of their markup.
    const launched = await launchTether({ args: [HOST_RULES] });
    const driver = new TetherDriver(launched.context, launched.extensionId, sites);
    await use(driver);
    await launched.context.close();
    rmSync(launched.userDataDir, { recursive: true, force: true });
  },
  agent: async ({}, use) => {
    const agent = await McpAgent.start();
    await use(agent);
    await agent.close();
  },
});

export { expect };
