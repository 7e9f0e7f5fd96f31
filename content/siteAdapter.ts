/**
 * A site adapter is a declarative description of one site: where it signs in, whose account it
 * shows, which fields a post has, which buttons publish or save, and what tells of a draft.
 * Adding a site means adding one of these objects (see docs/adapters.md).
 *
 * An adapter is a claim about markup the site may change at any time, so it never has the last
 * word: when its selectors find none of its fields on a page that has some, or the page has
 * editable fields it does not name, the generic page model reads them too (see adapterVerdict).
 */
import type { ActionKind } from '../shared/page/pageProtocol.ts';
import type { SmartEditorKey } from '../shared/page/smartEditorNames.ts';

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
  /**
   * The field is a part (title or body) of SmartEditor ONE's document, whose own model Tether may
   * call (in the page's main world, on the Naver adapters' hosts only: background/adapters/mainWorld.ts)
   * under `SmartEditor._editors[key]`.
   */
  smartEditor?: { key: SmartEditorKey; part: 'title' | 'body' };
  /**
   * The field is the site's own widget rather than a form control or an editor: a `listbox` (the
   * selector is the button that opens its `options`; the value is the chosen option's text), or
   * `chips` (the selector is an input in which Enter commits what was typed as a chip; the chips
   * are the `chip` elements inside the input's `container`, each with a button that removes it).
   */
  control?: SiteControl;
}

/** A site's own widget (AdapterField `control`): read by siteControlRead.ts, written by editors/siteControls.ts. */
export type SiteControl = { kind: 'listbox'; options: string } | { kind: 'chips'; container: string; chip: string };

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

/** Where an adapter applies (content/sites/adapters/claims.ts): small, because every page carries the list. */
export interface SiteClaim {
  id: string;
  /** Host names (exact), suffixes starting with a dot (".tistory.com"), or "*" for any host (then narrow by paths and markers). */
  hosts: string[];
  /** Optional path prefixes; all paths when absent. */
  paths?: string[];
}

export interface SiteAdapter extends SiteClaim {
  /** When its selectors were last checked against the site (YYYY-MM-DD); quoted when it does not match. */
  checked: string;
  /** Optional: the adapter applies only when one of these is on the page (a self-hosted app on any host). */
  markers?: string[];
  /**
   * Optional: same-origin iframes that hold the site's page (Naver Blog's #mainFrame, the block
   * editor's canvas). Every selector is tried in the page first, then inside each of these frames.
   */
  frames?: string[];
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

function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  return pattern.startsWith('.') ? host.endsWith(pattern) : host === pattern;
}

/** Whether the adapter claims this address (markers, if any, are checked on the page itself). */
export function adapterMatches(adapter: SiteClaim, url: URL): boolean {
  if (!adapter.hosts.some((pattern) => hostMatches(pattern, url.hostname))) return false;
  return adapter.paths === undefined || adapter.paths.some((prefix) => url.pathname.startsWith(prefix));
}

/** What the adapter found on a page, next to what the generic page model found there. */
export interface AdapterReading {
  adapter: Pick<SiteAdapter, 'id' | 'checked'>;
  /** Field names the adapter describes. */
  named: string[];
  /** Those it found on the page. */
  found: string[];
  /** Editable fields the generic model found that none of the adapter's fields covers. */
  unnamed: string[];
}

export type AdapterVerdict =
  /** The adapter's reading stands. */
  | { use: 'adapter'; adapter: string; problem: null }
  /** The adapter matched nothing here but the page has fields: the generic model reads the page. */
  | { use: 'generic'; adapter: 'generic'; problem: string }
  /** The adapter's fields, plus the ones it does not name, found by the generic model. */
  | { use: 'adapter+generic'; adapter: string; problem: string };

/**
 * Decides who reads a page an adapter claims. Never worse than the generic model: an adapter that
 * found none of its fields does not hide the page's fields, and fields it does not name are added.
 * A page with no editable fields at all (a post being read) keeps the adapter's reading.
 */
export function adapterVerdict(reading: AdapterReading): AdapterVerdict {
  const { adapter, named, found, unnamed } = reading;
  const who = `The ${adapter.id} adapter (checked ${adapter.checked})`;
  if (unnamed.length === 0) return { use: 'adapter', adapter: adapter.id, problem: null };
  if (found.length === 0) {
    return {
      use: 'generic',
      adapter: 'generic',
      problem: `${who} found none of its fields (${named.join(', ')}) on this page; the generic page model read it.`,
    };
  }
  const missing = named.filter((name) => !found.includes(name));
  return {
    use: 'adapter+generic',
    adapter: adapter.id,
    problem: `${who} does not name ${unnamed.length === 1 ? 'a field' : `${unnamed.length} fields`} on this page (${unnamed.join(', ')}); the generic page model added ${unnamed.length === 1 ? 'it' : 'them'}.${missing.length > 0 ? ` Not found here: ${missing.join(', ')}.` : ''}`,
  };
}
