/**
 * The plain data the targeting core works on. Nothing here touches a browser API, so the
 * resolver and revalidation can be read, tested and trusted on their own.
 */

export type Role = 'write' | 'reference';

/** Tab metadata only (R1): never page bodies. */
export interface TabMeta {
  tabId: number;
  windowId: number;
  groupId: number;
  index: number;
  active: boolean;
  url: string;
  title: string;
  status: 'loading' | 'complete' | 'unloaded';
  discarded: boolean;
  /** The top frame's document, from webNavigation; null while unknown (e.g. a discarded tab). */
  documentId: string | null;
}

/** What the person decided about one site (an origin) in a workspace. */
export interface SitePolicy {
  /** May agents write here? Off unless the person turns it on. */
  writable: boolean;
  /** May publish/submit-type actions run without asking the person each time? */
  publishWithoutApproval: boolean;
  /** May agents upload image files (local files, inline bytes) to this site without asking each time? Off unless the person ticks it. */
  uploadImagesWithoutAsking?: boolean;
  /** The account the person expects agents to act as on this site, if they said one. */
  expectedAccount?: string;
}

export type WorkspaceSource = { kind: 'window'; windowId: number } | { kind: 'group'; groupId: number; windowId: number } | { kind: 'manual' };

export interface Workspace {
  id: string;
  name: string;
  /** Only shared workspaces are visible to agents. */
  shared: boolean;
  source: WorkspaceSource;
  tabIds: number[];
  /**
   * The address each member tab was last seen at, by tab id. Tab ids are reused in a new browser
   * session; after a restart only a tab still showing this address keeps its place.
   */
  memberUrls?: Record<string, string>;
  /** Keyed by origin, e.g. "https://blog.example". */
  sites: Record<string, SitePolicy>;
  createdAt: number;
}

export interface Profile {
  id: string;
  label: string;
  createdAt: number;
}

/**
 * A program: an ongoing or scheduled task with its own write target. The target is fixed when the
 * program starts; switching the view never moves it.
 */
export interface Program {
  id: string;
  label: string;
  workspaceId: string;
  target: TargetBinding;
  status: 'running' | 'scheduled';
  createdAt: number;
  /** For scheduled programs: when the act is due (epoch ms). */
  dueAt?: number;
}

/** Everything a target handle is bound to. Revalidation compares this with the host now (R8). */
export interface TargetBinding {
  profileId: string;
  workspaceId: string;
  tabId: number;
  documentId: string;
  origin: string;
  url: string;
  title: string;
  role: Role;
  /** The account seen on the page when the binding was made; null when unknown or signed out. */
  account: string | null;
  /**
   * The content script's id for this page instance. It changes when a page is restored from the
   * back/forward cache, which keeps its documentId; null when the page could not be observed.
   */
  pageInstance: string | null;
}

/** How a request names a tab. Exactly one of the naming keys is used; `title` only narrows. */
export interface TargetSpec {
  handle?: string;
  tabId?: number;
  url?: string;
  site?: string;
  title?: string;
}

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** The URL without its fragment: a fragment change is not a new page. */
export function urlWithoutFragment(url: string): string {
  const at = url.indexOf('#');
  return at === -1 ? url : url.slice(0, at);
}
