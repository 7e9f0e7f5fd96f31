/**
 * A site adapter is a declarative description of one site: where it signs in, whose account it
 * shows, which fields a post has, which buttons publish or save, and what tells of a draft.
 * Adding a site means adding one of these objects (see README, "Adding a site adapter").
 */
import type { ActionKind } from '../shared/pageProtocol.ts';

export interface AdapterField {
  /** Stable name agents use in plans: "title", "body", "category". */
  name: string;
  label: string;
  /**
   * CSS selectors, tried in order; the first that exists is the field. A selector may point at an
   * input, textarea, select, a contenteditable, an editor's container (Quill, ProseMirror) or an
   * iframe whose document is the editor.
   */
  selectors: string[];
  /** A non-empty value that Tether did not write counts as a draft in progress (e.g. a post body). */
  draftIfNonEmpty?: boolean;
}

export interface AdapterAction {
  name: string;
  kind: ActionKind;
  label: string;
  selectors: string[];
}

export interface AdapterReadable {
  name: string;
  selectors: string[];
}

export interface SiteAdapter {
  id: string;
  /** Host names (exact) or suffixes starting with a dot (".tistory.com"). */
  hosts: string[];
  /** Optional path prefixes; all paths when absent. */
  paths?: string[];
  signIn: {
    /** Present only when signed in. */
    signedIn: string[];
    /** Present only when signed out. */
    signedOut: string[];
    /** Whose text is the account name. */
    account: string[];
  };
  fields: AdapterField[];
  actions: AdapterAction[];
  readable: AdapterReadable[];
  draft: {
    /** Present while the site offers to restore an autosaved draft. */
    banners: string[];
  };
}

export function adapterMatches(adapter: SiteAdapter, url: URL): boolean {
  const host = url.hostname;
  const hostOk = adapter.hosts.some((pattern) => (pattern.startsWith('.') ? host.endsWith(pattern) : host === pattern));
  if (!hostOk) return false;
  return adapter.paths === undefined || adapter.paths.some((prefix) => url.pathname.startsWith(prefix));
}
