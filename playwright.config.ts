import { execFileSync } from 'node:child_process';
import { defineConfig, type Project } from '@playwright/test';
import { BOTH_BROWSERS, DEFAULT_FIREFOX, FIREFOX_ONLY, FIREFOX_WITH_DOCUMENT_IDS, WITHOUT_DOCUMENT_IDS, type TetherBrowser } from './e2e/tetherBrowsers.ts';

/**
 * End-to-end suites: the test build of the extension (dist-test/: the product plus the demo sites'
 * adapters) in Debian's Chromium, against the local sites in e2e/sites; one spec checks the product
 * build (dist/) carries none of the demo sites. Each test gets a fresh browser profile;
 * `npm run build && npm run build:test` must have run first (`npm test` does it).
 *
 * The Firefox project runs the tests declared `inBothBrowsers` (and e2e/firefox/) with Firefox's
 * test build (dist-firefox-test/, `npm run build:firefox-test`) in Debian's firefox-esr.
 * TETHER_FIREFOX names the binary; several, separated by ":", make one project each (e.g. ESR 153
 * and 140).
 */
interface TetherOptions {
  tetherBrowser: TetherBrowser;
  firefoxPath: string | undefined;
}

function firefoxVersion(binary: string): string {
  try {
    const printed = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    return /(\d+)\.\d+/.exec(printed)?.[1] ?? 'unknown';
  } catch {
    return 'missing';
  }
}

const firefoxBinaries = (process.env.TETHER_FIREFOX ?? DEFAULT_FIREFOX).split(':').filter(Boolean);
const firefoxProjects: Array<Project<TetherOptions>> = firefoxBinaries.map((binary) => {
  const version = firefoxVersion(binary);
  const hasDocumentIds = Number(version) >= FIREFOX_WITH_DOCUMENT_IDS;
  return {
    name: firefoxBinaries.length === 1 ? 'firefox' : `firefox-${version}`,
    testMatch: ['**/*.spec.ts'],
    grep: [new RegExp(BOTH_BROWSERS), new RegExp(FIREFOX_ONLY)],
    ...(hasDocumentIds ? { grepInvert: [new RegExp(WITHOUT_DOCUMENT_IDS)] } : {}),
    use: { tetherBrowser: 'firefox', firefoxPath: binary },
  };
});

export default defineConfig<TetherOptions>({
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
    // A regex, not a glob: globs match the whole path, and a checkout may sit in a folder named firefox.
    { name: 'e2e', testIgnore: ['**/reliability/**', /\/e2e\/firefox\//] },
    { name: 'reliability', testMatch: 'reliability/**/*.spec.ts' },
    ...firefoxProjects,
  ],
});
