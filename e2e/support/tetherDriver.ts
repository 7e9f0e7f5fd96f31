/**
 * Drives a running Tether the way its own pages do: runtime messages from an extension page
 * (which wake a stopped worker, like any event would). Agent requests go through the same
 * request entry the bridge uses.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Outcome } from '../../shared/errors.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../../shared/runtimeProtocol.ts';
import type { RunningSites, SiteName } from '../sites/server.ts';
import { TetherClient } from './tetherClient.ts';

export class TetherDriver extends TetherClient<Page> {
  readonly browserName = 'Chromium';
  private controlPage: Page | null = null;

  constructor(
    readonly context: BrowserContext,
    readonly extensionId: string,
    sites: RunningSites,
  ) {
    super(sites);
  }

  extensionUrl(path: string): string {
    return `chrome-extension://${this.extensionId}/${path}`;
  }

  /** An extension page used only to send messages; it lives in its own window, outside workspaces. */
  async control(): Promise<Page> {
    if (this.controlPage && !this.controlPage.isClosed()) return this.controlPage;
    const page = await this.context.newPage();
    await page.goto(this.extensionUrl('extension/options.html'));
    this.controlPage = page;
    return page;
  }

  async send<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<Outcome<RuntimeAnswers[K]>> {
    const page = await this.control();
    return page.evaluate((message) => chrome.runtime.sendMessage({ channel: 'tether.runtime', request: message }), request as RuntimeRequest) as Promise<
      Outcome<RuntimeAnswers[K]>
    >;
  }

  /** Opens a site page in a new tab of the main window and waits until Tether's content script can see it. */
  async open(site: SiteName, path = '/'): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(this.sites.url(site, path));
    return page;
  }

  /** Signs a site in (one cookie per host, shared by all its tabs). */
  async signIn(site: SiteName, account: string): Promise<void> {
    const page = await this.context.newPage();
    await page.goto(this.sites.url(site, `/login?as=${encodeURIComponent(account)}`));
    await page.close();
  }

  async tabIdOf(page: Page): Promise<number> {
    const url = page.url();
    const state = await this.state();
    const control = await this.control();
    const id = await control.evaluate(async (href) => {
      const tabs = await chrome.tabs.query({});
      return tabs.filter((tab) => tab.url === href).map((tab) => tab.id ?? -1);
    }, url);
    if (id.length !== 1) throw new Error(`expected one tab at ${url}, found ${id.length} (${state.workspaces.length} workspaces)`);
    return id[0] as number;
  }

  protected async windowIdOf(tabId: number): Promise<number> {
    const control = await this.control();
    return control.evaluate(async (id) => (await chrome.tabs.get(id)).windowId, tabId);
  }

  async documentIdOf(page: Page): Promise<string | null> {
    const control = await this.control();
    return control.evaluate(async (tabId) => (await chrome.webNavigation.getFrame({ tabId, frameId: 0 }))?.documentId ?? null, await this.tabIdOf(page));
  }

  stopBackground(): Promise<void> {
    return this.stopServiceWorker();
  }

  /**
   * The service worker's JS heap in use after a garbage collection, read over CDP
   * (performance.memory does not exist in workers).
   */
  async workerHeapBytes(): Promise<number> {
    const browser = this.context.browser();
    if (!browser) throw new Error('no browser');
    const cdp = await browser.newBrowserCDPSession();
    try {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
      const worker = targetInfos.find((info) => info.type === 'service_worker' && info.url.includes(this.extensionId));
      if (!worker) throw new Error('the service worker is not running');
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false })) as { sessionId: string };
      const replies = new Map<number, (result: unknown) => void>();
      cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
        const message = JSON.parse(event.message) as { id?: number; result?: unknown };
        if (event.sessionId === sessionId && message.id !== undefined) replies.get(message.id)?.(message.result);
      });
      const call = (id: number, method: string) =>
        new Promise<unknown>((resolve) => {
          replies.set(id, resolve);
          void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
        });
      await call(1, 'HeapProfiler.collectGarbage');
      const { usedSize: used } = (await call(2, 'Runtime.getHeapUsage')) as { usedSize: number };
      await cdp.send('Target.detachFromTarget', { sessionId });
      return used;
    } finally {
      await cdp.detach();
    }
  }

  /** Stops the service worker for real and waits until it is gone. */
  async stopServiceWorker(): Promise<void> {
    const browser = this.context.browser();
    const cdp = browser ? await browser.newBrowserCDPSession() : await this.context.newCDPSession(await this.control());
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const worker = targetInfos.find((info) => info.type === 'service_worker' && info.url.includes(this.extensionId));
    if (!worker) return;
    await cdp.send('Target.closeTarget', { targetId: worker.targetId });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { targetInfos: now } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
      if (!now.some((info) => info.type === 'service_worker' && info.url.includes(this.extensionId))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cdp.detach();
  }
}
