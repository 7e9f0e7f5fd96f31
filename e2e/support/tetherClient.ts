/**
 * What a test does with a running Tether, whatever the browser: runtime messages from one of
 * Tether's own pages (the same messages and the same sender checks as its panel), the demo sites'
 * pages in tabs, and the workspace a scene needs. Chromium's driver (tetherDriver.ts) reaches the
 * extension through Playwright; Firefox's (firefox/firefoxTether.ts) through puppeteer and the
 * Remote Debugging Protocol. Tests that run in both browsers are written against this.
 */
import type { Outcome } from '../../shared/errors.ts';
import type { Workspace } from '../../shared/model/targetModel.ts';
import type { ToolEnvelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import type { RuntimeAnswers, RuntimeRequest, UiState } from '../../shared/extension/uiProtocol.ts';
import type { BackgroundStop } from '../../testing/extensionPages.ts';
import { createWorkspace } from '../../testing/workspace.ts';
import type { RunningSites, SiteName } from '../sites/server.ts';

/** A page in a tab, as both browsers' drivers give it (Playwright's Page is one as it is). */
export interface TabPage {
  goto(url: string): Promise<unknown>;
  reload(): Promise<unknown>;
  evaluate<R>(pageFunction: () => R | Promise<R>): Promise<R>;
  waitForFunction(pageFunction: () => unknown): Promise<unknown>;
  url(): string;
  bringToFront(): Promise<void>;
  close(): Promise<void>;
  isClosed(): boolean;
}

export interface WorkspaceOptions {
  name?: string;
  writable?: SiteName[];
  publishWithoutApproval?: boolean;
  share?: boolean;
}

/** A background stopped by a test: when it had started (ms since the epoch, its `performance.timeOrigin`). */
export type { BackgroundStop } from '../../testing/extensionPages.ts';

export abstract class TetherClient<P extends TabPage = TabPage> {
  constructor(readonly sites: RunningSites) {}

  /** Which browser runs this Tether ("Chromium profile" / "Firefox profile" is the first profile's label). */
  abstract readonly browserName: 'Chromium' | 'Firefox';

  abstract send<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<Outcome<RuntimeAnswers[K]>>;
  /** Opens a site page in a new tab of the main window. */
  abstract open(site: SiteName, path?: string): Promise<P>;
  /** Opens an address on one of the real sites' fixture hosts (sites.at, e.g. blog.naver.com) in a new tab of the main window. */
  abstract openAt(url: string): Promise<P>;
  /** Signs a site in (one cookie per host, shared by all its tabs). */
  abstract signIn(site: SiteName, account: string): Promise<void>;
  /** The browser's tab id of the page (exactly one tab must show its address). */
  abstract tabIdOf(page: P): Promise<number>;
  /** The top document's documentId as the browser reports it; null where the browser has none (Firefox 140). */
  abstract documentIdOf(page: P): Promise<string | null>;
  /**
   * Stops the background (the service worker, or Firefox's event page) and proves it stopped;
   * throws when there was none running or it survives.
   */
  abstract stopBackground(): Promise<BackgroundStop>;
  /** When the running background started, or null when none runs (asking never wakes it). */
  abstract backgroundStartTime(): Promise<number | null>;
  protected abstract windowIdOf(tabId: number): Promise<number>;

  /**
   * Asserts that the background running now is not the one `stop` stopped: it started later. Call
   * it after a request the scenario needed the background for — a new one served that request.
   */
  async expectNewBackgroundServed(stop: BackgroundStop): Promise<number> {
    const now = await this.backgroundStartTime();
    if (now === null) throw new Error('expectNewBackgroundServed: no background is running');
    if (!(now > stop.startedAt))
      throw new Error(`expectNewBackgroundServed: the background running (started ${now}) is the one stopped (started ${stop.startedAt})`);
    return now;
  }

  async must<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<RuntimeAnswers[K]> {
    const answer = await this.send(request);
    if (!answer.ok) throw new Error(`${request.type} failed: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  }

  /** An agent request through the worker's request entry (what the bridge calls), read as that tool's envelope. */
  async agent<T extends ToolName>(tool: T, args: unknown): Promise<ToolEnvelope<T>> {
    return (await this.must({ type: 'agent.request', tool, args })) as ToolEnvelope<T>;
  }

  async state(): Promise<UiState> {
    return this.must({ type: 'state.get' });
  }

  async profileId(): Promise<string> {
    return (await this.state()).profile.id;
  }

  /** Creates a workspace from the given pages (their window), marks writable sites and shares it: the testing kit's createWorkspace. */
  async workspaceOf(pages: P[], options: WorkspaceOptions = {}): Promise<Workspace> {
    return createWorkspace(
      { must: this.must.bind(this), tabIdOf: (page: P) => this.tabIdOf(page), windowIdOf: (tabId) => this.windowIdOf(tabId) },
      {
        pages,
        writable: (options.writable ?? []).map((site) => this.sites.url(site, '/')),
        ...(options.name ? { name: options.name } : {}),
        ...(options.publishWithoutApproval !== undefined ? { publishWithoutApproval: options.publishWithoutApproval } : {}),
        ...(options.share !== undefined ? { share: options.share } : {}),
      },
    );
  }
}
