/**
 * Resolver and revalidation at scale: time per request over 10 to 10,000 tabs of metadata, pure
 * functions in Node (no browser), and how the time grows with the tab count (CPU time per call).
 * The resolver remembers each tab's origin while its address is unchanged (tabIndex.ts), so it is
 * measured both ways: the same tabs again (as the worker reads them on the next request), and every
 * tab's address changed since the last request (each origin read again: the cost after a change).
 */
import { resolveTargets, type ResolveInput } from '../background/core/resolveTargets.ts';
import { siteMatcher } from '../shared/model/matchSite.ts';
import { originOf, urlWithoutFragment, type TabMeta } from '../shared/model/targetModel.ts';
import { revalidateBinding } from '../background/core/revalidateBinding.ts';
import { binding, tab, workspace } from '../shared/testing/fixtures.ts';
import { median } from './stats.ts';

export interface ScaleRow {
  tabs: number;
  /** Per request, the tabs' addresses unchanged since the previous request. */
  resolveUs: number;
  /** Per request, every tab's address changed since the previous request. */
  rebuildUs: number;
  /** The same request's tabs found by testing every tab on its own, as resolve did before its index. */
  scanUs: number;
  revalidateUs: number;
}

/** The bench request's matching done by scanning: each spec filters every tab (origin, then site or address). */
function scanEveryTab(input: ResolveInput): number {
  const candidates = (): TabMeta[] =>
    input.tabs.filter((item) => {
      const origin = originOf(item.url);
      return origin !== null && input.workspace.sites[origin] !== undefined;
    });
  const site = input.request.destination?.site ?? '';
  const matches = siteMatcher(site);
  const write = candidates().filter((item) => matches(item.url));
  const wanted = urlWithoutFragment(input.request.references[0]?.url ?? '');
  const all = candidates();
  const exact = all.filter((item) => urlWithoutFragment(item.url) === wanted);
  const references = exact.length > 0 ? exact : all.filter((item) => item.url.startsWith(wanted));
  return write.length + references.length;
}

/** `moved` gives every tab another address (a fragment added) that the request resolves alike. */
function inputFor(count: number, moved = ''): ResolveInput {
  const tabs = Array.from({ length: count }, (_, index) =>
    index === count - 1
      ? tab(index, `https://blog.example/write${moved}`, 'New post')
      : tab(index, `https://site${index % 50}.example/page/${index}${moved}`, `Page ${index}`),
  );
  const scope = workspace(tabs, ['https://blog.example']);
  return {
    profileId: 'pr_test',
    workspace: scope,
    tabs,
    request: { destination: { site: 'blog' }, references: [{ url: 'https://site7.example/page/7' }], readOnly: false },
    requestTimeTabId: 0,
    program: null,
    programs: [],
    busyTabIds: [],
    handleBindings: {},
  };
}

/**
 * Microseconds of this process's CPU time per call (median of batches): on a shared machine the
 * wall clock also counts the time other programs had the CPU.
 */
export function perCallMicros(run: () => void, budgetMs = 300): number {
  for (let warm = 0; warm < 50; warm += 1) run();
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (performance.now() < until || samples.length < 20) {
    const batch = 20;
    const started = process.cpuUsage();
    for (let index = 0; index < batch; index += 1) run();
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / batch);
  }
  return median(samples);
}

export function measureResolverScale(counts = [10, 100, 1000, 10_000]): ScaleRow[] {
  return counts.map((count) => {
    const input = inputFor(count);
    const moved = inputFor(count, '#moved');
    for (const each of [input, moved]) {
      const check = resolveTargets(each);
      if (!check.ok || check.value.write?.tab.tabId !== count - 1 || check.value.references[0]?.tab.tabId !== 7) {
        throw new Error('resolver bench setup is wrong');
      }
    }
    // Alternating between the two, every tab's address differs from the one seen the call before.
    let flip = false;
    const bound = binding(input.tabs[count - 1] ?? tab(0, 'https://blog.example/write'));
    const snapshot = { profileId: 'pr_test', workspace: input.workspace, tab: input.tabs[count - 1] ?? null };
    if (scanEveryTab(input) !== 2) throw new Error('resolver bench scan is wrong');
    return {
      tabs: count,
      resolveUs: perCallMicros(() => void resolveTargets(input)),
      rebuildUs: perCallMicros(() => {
        flip = !flip;
        resolveTargets(flip ? moved : input);
      }),
      scanUs: perCallMicros(() => void scanEveryTab(input)),
      revalidateUs: perCallMicros(() => void revalidateBinding(bound, snapshot)),
    };
  });
}
