/**
 * The workspace's tabs indexed for one request, so the resolver looks a named tab up instead of
 * scanning: by origin (a site is matched against each origin the workspace shows, not against each
 * tab), and the candidates in tab order. Pure in behaviour: plain data in, plain data out.
 *
 * Grouping by origin relies on a tab's address being written the way browsers report it (lower
 * case, no default port, no credentials): then every address starts with its origin, and a site
 * or address prefix that matches the origin matches all its tabs alike. The rare address that is
 * not (`irregular`) is looked at on its own, tab by tab, exactly as before.
 *
 * Reading an address's origin is most of the cost, and the worker reads the same addresses again on
 * every request (a fresh array each time, so identity says nothing): each tab's last address and
 * its origin are remembered by tab id, and reused only while the address is the same text. Whether
 * an origin is a candidate is asked of the workspace's sites on every request, so no answer can be
 * stale.
 */
import { originOf, type TabMeta, type Workspace } from '../../shared/model/targetModel.ts';

export interface TabIndex {
  /** Every tab given, by id (revalidating a handle's tab needs it even when it left the workspace's sites). */
  byId(tabId: number): TabMeta | undefined;
  /** The tabs a request may name — members showing a site the workspace has, the one it last saw them on — in the order given. */
  candidates: readonly TabMeta[];
  isCandidate(tabId: number): boolean;
  /** Candidates with a browser-written address, by origin. */
  byOrigin: Map<string, TabMeta[]>;
  /** Candidates whose address is written some other way: checked one by one. */
  irregular: TabMeta[];
}

