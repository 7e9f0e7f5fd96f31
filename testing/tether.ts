/**
 * One running Tether for a test: a Chromium with the extension in a profile folder of the test's
 * own, the native host installed for that profile into a home of the test's own (so nothing of
 * the person's own Tether answers, and the test's never reaches theirs), and an MCP client — the
 * agent — whose server found that browser through the host.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { Workspace } from '../shared/model/targetModel.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import type { ToolEnvelope, ToolName } from '../shared/agent/agentProtocol.ts';
import type { ToolResults } from '../shared/agent/results.ts';
import { McpAgent } from './agent.ts';
import type { McpServerConfig } from './serverConfig.ts';
import { launchChromium, type ChromiumOptions } from './chromium.ts';
import { ExtensionPages } from './extensionPages.ts';
import { hostLog, installFor, nativeSandbox, type NativeSandbox } from './native.ts';
import { PanelPerson, type Person } from './person.ts';
import { freePort } from './ports.ts';
import { createWorkspace } from './workspace.ts';

export interface TetherOptions extends Omit<ChromiumOptions, 'userDataDir'> {
  /** More environment for the agent's MCP server (e.g. `{ TETHER_LANG: 'ko' }`). */
  agentEnv?: Record<string, string>;
}

export interface WorkspaceOptions {
  /** The tabs of the workspace, all in one window (the test's pages are). */
  pages: Page[];
  /** The sites agents may write, each named by one of its pages or an address on it; every other site is only read. */
  writable?: Array<Page | string>;
  /**
   * The account agents must find signed in: one for every writable site, or one per site (keyed by
   * an address on it). A page that shows another account, or none, is refused (`account_mismatch`,
   * `not_signed_in`).
   */
  account?: string | Record<string, string>;
  /** Publish and submit on the writable sites without asking (default off: the person approves each). */
  publishWithoutApproval?: boolean;
  name?: string;
  /** Share it with agents (default true). */
  share?: boolean;
}

/** A shared workspace, with what an agent names it by. */
export interface TetherWorkspace extends Workspace {
  /** The browser profile's id: every agent request names it (`profile`). */
  profile: string;
}

/** The agent: an MCP client of Tether's own MCP server, which reaches this test's browser. */
export interface TetherAgent {
  /** One tool call; the envelope as the agent reads it (`{ ok: true, result }` or `{ ok: false, error }`). */
  call<T extends ToolName>(tool: T, args?: Record<string, unknown>): Promise<ToolEnvelope<T>>;
  /** One tool call that must succeed: its result (a refusal throws, with its code and message). */
  ok<T extends ToolName>(tool: T, args?: Record<string, unknown>): Promise<ToolResults[T]>;
  /** The tools the server lists. */
  tools(): Promise<string[]>;
  /** How to start the same MCP server from your own agent (its MCP client configuration): it reaches the same browser. */
  readonly server: McpServerConfig;
  /** What the MCP server wrote to stderr. */
  readonly stderr: string[];
}

export class Tether {
  private constructor(
    /** The browser's context: open pages with `tether.context.newPage()`. */
    readonly context: BrowserContext,
    readonly extensionId: string,
    /** The test's own folder: the browser profile, the host's home and the token's folder. */
    readonly folder: string,
    readonly sandbox: NativeSandbox,
    private readonly pages: ExtensionPages,
    private readonly mcp: McpAgent,
    readonly person: Person,
    readonly agent: TetherAgent,
  ) {}

