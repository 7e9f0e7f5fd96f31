/**
 * Playwright fixtures: the demo sites (one server per worker, reset per test) and a fresh Chromium
 * profile with the built extension per test.
 *
 * `inBothBrowsers(title, BOTH, body)` declares a test that also runs in Firefox: its `tether` is a TetherClient,
 * Chromium's driver in the Chromium projects and Firefox's in the Firefox project (the
 * `tetherBrowser` option of playwright.config.ts), with the same steps and assertions.
 */
import { test as base, expect } from '@playwright/test';
import { rmSync } from 'node:fs';
import { startSites, type RunningSites } from './sites/server.ts';
import { HOST_RULES } from './sites/siteFixtures.ts';
import { FirefoxTether } from './support/firefox/firefoxTether.ts';
import { launchTether } from './support/launchTether.ts';
import { McpAgent } from './support/mcpAgent.ts';
import type { TetherClient } from './support/tetherClient.ts';
import { TetherDriver } from './support/tetherDriver.ts';
import { BOTH_BROWSERS, FIREFOX_ONLY, WITHOUT_DOCUMENT_IDS, type TetherBrowser } from './tetherBrowsers.ts';

interface WorkerFixtures {
  sites: RunningSites;
  /** Which browser the tests of `inBothBrowsers` run in (a project option). */
  tetherBrowser: TetherBrowser;
  /** The Firefox binary of the Firefox project (TETHER_FIREFOX). */
  firefoxPath: string | undefined;
}

interface AgentFixtures {
  /** An MCP client with its own `npx tether-mcp`, not yet paired with the browser. */
  agent: McpAgent;
}

const withSites = base.extend<AgentFixtures, WorkerFixtures>({
  tetherBrowser: ['chromium', { option: true, scope: 'worker' }],
  firefoxPath: [undefined, { option: true, scope: 'worker' }],
  sites: [
    async ({}, use) => {
      const sites = await startSites();
      await use(sites);
      await sites.close();
    },
    { scope: 'worker' },
  ],
  agent: async ({}, use) => {
    const agent = await McpAgent.start();
    await use(agent);
    await agent.close();
  },
});

async function useChromium(sites: RunningSites, use: (driver: TetherDriver) => Promise<void>): Promise<void> {
  sites.reset();
  // The real sites' hosts (blog.naver.com, …) reach the local fixtures of their markup.
  const launched = await launchTether({ args: [HOST_RULES] });
  const driver = new TetherDriver(launched.context, launched.extensionId, sites);
  await use(driver);
  await launched.context.close();
  rmSync(launched.userDataDir, { recursive: true, force: true });
}

export const test = withSites.extend<{ tether: TetherDriver }>({
  tether: async ({ sites }, use) => useChromium(sites, use),
});

async function useFirefox(sites: RunningSites, firefoxPath: string | undefined, use: (firefox: FirefoxTether) => Promise<void>): Promise<void> {
  sites.reset();
  const firefox = await FirefoxTether.launch(sites, firefoxPath ? { firefox: firefoxPath } : {});
  await use(firefox);
  await firefox.close();
}

const crossBrowser = withSites.extend<{ tether: TetherClient }>({
  tether: async ({ sites, tetherBrowser, firefoxPath }, use) => (tetherBrowser === 'chromium' ? useChromium(sites, use) : useFirefox(sites, firefoxPath, use)),
});

/**
 * A test that runs in Chromium and in Firefox, against the TetherClient each browser gives:
 * `inBothBrowsers(title, BOTH, body)` (the tag is what the Firefox project selects).
 */
export const inBothBrowsers = crossBrowser;
export const BOTH = { tag: BOTH_BROWSERS };

/** Tests of what only Firefox has (e2e/firefox/): `firefoxOnly(title, FIREFOX, body)`, run by the Firefox project. */
export const firefoxOnly = withSites.extend<{ firefox: FirefoxTether }>({
  firefox: async ({ sites, firefoxPath }, use) => useFirefox(sites, firefoxPath, use),
});
export const FIREFOX = { tag: FIREFOX_ONLY };
/** A Firefox-only test for a Firefox without documentIds (run only by such a project; see tetherBrowsers.ts). */
export const FIREFOX_WITHOUT_DOCUMENT_IDS = { tag: [FIREFOX_ONLY, WITHOUT_DOCUMENT_IDS] };

export { expect };
