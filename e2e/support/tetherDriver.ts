/**
 * Drives a running Tether in Chromium the way its own pages do: runtime messages from an extension
 * page (which wake a stopped worker, like any event would). Agent requests go through the same
 * request entry the bridge uses. The Chromium side is the testing kit's (testing/extensionPages.ts);
 * what is here binds it to the demo sites and to the TetherClient both browsers share.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Outcome } from '../../shared/errors.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../../shared/extension/uiProtocol.ts';
import { ExtensionPages } from '../../testing/extensionPages.ts';
import type { RunningSites, SiteName } from '../sites/server.ts';
import { TetherClient, type BackgroundStop } from './tetherClient.ts';

export class TetherDriver extends TetherClient<Page> {
  readonly browserName = 'Chromium';
  /** The kit's channel to the extension's pages. */
  readonly pages: ExtensionPages;

  constructor(
    readonly context: BrowserContext,
    readonly extensionId: string,
    sites: RunningSites,
  ) {
    super(sites);
    this.pages = new ExtensionPages(context, extensionId);
  }

  extensionUrl(path: string): string {
    return this.pages.extensionUrl(path);
  }

  /** An extension page used only to send messages; it lives in its own window, outside workspaces. */
  control(): Promise<Page> {
    return this.pages.control();
  }

  send<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<Outcome<RuntimeAnswers[K]>> {
    return this.pages.send(request);
  }

  /** Opens a site page in a new tab of the main window and waits until Tether's content script can see it. */
  async open(site: SiteName, path = '/'): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(this.sites.url(site, path));
    return page;
  }

  async openAt(url: string): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(url);
    return page;
  }

  /** Signs a site in (one cookie per host, shared by all its tabs). */
  async signIn(site: SiteName, account: string): Promise<void> {
    const page = await this.context.newPage();
    await page.goto(this.sites.url(site, `/login?as=${encodeURIComponent(account)}`));
    await page.close();
  }

  tabIdOf(page: Page): Promise<number> {
    return this.pages.tabIdOf(page);
  }

  protected windowIdOf(tabId: number): Promise<number> {
    return this.pages.windowIdOf(tabId);
  }

  documentIdOf(page: Page): Promise<string | null> {
    return this.pages.documentIdOf(page);
  }

  stopBackground(): Promise<BackgroundStop> {
    return this.pages.stopServiceWorker();
  }

  backgroundStartTime(): Promise<number | null> {
    return this.pages.workerStartTime();
  }

  /** The service worker's JS heap in use after a garbage collection, read over CDP. */
  workerHeapBytes(): Promise<number> {
    return this.pages.workerHeapBytes();
  }

  /** When the running worker started, or null when none runs (asking never wakes it): testing/extensionPages.ts. */
  workerStartTime(): Promise<number | null> {
    return this.pages.workerStartTime();
  }

  /** Stops the service worker for real and proves it: testing/extensionPages.ts. */
  stopServiceWorker(): Promise<BackgroundStop> {
    return this.pages.stopServiceWorker();
  }
}
