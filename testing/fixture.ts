/**
 * The `@playwright/test` fixture: every test gets its own `tether` (a Chromium with Tether, its
 * native host in the test's own folder, an agent connected to it), and Playwright's `context` and
 * `page` are that browser's, so `page` is a tab Tether sees. Options: `test.use({ tetherOptions })`.
 */
import { test as base } from '@playwright/test';
import { Tether, type TetherOptions } from './tether.ts';

export interface TetherFixtures {
  tether: Tether;
}

export interface TetherFixtureOptions {
  /** How the browser is launched (`executablePath`, `headless`, `lang`, `args`, …) and the agent's environment. */
  tetherOptions: TetherOptions;
}

export const test = base.extend<TetherFixtures & TetherFixtureOptions>({
  tetherOptions: [{}, { option: true }],
  tether: async ({ tetherOptions }, use, testInfo) => {
    const tether = await Tether.start(tetherOptions);
    try {
      await use(tether);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('tether host.log', { body: tether.hostLog() || '(empty)', contentType: 'text/plain' });
        await testInfo.attach('tether-mcp stderr', { body: tether.agent.stderr.join('') || '(empty)', contentType: 'text/plain' });
      }
      await tether.close();
    }
  },
  context: async ({ tether }, use) => use(tether.context),
  page: async ({ tether }, use) => use(await tether.context.newPage()),
});

export { expect } from '@playwright/test';
