/**
 * Tether in a real Firefox, for the tests that run in both browsers. Playwright cannot drive
 * Debian's firefox-esr (its BiDi Firefox needs commands ESR lacks), so:
 * - puppeteer-core launches Firefox over WebDriver BiDi, installs the built add-on as a temporary
 *   add-on (`webExtension.install`) and drives the demo sites' pages;
 * - the Remote Debugging Protocol (rdp.ts) reaches Tether's own pages, which BiDi cannot: the test
 *   sends runtime messages from Tether's options page in a tab, as the Chromium tests do, so the
 *   worker sees the same sender (one of its own pages) and the same messages.
 *
 * TETHER_FIREFOX names the binary (default Debian's /usr/bin/firefox-esr).
 */
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { FIREFOX_ADDON_ID } from '../../../scripts/firefoxManifest.ts';
import type { Outcome } from '../../../shared/errors.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../../../shared/extension/uiProtocol.ts';
import type { RunningSites, SiteName } from '../../sites/server.ts';
import { freePort } from '../hubProcess.ts';
import { FIREFOX_LOCAL_DOMAINS } from '../../sites/siteFixtures.ts';
import { DEFAULT_FIREFOX } from '../../tetherBrowsers.ts';
import { TetherClient, type BackgroundStop, type TabPage } from '../tetherClient.ts';
import { AddonTargets, Rdp, type Packet, type TargetForm } from './rdp.ts';

/** Firefox's test build (the product plus the demo sites' adapters), as dist-test/ is Chromium's. */
export const FIREFOX_DIST = resolve(import.meta.dirname, '..', '..', '..', 'dist-firefox-test');

const BACKGROUND_PAGE = '/_generated_background_page.html';
const CONTROL_PAGE = 'extension/options.html';

/**
 * A page in a tab. Puppeteer's own history navigation hangs on Firefox (a page restored from the
 * back/forward cache sends no load event BiDi waits for, and the next `goto` then times out), so
 * pages navigate from inside and the test waits for the new document.
 */
export class FirefoxPage implements TabPage {
  constructor(readonly page: Page) {}

  async goto(url: string): Promise<void> {
    const href = new URL(url).href;
    await this.page.evaluate((target: string) => {
      location.href = target;
    }, href);
    await this.page.waitForFunction((target: string) => location.href === target && document.readyState === 'complete', { polling: 50 }, href);
  }

  async reload(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __tetherTestBeforeReload?: boolean }).__tetherTestBeforeReload = true;
      location.reload();
    });
    await this.page.waitForFunction(
      () => (window as unknown as { __tetherTestBeforeReload?: boolean }).__tetherTestBeforeReload !== true && document.readyState === 'complete',
      { polling: 50 },
    );
  }

  evaluate<R>(pageFunction: () => R | Promise<R>): Promise<R> {
    return this.page.evaluate(pageFunction) as Promise<R>;
  }

  async waitForFunction(pageFunction: () => unknown): Promise<unknown> {
    return this.page.waitForFunction(pageFunction, { polling: 50 });
  }

  url(): string {
    return this.page.url();
  }

  bringToFront(): Promise<void> {
    return this.page.bringToFront();
  }

  close(): Promise<void> {
    return this.page.close();
  }

  isClosed(): boolean {
    return this.page.isClosed();
  }
}

export interface FirefoxLaunchOptions {
  firefox?: string;
  /** The UI language: "ko" installs Debian's Korean language pack for that Firefox first. */
  lang?: 'en' | 'ko';
  extensionDir?: string;
  prefs?: Record<string, unknown>;
  /**
   * $HOME of the Firefox process: Firefox reads native host manifests from
   * `$HOME/.mozilla/native-messaging-hosts/`. By default an empty folder of the test's own, so a
   * host the person installed never answers a test (Chromium's tests have a profile folder each).
   */
  home?: string;
}

/** Debian's language pack (firefox-esr-l10n-ko) sits next to the Firefox it belongs to. */
export function koreanLangpackFor(firefox: string): string {
  const fromEnv = process.env.TETHER_FIREFOX_LANGPACK_KO;
  if (fromEnv) return fromEnv;
  const found = join(dirname(realpathSync(firefox)), 'browser', 'extensions', 'langpack-ko@firefox-esr.mozilla.org.xpi');
  if (!existsSync(found)) throw new Error(`No Korean language pack at ${found}: install firefox-esr-l10n-ko (or set TETHER_FIREFOX_LANGPACK_KO).`);
  return found;
}

