/**
 * The workspace's tabs indexed once per request, so the resolver looks a named tab up instead of
 * scanning: by tab id, and by origin (a site is matched against each origin the workspace shows,
 * not against each tab). Pure: plain data in, plain data out.
 *
 * Grouping by origin relies on a tab's address being written the way browsers report it (lower
 * case, no default port, no credentials): then every address starts with its origin, and a site
 * or address prefix that matches the origin matches all its tabs alike. The rare address that is
 * not (`irregular`) is looked at on its own, tab by tab, exactly as before.
 */
import { originOf, type TabMeta, type Workspace } from '../../shared/model.ts';

export interface TabIndex {
  /** Every tab given, by id (revalidating a handle's tab needs it even when it left the workspace's sites). */
  byId(tabId: number): TabMeta | undefined;
  /** The tabs a request may name — members showing a site the workspace has — in the order given. */
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

function lazily<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/**
 * One pass over the tabs, grouping them by what their address starts with (scheme and authority),
 * found by scanning each address once, without building strings: each distinct start is then
 * checked once, not each tab. Lookups by id are built only when a request needs them.
 */
export function indexTabs(workspace: Workspace, tabs: readonly TabMeta[]): TabIndex {
  // Groups by a hash of the start; a hash shared by two starts keeps both, told apart by comparing.
  const buckets = new Map<number, number[]>();
  const starts: Array<{ start: string; tabs: TabMeta[] }> = [];
  /** Each tab's group, or -1 for an address that is not http(s) written plainly. */
  const groupOf = new Int32Array(tabs.length);
  tabs.forEach((tab, position) => {
    const url = tab.url;
    const from = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
    if (from < 0) {
      groupOf[position] = -1;
      return;
    }
    let end = from;
    let hash = from;
    for (; end < url.length; end += 1) {
      const code = url.charCodeAt(end);
      if (code === 47 /* / */ || code === 63 /* ? */ || code === 35 /* # */) break;
      hash = (Math.imul(hash, 31) + code) | 0;
    }
    const bucket = buckets.get(hash);
    let group = -1;
    for (const number of bucket ?? []) {
      const known = starts[number]?.start ?? '';
      if (known.length === end && url.startsWith(known)) {
        group = number;
        break;
      }
    }
    if (group < 0) {
      group = starts.length;
      starts.push({ start: url.slice(0, end), tabs: [] });
      if (bucket) bucket.push(group);
      else buckets.set(hash, [group]);
    }
    starts[group]?.tabs.push(tab);
    groupOf[position] = group;
  });

  // Each start once: a browser-written origin the workspace has makes its whole group candidates.
  const byOrigin = new Map<string, TabMeta[]>();
  const wholeGroup = new Uint8Array(starts.length);
  let inCandidateGroups = 0;
  starts.forEach(({ start, tabs: group }, number) => {
    if (browserWrittenOrigin(start) !== start) return;
    wholeGroup[number] = 1;
    if (workspace.sites[start] === undefined) return;
    byOrigin.set(start, group);
    inCandidateGroups += group.length;
  });
  const byId = lazily(() => new Map(tabs.map((tab) => [tab.tabId, tab])));
  const index = (candidates: readonly TabMeta[], irregular: TabMeta[]): TabIndex => {
    const candidateIds = lazily(() => new Set(candidates.map((tab) => tab.tabId)));
    return { byId: (tabId) => byId().get(tabId), candidates, isCandidate: (tabId) => candidateIds().has(tabId), byOrigin, irregular };
  };
  // The usual case: every member shows one of the workspace's sites, written as browsers write it.
  if (inCandidateGroups === tabs.length) return index(tabs, []);
  // A member showing a site the workspace does not have is no candidate (it is leaving the workspace).
  const candidates: TabMeta[] = [];
  const irregular: TabMeta[] = [];
  tabs.forEach((tab, position) => {
    const group = groupOf[position] ?? -1;
    if (group >= 0 && wholeGroup[group] === 1) {
      if (workspace.sites[starts[group]?.start ?? ''] !== undefined) candidates.push(tab);
      return;
    }
    const origin = originOf(tab.url);
    if (origin === null || workspace.sites[origin] === undefined) return;
    candidates.push(tab);
    irregular.push(tab);
  });
  return index(candidates, irregular);
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
