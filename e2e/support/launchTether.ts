/**
 * Launches Debian's Chromium with the built extension, as tests, benchmarks and `npm start` use it:
 * the test build (`npm run build:test`, dist-test/), which adds the demo sites' adapters. The launch
 * itself is the testing kit's (testing/chromium.ts), which testers get as `tether-mcp/testing`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { launchChromium } from '../../testing/chromium.ts';

export { chromiumArgs } from '../../testing/chromium.ts';

/** The product build (`npm run build`). */
export const DIST = resolve(import.meta.dirname, '..', '..', 'dist');
/** The test build (`npm run build:test`) that tests load: the product plus the demo sites' adapters. */
export const TEST_DIST = resolve(import.meta.dirname, '..', '..', 'dist-test');
export const CHROMIUM = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';

export interface LaunchOptions {
  userDataDir?: string;
  headless?: boolean;
  /** Browser UI language, e.g. "ko" for the Korean screenshots. */
  lang?: string;
  args?: string[];
  /** Other unpacked extensions to load next to Tether (e.g. a hostile one, in the reliability suite). */
  extraExtensions?: string[];
  /** Tether's unpacked build to load instead of the test build (a copy a test changed). */
  extensionDir?: string;
}

export interface LaunchedTether {
  context: BrowserContext;
  extensionId: string;
  userDataDir: string;
}

export async function launchTether(options: LaunchOptions = {}): Promise<LaunchedTether> {
  if (!existsSync(join(TEST_DIST, 'manifest.json'))) throw new Error(`No built extension at ${TEST_DIST}: run npm run build:test first.`);
  return launchChromium({ ...options, executablePath: CHROMIUM, extensionDir: options.extensionDir ?? TEST_DIST });
}
