/**
 * A workspace made from pages the way the person makes one in the panel — create it from the
 * pages' window, keep only those pages, say which sites agents may write and as which account,
 * share it — through the same runtime messages the panel sends (no clicking). Written against the
 * messages alone, so Tether's own suite makes its workspaces with it in Chromium and in Firefox.
 */
import type { SitePolicy, Workspace } from '../shared/model/targetModel.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../shared/extension/uiProtocol.ts';

/** What making a workspace needs of a running Tether: its runtime messages and the pages' tab and window ids. */
export interface WorkspaceChannel<P> {
  must<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<RuntimeAnswers[K]>;
  tabIdOf(page: P): Promise<number>;
  windowIdOf(tabId: number): Promise<number>;
}

export interface WorkspaceRequest<P> {
  /** The tabs of the workspace, all in one window (its first page's). */
  pages: P[];
  /** The sites agents may write, each named by an address on it (the rest are only read). */
  writable?: string[];
  /** The account agents must find signed in, by an address on its site. */
  accounts?: Record<string, string>;
  /** Publish and submit on the writable sites without asking the person (off: the person approves each). */
  publishWithoutApproval?: boolean;
  name?: string;
  /** Share it with agents (true unless false: until then agents cannot see it). */
  share?: boolean;
}

function originOf(address: string): string {
  return new URL(address).origin;
}

export async function createWorkspace<P>(channel: WorkspaceChannel<P>, request: WorkspaceRequest<P>): Promise<Workspace> {
  const tabIds = await Promise.all(request.pages.map((page) => channel.tabIdOf(page)));
  if (tabIds.length === 0) throw new Error('a workspace needs at least one page');
  const windowId = await channel.windowIdOf(tabIds[0] as number);
  let workspace = await channel.must({ type: 'workspace.createFromWindow', windowId, ...(request.name ? { name: request.name } : {}) });
  // Keep only the pages asked for: the window may hold others.
  for (const tabId of workspace.tabIds.filter((id) => !tabIds.includes(id))) {
    workspace = await channel.must({ type: 'workspace.removeTab', workspaceId: workspace.id, tabId });
  }
  // One policy per site, as the panel keeps it: what agents may do there, and as whom.
  const policies = new Map<string, { address: string; policy: SitePolicy }>();
  for (const address of request.writable ?? []) {
    policies.set(originOf(address), { address, policy: { writable: true, publishWithoutApproval: request.publishWithoutApproval ?? false } });
  }
  for (const [address, account] of Object.entries(request.accounts ?? {})) {
    const known = policies.get(originOf(address));
    const policy: SitePolicy = { ...(known?.policy ?? { writable: false, publishWithoutApproval: false }), expectedAccount: account };
    policies.set(originOf(address), { address: known?.address ?? address, policy });
  }
  for (const { address, policy } of policies.values()) {
    workspace = await channel.must({ type: 'workspace.setSite', workspaceId: workspace.id, origin: address, policy });
  }
  if (request.share !== false) workspace = await channel.must({ type: 'workspace.share', workspaceId: workspace.id, shared: true });
  return workspace;
}
