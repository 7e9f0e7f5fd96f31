import { defineConfig } from '@playwright/test';

/**
 * End-to-end suites: the test build of the extension (dist-test/: the product plus the demo sites'
 * adapters) in Debian's Chromium, against the local sites in e2e/sites; one spec checks the product
 * build (dist/) carries none of the demo sites. Each test gets a fresh browser profile;
 * `npm run build && npm run build:test` must have run first (`npm test` does it).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list'], ['github']] : [['list']],
  outputDir: 'test-results/playwright',
  // Prints the Chromium version it runs on; resets, then prints, the reliability suite's counts.
  globalSetup: './e2e/reliabilityCounts.ts',
  projects: [
    { name: 'e2e', testIgnore: ['**/reliability/**'] },
    { name: 'reliability', testMatch: 'reliability/**/*.spec.ts' },
  ],
});