  /** Launches Chromium with Tether, installs the host for it, and connects an agent (the fixture calls this). */
  static async start(options: TetherOptions = {}): Promise<Tether> {
    // Short on purpose: the host's socket lives under it, and a socket path may not exceed 107 bytes.
    const folder = mkdtempSync(join(tmpdir(), 'tether-kit-'));
    const home = join(folder, 'home');
    const configDir = join(folder, 'config');
    const userDataDir = join(folder, 'profile');
    for (const dir of [home, configDir, userDataDir]) mkdirSync(dir, { mode: 0o700 });
    const sandbox = nativeSandbox({ home, configDir });
    await installFor(sandbox, userDataDir);
    const { agentEnv, ...chromium } = options;
    const launched = await launchChromium({ ...chromium, userDataDir });
    const pages = new ExtensionPages(launched.context, launched.extensionId);
    try {
      // A fresh profile's worker makes its profile id at its first start.
      await expect.poll(async () => (await pages.send({ type: 'state.get' })).ok, { timeout: 20_000, message: 'Tether to start in the browser' }).toBe(true);
      const profile = (await pages.state()).profile.id;
      const mcp = await McpAgent.start({
        native: sandbox,
        port: await freePort(),
        clientInfo: { name: 'tether-testing', version: '1.0.0' },
        ...(agentEnv ? { env: agentEnv } : {}),
      });
      // The agent's server finds the browser's host by itself (nothing to paste): wait until it does.
      await expect
        .poll(
          async () => {
            const answer = await mcp.call('context', {});
            return answer.ok && answer.result.profiles.some((known) => known.id === profile);
          },
          { timeout: 20_000, message: `the agent to reach the browser through the native host (host log: ${hostLog(sandbox) || 'empty'})` },
        )
        .toBe(true);
      const agent: TetherAgent = {
        call: (tool, args = {}) => mcp.call(tool, args),
        ok: async (tool, args = {}) => {
          const answer = await mcp.call(tool, args);
          if (!answer.ok) throw new Error(`${tool} was refused: ${answer.error.code}: ${answer.error.message}`);
          return answer.result;
        },
        tools: () => mcp.tools(),
        server: mcp.server,
        stderr: mcp.stderr,
      };
      return new Tether(launched.context, launched.extensionId, folder, sandbox, pages, mcp, new PanelPerson(pages), agent);
    } catch (error) {
      await launched.context.close();
      throw error;
    }
  }

  /** The browser profile's id, which every agent request names. */
  async profileId(): Promise<string> {
    return (await this.pages.state()).profile.id;
  }

  /** The browser's tab id of a page (as `context` lists it to agents). */
  tabIdOf(page: Page): Promise<number> {
    return this.pages.tabIdOf(page);
  }

  /** Makes a workspace from the pages and shares it, as the person does in the panel (through its messages, no clicking). */
  async workspace(options: WorkspaceOptions): Promise<TetherWorkspace> {
    const address = (site: Page | string) => (typeof site === 'string' ? site : site.url());
    const writable = (options.writable ?? []).map(address);
    const accounts: Record<string, string> =
      typeof options.account === 'string' ? Object.fromEntries(writable.map((site) => [site, options.account as string])) : { ...options.account };
    const workspace = await createWorkspace(
      { must: this.pages.must.bind(this.pages), tabIdOf: (page: Page) => this.pages.tabIdOf(page), windowIdOf: (tabId) => this.pages.windowIdOf(tabId) },
      {
        pages: options.pages,
        writable,
        accounts,
        ...(options.publishWithoutApproval !== undefined ? { publishWithoutApproval: options.publishWithoutApproval } : {}),
        ...(options.name ? { name: options.name } : {}),
        ...(options.share !== undefined ? { share: options.share } : {}),
      },
    );
    return { ...workspace, profile: await this.profileId() };
  }

  /** The journal's records, newest first: every request, what it read and wrote where, and how it ended. */
  async journal(options: { workspace?: string | Pick<Workspace, 'id'>; limit?: number } = {}): Promise<JournalRecord[]> {
    const workspaceId = typeof options.workspace === 'string' ? options.workspace : options.workspace?.id;
    return this.pages.must({ type: 'journal.list', limit: options.limit ?? 500, ...(workspaceId ? { workspaceId } : {}) });
  }

  /** What the native host logged (`host.log` in the test's folder). */
  hostLog(): string {
    return hostLog(this.sandbox);
  }

  /** Closes the agent and the browser (which stops its host), and removes the test's folder. */
  async close(): Promise<void> {
    await this.mcp.close();
    await this.context.close();
    rmSync(this.folder, { recursive: true, force: true, maxRetries: 3 });
  }
}
