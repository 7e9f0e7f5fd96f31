/**
 * Drives a running Tether in Chromium the way its own pages do: runtime messages from one of its
 * extension pages (the same messages, and the same sender checks, as its side panel; they wake a
 * stopped worker, like any event would). Agent requests go through the same request entry the
 * bridge uses. Also what only a test needs: tab ids, documentIds, and stopping the service worker
 * for real.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import type { Outcome } from '../shared/errors.ts';
import type { RuntimeAnswers, RuntimeRequest, UiState } from '../shared/extension/uiProtocol.ts';

/** A background stopped by a test: when it had started (ms since the epoch, its `performance.timeOrigin`). */
export interface BackgroundStop {
  startedAt: number;
}

export class ExtensionPages {
  private controlPage: Page | null = null;

  constructor(
    readonly context: BrowserContext,
    readonly extensionId: string,
  ) {}

  extensionUrl(path: string): string {
    return `chrome-extension://${this.extensionId}/${path}`;
  }

  /** An extension page used only to send messages; it lives in its own tab, outside workspaces. */
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

  async must<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<RuntimeAnswers[K]> {
    const answer = await this.send(request);
    if (!answer.ok) throw new Error(`${request.type} failed: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  }

  async state(): Promise<UiState> {
    return this.must({ type: 'state.get' });
  }

  /** The browser's tab id of the page (exactly one tab must show its address). */
  async tabIdOf(page: Page): Promise<number> {
    const url = page.url();
    const state = await this.state();
    const control = await this.control();
    const ids = await control.evaluate(async (href) => {
      const tabs = await chrome.tabs.query({});
      return tabs.filter((tab) => tab.url === href).map((tab) => tab.id ?? -1);
    }, url);
    if (ids.length !== 1) throw new Error(`expected one tab at ${url}, found ${ids.length} (${state.workspaces.length} workspaces)`);
    return ids[0] as number;
  }

  async windowIdOf(tabId: number): Promise<number> {
    const control = await this.control();
    return control.evaluate(async (id) => (await chrome.tabs.get(id)).windowId, tabId);
  }

  async documentIdOf(page: Page): Promise<string | null> {
    const control = await this.control();
    return control.evaluate(async (tabId) => (await chrome.webNavigation.getFrame({ tabId, frameId: 0 }))?.documentId ?? null, await this.tabIdOf(page));
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

  /**
   * When the running worker started (its `performance.timeOrigin`, in ms since the epoch), or null
   * when none runs. Reading it does not wake a stopped worker: it asks only running ones. Playwright
   * may still list a worker that is going away (and never answer from it), so each is asked with a
   * time limit, and the newest answer wins.
   */
  async workerStartTime(): Promise<number | null> {
    const workers = this.context.serviceWorkers().filter((worker) => worker.url().startsWith(this.extensionUrl('')));
    const ask = (worker: Worker) =>
      Promise.race([worker.evaluate(() => performance.timeOrigin).catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000))]);
    const times = (await Promise.all(workers.map(ask))).filter((time): time is number => time !== null);
    return times.length > 0 ? Math.max(...times) : null;
  }

  /**
   * Stops the service worker for real (CDP `Target.closeTarget` on its target) and proves it: the
   * worker's target must be gone, or a new worker with a later start time be there already (an
   * alarm or a port may wake one at once). Throws when there is no worker to stop or it survives.
   */
  async stopServiceWorker(): Promise<BackgroundStop> {
    const browser = this.context.browser();
    const cdp = browser ? await browser.newBrowserCDPSession() : await this.context.newCDPSession(await this.control());
    const workerTargets = async () => {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
      return targetInfos.filter((info) => info.type === 'service_worker' && info.url.startsWith(this.extensionUrl('')));
    };
    try {
      const [worker, ...others] = await workerTargets();
      if (!worker) throw new Error('stopServiceWorker: no Tether service worker is running, so none can be stopped');
      if (others.length > 0) throw new Error(`stopServiceWorker: ${others.length + 1} Tether service workers are running`);
      const startedAt = await this.workerStartTime();
      if (startedAt === null) throw new Error('stopServiceWorker: the running worker did not say when it started');
      await cdp.send('Target.closeTarget', { targetId: worker.targetId });
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        // Gone; or already started again (the target may keep its id): then it started later.
        if ((await workerTargets()).length === 0) return { startedAt };
        const now = await this.workerStartTime();
        if (now !== null && now > startedAt) return { startedAt };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`stopServiceWorker: the worker that started at ${startedAt} is still running 15 s after Target.closeTarget`);
    } finally {
      await cdp.detach();
    }
  }
}
