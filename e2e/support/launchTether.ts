/**
 * Launches Debian's Chromium with the built extension, as tests, benchmarks and `npm start` use it:
 * the test build (`npm run build:test`, dist-test/), which adds the demo sites' adapters.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Worker } from '@playwright/test';

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

/** The flags every Tether launch uses: only these extensions, nothing that talks to the network by itself. */
export function chromiumArgs(extensions: string[]): string[] {
  return [
    `--disable-extensions-except=${extensions.join(',')}`,
    `--load-extension=${extensions.join(',')}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ];
}

export async function launchTether(options: LaunchOptions = {}): Promise<LaunchedTether> {
  if (!existsSync(join(TEST_DIST, 'manifest.json'))) throw new Error(`No built extension at ${TEST_DIST}: run npm run build:test first.`);
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'tether-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: options.headless ?? true,
    // No viewport emulation: the window's own size is the viewport, as in a person's browser.
    // Emulation is also what Chromium 150 cannot take on a discarded tab: Playwright sends it to
    // every new target, including the renderer-less one `chrome.tabs.discard` swaps in, and the
    // browser dies there (SIGSEGV; fixed by 156). Pages that need a size set it themselves.
    viewport: null,
    // Playwright turns the back/forward cache off; a person's browser has it on.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    locale: options.lang ?? 'en-US',
    // On Linux, Chromium takes its UI language (chrome.i18n) from the environment.
    env: { ...process.env, LANGUAGE: options.lang ?? 'en', LANG: options.lang === 'ko' ? 'ko_KR.UTF-8' : 'en_US.UTF-8' },
    args: [
      ...chromiumArgs([options.extensionDir ?? TEST_DIST, ...(options.extraExtensions ?? [])]),
      '--window-size=1200,900',
      ...(options.lang ? [`--lang=${options.lang}`] : []),
      ...(options.args ?? []),
    ],
  });
  const isTether = (worker: Worker) => worker.url().endsWith('/service-worker-loader.js');
  const worker: Worker = context.serviceWorkers().find(isTether) ?? (await context.waitForEvent('serviceworker', { predicate: isTether }));
  const extensionId = new URL(worker.url()).host;
  return { context, extensionId, userDataDir };
}
