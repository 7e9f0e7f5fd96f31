/**
 * Launches a Chromium with Tether's unpacked extension in a profile folder of its own, the way a
 * person's browser runs it: no viewport emulation, the back/forward cache on, nothing that talks to
 * the network by itself. Branded Google Chrome ignores `--load-extension` since version 137, so
 * this needs a Chromium (Debian's, Playwright's, or another build).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from '@playwright/test';
import { EXTENSION_DIR } from './paths.ts';

export interface ChromiumOptions {
  /** The browser profile folder (a fresh temporary one by default). */
  userDataDir?: string;
  /** The Chromium to run: TETHER_CHROMIUM, else /usr/bin/chromium when there is one, else Playwright's own. */
  executablePath?: string;
  headless?: boolean;
  /** Browser UI language, e.g. "ko" for Tether's Korean panel. */
  lang?: string;
  /** More Chromium flags, e.g. `--host-resolver-rules=MAP blog.example 127.0.0.1:8080`. */
  args?: string[];
  /** Tether's unpacked build (the package's own `dist/` by default). */
  extensionDir?: string;
  /** Other unpacked extensions to load next to Tether. */
  extraExtensions?: string[];
}

export interface LaunchedChromium {
  context: BrowserContext;
  extensionId: string;
  userDataDir: string;
}

/** The Chromium a launch uses when none is named. */
export function defaultChromium(): string | undefined {
  if (process.env.TETHER_CHROMIUM) return process.env.TETHER_CHROMIUM;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
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

export async function launchChromium(options: ChromiumOptions = {}): Promise<LaunchedChromium> {
  const extensionDir = options.extensionDir ?? EXTENSION_DIR;
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No built extension at ${extensionDir}: run npm run build first.`);
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'tether-profile-'));
  const executablePath = options.executablePath ?? defaultChromium();
  const context = await chromium.launchPersistentContext(userDataDir, {
    ...(executablePath ? { executablePath } : {}),
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
      ...chromiumArgs([extensionDir, ...(options.extraExtensions ?? [])]),
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