const BROWSER_WRITTEN = /^(https?):\/\/([a-z0-9.-]+)(?::([1-9]\d{0,4}))?(?=[/?#]|$)/;
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

/**
 * The origin of an address as a browser writes it, read without building a URL object; null when
 * the address is not written that way (the caller then asks `originOf`). Hosts the URL parser
 * would rewrite (IPv4 forms, punycode) and default or out-of-range ports are not taken here.
 */
export function browserWrittenOrigin(url: string): string | null {
  const match = BROWSER_WRITTEN.exec(url);
  if (!match) return null;
  const [, scheme = '', host = '', port] = match;
  const labels = host.split('.');
  const last = labels[labels.length - 1] === '' ? labels[labels.length - 2] : labels[labels.length - 1];
  if (last === undefined || NUMERIC_LABEL.test(last) || host.includes('xn--')) return null;
  if (port !== undefined && (Number(port) > 65535 || port === (scheme === 'http' ? '80' : '443'))) return null;
  return port === undefined ? `${scheme}://${host}` : `${scheme}://${host}:${port}`;
}

/** What an address says about its origin: a function of the address's text alone. */
interface AddressOrigin {
  url: string;
  /** Null for an address that is not a web page: never a candidate. */
  origin: string | null;
  /** The address starts with its origin as written, so its origin's group can be matched as a whole. */
  regular: boolean;
  /** The address the workspace last saw the tab at, and its origin (read again only when it changes). */
  memberUrl: string | undefined;
  memberOrigin: string | null;
}

/** Each tab's last address and its origin, by tab id (tab ids are unique in a browser session). */
const originsByTab = new Map<number, AddressOrigin>();
/** Beyond any real browser's tab count: clearing only costs one request its reuse. */
const REMEMBERED_TABS = 50_000;

/** Reads an address's origin into a tab's record. */
function readOrigin(url: string, starts: Map<number, string>, into: AddressOrigin): void {
  into.url = url;
  const origin = browserWrittenStart(url, starts);
  into.origin = origin ?? originOf(url);
  into.regular = origin !== null;
}

/**
 * The address's scheme and authority when they are its origin as a browser writes it, or null.
 * Within a request, a start already checked is found again by a hash of its text, taken while
 * scanning for its end (no string is built), and confirmed by comparing the text.
 */
function browserWrittenStart(url: string, starts: Map<number, string>): string | null {
  let end = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  if (end < 0) return null;
  let hash = end;
  for (; end < url.length; end += 1) {
    const code = url.charCodeAt(end);
    if (code === 47 /* / */ || code === 63 /* ? */ || code === 35 /* # */) break;
    // Kept within a small integer: such map keys are the quick ones.
    hash = (Math.imul(hash, 31) + code) & 0x3fffffff;
  }
  const known = starts.get(hash);
  if (known !== undefined && known.length === end && url.startsWith(known)) return known;
  const start = url.slice(0, end);
  if (browserWrittenOrigin(start) !== start) return null;
  starts.set(hash, start);
  return start;
}

/**
 * One pass over the tabs: each tab's origin (remembered while its address is unchanged), asked of
 * the workspace's sites once per origin. While every tab is a candidate, the candidates are the
 * tabs given, not a copy.
 */
export function indexTabs(workspace: Workspace, tabs: readonly TabMeta[]): TabIndex {
  if (originsByTab.size > REMEMBERED_TABS) originsByTab.clear();
  const starts = new Map<number, string>();
  /** Each origin's group of regular candidates, or null for an origin the workspace does not have. */
  const groups = new Map<string, TabMeta[] | null>();
  let candidates: TabMeta[] | null = null;
  const irregular: TabMeta[] = [];
  for (let position = 0; position < tabs.length; position += 1) {
    const tab = tabs[position] as TabMeta;
    let read = originsByTab.get(tab.tabId);
    if (read === undefined) {
      // What an empty address reads as: no origin.
      read = { url: '', origin: null, regular: false, memberUrl: undefined, memberOrigin: null };
      originsByTab.set(tab.tabId, read);
    }
    // A tab whose address changed is read again, into the same record.
    if (read.url !== tab.url) readOrigin(tab.url, starts, read);
    const memberUrl = workspace.memberUrls?.[String(tab.tabId)];
    if (read.memberUrl !== memberUrl) {
      read.memberUrl = memberUrl;
      // Mostly the address the tab shows (the worker saw it there): its origin is read already.
      read.memberOrigin =
        memberUrl === undefined ? null : memberUrl === tab.url ? read.origin : (browserWrittenStart(memberUrl, starts) ?? originOf(memberUrl));
    }
    let group = read.origin === null ? null : groups.get(read.origin);
    if (group === undefined && read.origin !== null) {
      group = workspace.sites[read.origin] !== undefined ? [] : null;
      groups.set(read.origin, group);
    }
    // A member off the site the workspace last saw it on went to another site (a page can send its
    // tab there): none, even before the worker has seen the navigation and taken it out.
    if (group && read.origin !== read.memberOrigin) group = null;
    if (!group) {
      // The first tab that is no candidate: the candidates so far are the tabs before it.
      candidates ??= tabs.slice(0, position);
      continue;
    }
    if (read.regular) group.push(tab);
    else irregular.push(tab);
    candidates?.push(tab);
  }
  const byOrigin = new Map<string, TabMeta[]>();
  for (const [origin, group] of groups) if (group && group.length > 0) byOrigin.set(origin, group);
  const chosen = candidates ?? tabs;
  // A request looks up one or two tabs by id, if any: a scan is cheaper than building a map (the
  // last of a repeated id, as a map built from the tabs would give).
  return {
    byId: (tabId) => tabs.findLast((tab) => tab.tabId === tabId),
    candidates: chosen,
    isCandidate: (tabId) => chosen.some((tab) => tab.tabId === tabId),
    byOrigin,
    irregular,
  };
}

/**
 * The candidates `matches` keeps, in tab order: `matchesOrigin` decides for a whole origin group
 * (true: all of it, false: none, null: ask `matches` tab by tab); irregular tabs are always asked.
 */
export function selectCandidates(index: TabIndex, matchesOrigin: (origin: string) => boolean | null, matches: (tab: TabMeta) => boolean): TabMeta[] {
  const found: TabMeta[] = [];
  let groups = 0;
  for (const [origin, group] of index.byOrigin) {
    const whole = matchesOrigin(origin);
    if (whole === false) continue;
    const before = found.length;
    if (whole === true) found.push(...group);
    else for (const tab of group) if (matches(tab)) found.push(tab);
    if (found.length > before) groups += 1;
  }
  for (const tab of index.irregular) {
    if (!matches(tab)) continue;
    found.push(tab);
    groups += 1;
  }
  if (groups <= 1) return found;
  // Matches from several origins: back in tab order.
  const chosen = new Set(found);
  return index.candidates.filter((tab) => chosen.has(tab));
}