export class FirefoxTether extends TetherClient<FirefoxPage> {
  readonly browserName = 'Firefox';
  private controlTarget: TargetForm | null = null;

  private constructor(
    readonly browser: Browser,
    readonly rdp: Rdp,
    readonly addon: AddonTargets,
    /** moz-extension://<this install's UUID>/ */
    readonly baseUrl: string,
    readonly version: string,
    sites: RunningSites,
  ) {
    super(sites);
  }

  static async launch(sites: RunningSites, options: FirefoxLaunchOptions = {}): Promise<FirefoxTether> {
    const firefox = options.firefox ?? process.env.TETHER_FIREFOX ?? DEFAULT_FIREFOX;
    const extensionDir = options.extensionDir ?? FIREFOX_DIST;
    if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No Firefox build at ${extensionDir}: run npm run build:firefox first.`);
    const rdpPort = await freePort();
    const home = options.home ?? mkdtempSync(join(tmpdir(), 'tether-firefox-home-'));
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: firefox,
      headless: true,
      env: { ...process.env, HOME: home },
      args: ['--start-debugger-server', String(rdpPort)],
      extraPrefsFirefox: {
        'devtools.debugger.remote-enabled': true,
        'devtools.chrome.enabled': true,
        'devtools.debugger.prompt-connection': false,
        // The real sites' hosts (blog.naver.com, …) reach the local fixtures, as HOST_RULES does in Chromium.
        'network.dns.localDomains': FIREFOX_LOCAL_DOMAINS,
        ...(options.lang === 'ko' ? { 'intl.locale.requested': 'ko' } : {}),
        ...options.prefs,
      },
    });
    try {
      // The language pack goes in before Tether, so Tether's i18n starts in that language.
      if (options.lang === 'ko') await browser.installExtension(koreanLangpackFor(firefox));
      const id = await browser.installExtension(resolve(extensionDir));
      if (id !== FIREFOX_ADDON_ID) throw new Error(`Firefox installed Tether as ${id}, not ${FIREFOX_ADDON_ID}`);
      const rdp = await Rdp.connect(rdpPort);
      const addon = await AddonTargets.watch(rdp, id);
      const background = await addon.find((target) => target.url.endsWith(BACKGROUND_PAGE));
      const baseUrl = String(await rdp.evaluate(background.consoleActor, 'browser.runtime.getURL("")'));
      return new FirefoxTether(browser, rdp, addon, baseUrl, await browser.version(), sites);
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  /** Evaluates an expression in the background page, waking it if it was unloaded. */
  async inBackground(expression: string): Promise<unknown> {
    if (![...this.addon.targets.values()].some((target) => target.url.endsWith(BACKGROUND_PAGE))) await this.send({ type: 'state.get' });
    const background = await this.addon.find((target) => target.url.endsWith(BACKGROUND_PAGE));
    return this.rdp.evaluate(background.consoleActor, expression);
  }

  /** Evaluates an expression in one of Tether's pages (its console), e.g. the sidebar's. */
  async inPage(target: TargetForm, expression: string): Promise<unknown> {
    return this.rdp.evaluate(target.consoleActor, expression);
  }

  /** Tether's options page in a tab: the page the test's runtime messages come from. */
  private async control(): Promise<TargetForm> {
    if (this.controlTarget && this.addon.targets.has(this.controlTarget.actor)) return this.controlTarget;
    const url = `${this.baseUrl}${CONTROL_PAGE}`;
    const appearing = this.addon.find((target) => target.url === url);
    const background = await this.addon.find((target) => target.url.endsWith(BACKGROUND_PAGE));
    await this.rdp.evaluate(background.consoleActor, `browser.tabs.create({ url: ${JSON.stringify(url)}, active: false }).then(() => true)`);
    const target = await appearing;
    // The target is announced when its document is created, before the page has its extension APIs.
    for (let attempt = 0; ; attempt += 1) {
      const ready = await this.rdp.evaluate(target.consoleActor, 'typeof browser === "object" && document.readyState === "complete"').catch(() => false);
      if (ready === true) break;
      if (attempt > 200) throw new Error('Tether’s options page never became ready');
      await new Promise((done) => setTimeout(done, 50));
    }
    this.controlTarget = target;
    return target;
  }

  /** A JSON value computed in the control page (an expression that may return a promise). */
  private async controlJson<T>(expression: string): Promise<T> {
    const target = await this.control();
    const text = await this.rdp.evaluate(
      target.consoleActor,
      `Promise.resolve(${expression}).then((value) => JSON.stringify(value === undefined ? null : value))`,
    );
    return JSON.parse(String(text)) as T;
  }

  async send<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<Outcome<RuntimeAnswers[K]>> {
    return this.controlJson<Outcome<RuntimeAnswers[K]>>(`browser.runtime.sendMessage(${JSON.stringify({ channel: 'tether.runtime', request })})`);
  }

  async open(site: SiteName, path = '/'): Promise<FirefoxPage> {
    const page = await this.browser.newPage();
    await page.goto(this.sites.url(site, path));
    return new FirefoxPage(page);
  }

  async openAt(url: string): Promise<FirefoxPage> {
    const page = await this.browser.newPage();
    await page.goto(url);
    return new FirefoxPage(page);
  }

  async signIn(site: SiteName, account: string): Promise<void> {
    const page = await this.browser.newPage();
    await page.goto(this.sites.url(site, `/login?as=${encodeURIComponent(account)}`));
    await page.close();
  }

  async tabIdOf(page: FirefoxPage): Promise<number> {
    // The page's own address: puppeteer's may be stale after a back/forward restore.
    const href = await page.evaluate(() => location.href);
    const ids = await this.controlJson<number[]>(
      `browser.tabs.query({}).then((tabs) => tabs.filter((tab) => tab.url === ${JSON.stringify(href)}).map((tab) => tab.id))`,
    );
    if (ids.length !== 1) throw new Error(`expected one tab at ${href}, found ${ids.length}`);
    return ids[0] as number;
  }

  protected windowIdOf(tabId: number): Promise<number> {
    return this.controlJson<number>(`browser.tabs.get(${tabId}).then((tab) => tab.windowId)`);
  }

  async documentIdOf(page: FirefoxPage): Promise<string | null> {
    const tabId = await this.tabIdOf(page);
    return this.controlJson<string | null>(`browser.webNavigation.getFrame({ tabId: ${tabId}, frameId: 0 }).then((frame) => frame?.documentId ?? null)`);
  }

  private backgroundTarget(): TargetForm | null {
    return [...this.addon.targets.values()].find((target) => target.url.endsWith(BACKGROUND_PAGE)) ?? null;
  }

  async backgroundStartTime(): Promise<number | null> {
    const background = this.backgroundTarget();
    if (!background) return null;
    try {
      return Number(await this.rdp.evaluate(background.consoleActor, 'performance.timeOrigin'));
    } catch {
      return null; // unloaded while asked
    }
  }

  /** Unloads the event page (as Firefox does when it is idle) and waits until it is gone. */
  async stopBackground(): Promise<BackgroundStop> {
    const startedAt = await this.backgroundStartTime();
    if (startedAt === null) throw new Error('stopBackground: Tether’s event page is not loaded, so it cannot be unloaded');
    // On a loaded machine Firefox may still be busy with a call when asked; ask again every 5 s.
    for (let attempt = 0; attempt < 600; attempt += 1) {
      if (attempt % 100 === 0) await this.addon.terminateBackground();
      await new Promise((done) => setTimeout(done, 50));
      if (!this.backgroundTarget()) return { startedAt };
    }
    throw new Error('the event page is still there after 30 s');
  }

  /** Tether's sidebar (Firefox opens it by itself when the add-on is installed). */
  sidebar(): Promise<TargetForm> {
    return this.addon.find((target) => target.url === `${this.baseUrl}extension/panel.html`);
  }

  /** A PNG of one of Tether's pages, through the debugger's screenshot actors (BiDi cannot see these pages). */
  async screenshot(target: TargetForm): Promise<Buffer> {
    const root = (await this.rdp.request('root', 'getRoot')) as Packet & { screenshotActor?: string };
    const contentActor = target.screenshotContentActor;
    if (!root.screenshotActor || typeof contentActor !== 'string') throw new Error('this Firefox offers no screenshot actor');
    const prepared = (await this.rdp.request(contentActor, 'prepareCapture', { args: { fullpage: true } })) as Packet & { value: { rect: unknown } };
    const shot = (await this.rdp.request(root.screenshotActor, 'capture', {
      args: { browsingContextID: target.browsingContextID, fullpage: true, dpr: 1, rect: prepared.value.rect, snapshotScale: 1 },
    })) as Packet & { value: { data: string | null; messages?: Array<{ text: string }> } };
    if (!shot.value.data) throw new Error(`no screenshot: ${shot.value.messages?.map((message) => message.text).join('; ') ?? 'no reason given'}`);
    return Buffer.from(shot.value.data.replace(/^data:image\/png;base64,/, ''), 'base64');
  }

  async close(): Promise<void> {
    this.rdp.close();
    await this.browser.close();
  }
}
