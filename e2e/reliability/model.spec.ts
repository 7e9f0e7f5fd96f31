/**
 * Scenario 8: a model-based test. fast-check interleaves bind, unbind, act, tab close, tab
 * replace, worker restart and a cleared storage.session against the real extension, and after
 * every step checks the pages against a model: each write that ran matched its binding at that
 * moment and had the write role; nothing is written after unbind; after the session is cleared
 * everything is refused until the person's agent binds again. Every refusal must carry the code
 * the model predicts (invalid_handle for a revoked or forgotten handle, read_only_target for a
 * reference, context_changed for a tab that is not the bound one any more), and a write counts as
 * checked against its binding only when some disruption happened after its handle was made.
 * The commands are drawn from a fresh seed each run (printed; TETHER_SEED replays it).
 */
import fc from 'fast-check';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import type { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts, type ScenarioCounts } from './counts.ts';
import { withSeed } from './seed.ts';

const TABS = 3;

interface ModelTab {
  /** Bumped whenever the tab's page is not the one bound before (closed and reopened, replaced). */
  generation: number;
  title: string;
  url: string;
}

interface ModelHandle {
  handle: string;
  tab: number;
  generation: number;
  role: 'write' | 'reference';
  valid: boolean;
  /** The model's disruption count when the handle was made. */
  madeAfter: number;
}

interface Model {
  tabs: ModelTab[];
  handles: ModelHandle[];
  /** Commands so far that could change a binding: unbind, close, replace, restart, session cleared. */
  disruptions: number;
}

interface Real {
  tether: TetherDriver;
  pages: Page[];
  workspace: string;
  profile: string;
  stats: { commands: number; outcomes: Map<string, number> };
  counts: ScenarioCounts;
}

function urlFor(real: Real, tab: number, generation: number): string {
  return real.tether.sites.url('blog', `/write?editor=plain&tab=${tab}&gen=${generation}`);
}

async function openTab(real: Real, tab: number, generation: number): Promise<Page> {
  const page = await real.tether.context.newPage();
  await page.goto(urlFor(real, tab, generation));
  await page.waitForFunction(() => 'blogEditor' in window);
  return page;
}

/** The page a tab shows now (after a discard, Playwright sees a new page for it). */
async function findLivePage(real: Real, url: string): Promise<Page> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    for (const candidate of real.tether.context.pages()) {
      if (candidate.isClosed() || candidate.url() !== url) continue;
      try {
        await candidate.waitForFunction(() => 'blogEditor' in window, null, { timeout: 2000 });
        return candidate;
      } catch {
        // not this one (yet)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no live page at ${url}`);
}

/** The invariant after every step: each tab holds exactly what the model says was written there. */
async function checkPages(model: Model, real: Real): Promise<void> {
  for (let tab = 0; tab < TABS; tab += 1) {
    const page = real.pages[tab] as Page;
    expect(await page.locator('#post-title').inputValue(), `tab ${tab}`).toBe(model.tabs[tab]?.title);
  }
}

class Bind implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly tab: number,
    readonly role: 'write' | 'reference',
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    const generation = model.tabs[this.tab]?.generation ?? 0;
    const spec = { url: model.tabs[this.tab]?.url ?? '' };
    // The blog autosaves what Tether writes, so a reopened editor may offer that draft: continue it.
    const args = this.role === 'write' ? { destination: spec, continueDraft: true } : { readOnly: true, references: [spec] };
    const answer = await real.tether.agent('resolve', { profile: real.profile, workspace: real.workspace, ...args });
    expect(answer.ok, answer.ok ? '' : `${answer.error.code}: ${answer.error.message}`).toBe(true);
    if (!answer.ok) return;
    const handle = this.role === 'write' ? answer.result.write?.handle : answer.result.references?.[0]?.handle;
    model.handles.push({ handle: handle ?? '', tab: this.tab, generation, role: this.role, valid: true, madeAfter: model.disruptions });
    await checkPages(model, real);
  }
  toString = () => `bind(${this.tab}, ${this.role})`;
}

class Unbind implements fc.AsyncCommand<Model, Real> {
  constructor(readonly tab: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    // The person takes the tab out of the workspace (every handle to it dies), then puts it back.
    const tabId = await real.tether.tabIdOf(real.pages[this.tab] as Page);
    await real.tether.must({ type: 'workspace.removeTab', workspaceId: real.workspace, tabId });
    await real.tether.must({ type: 'workspace.addTab', workspaceId: real.workspace, tabId });
    // Revoked: the handles bound to this tab id (of its current page). Handles to the pages it showed
    // before (closed, replaced) are bound to other ids; they stay, and are refused as context_changed.
    const generation = model.tabs[this.tab]?.generation;
    for (const handle of model.handles) if (handle.tab === this.tab && handle.generation === generation) handle.valid = false;
    model.disruptions += 1;
    await checkPages(model, real);
  }
  toString = () => `unbind(${this.tab})`;
}

class Act implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly text: string,
  ) {}
  check = (model: Readonly<Model>) => model.handles.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    // Half the time one of the two newest handles (likely still good), else any handle ever made.
    const count = model.handles.length;
    const index = this.pick % 2 === 0 ? count - 1 - (Math.floor(this.pick / 2) % Math.min(2, count)) : this.pick % count;
    const bound = model.handles[index] as ModelHandle;
    const tab = model.tabs[bound.tab] as ModelTab;
    // The model's prediction, in the order the act tool checks: the handle, its role, the binding.
    const expected = !bound.valid
      ? 'invalid_handle'
      : bound.role !== 'write'
        ? 'read_only_target'
        : bound.generation !== tab.generation
          ? 'context_changed'
          : 'ran';
    const answer = await real.tether.agent('act', {
      profile: real.profile,
      workspace: real.workspace,
      handle: bound.handle,
      plan: { steps: [{ op: 'fill', field: 'title', text: this.text, expect: { text: tab.title } }], continueDraft: true },
    });
    const what = `act via ${bound.role} handle to tab ${bound.tab} (valid ${bound.valid}, generation ${bound.generation} vs ${tab.generation})`;
    expect(answer.ok ? 'ran' : answer.error.code, what).toBe(expected);
    const disrupted = model.disruptions > bound.madeAfter;
    if (answer.ok) {
      if (disrupted) real.counts.checkedWrite(answer);
      else real.counts.write(answer);
      tab.title = this.text;
    } else {
      real.counts.refused(answer, expected);
    }
    const outcome = answer.ok ? (disrupted ? 'ran after a disruption' : 'ran') : expected;
    real.stats.outcomes.set(outcome, (real.stats.outcomes.get(outcome) ?? 0) + 1);
    await checkPages(model, real);
  }
  toString = () => `act(${this.pick}, ${JSON.stringify(this.text)})`;
}

class CloseTab implements fc.AsyncCommand<Model, Real> {
  constructor(readonly tab: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    const state = model.tabs[this.tab] as ModelTab;
    await (real.pages[this.tab] as Page).close();
    state.generation += 1;
    state.title = '';
    state.url = urlFor(real, this.tab, state.generation);
    model.disruptions += 1;
    const page = await openTab(real, this.tab, state.generation);
    real.pages[this.tab] = page;
    await real.tether.must({ type: 'workspace.addTab', workspaceId: real.workspace, tabId: await real.tether.tabIdOf(page) });
    await checkPages(model, real);
  }
  toString = () => `closeTab(${this.tab})`;
}

class ReplaceTab implements fc.AsyncCommand<Model, Real> {
  constructor(readonly tab: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    const state = model.tabs[this.tab] as ModelTab;
    const page = real.pages[this.tab] as Page;
    const url = page.url();
    const control = await real.tether.control();
    await control.bringToFront();
    // Discarding gives the tab a new id (tabs.onReplaced); reloading brings a fresh page back.
    const before = await real.tether.tabIdOf(page);
    const replacement = await control.evaluate(async (tabId) => (await chrome.tabs.discard(tabId))?.id ?? -1, before);
    // Chromium replaces a discarded tab under a new id (see pageAndTabChanges.spec.ts).
    expect(replacement).not.toBe(-1);
    expect(replacement).not.toBe(before);
    model.disruptions += 1;
    await control.evaluate(async (tabId) => {
      await chrome.tabs.reload(tabId);
    }, replacement);
    real.pages[this.tab] = await findLivePage(real, url);
    state.generation += 1;
    state.title = '';
    await checkPages(model, real);
  }
  toString = () => `replaceTab(${this.tab})`;
}

class RestartWorker implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    const stop = await real.tether.stopServiceWorker();
    model.disruptions += 1;
    // A request wakes a new worker: it, not the stopped one, answers from here on.
    await real.tether.state();
    await real.tether.expectNewBackgroundServed(stop);
    await checkPages(model, real);
  }
  toString = () => 'restartWorker';
}

class ClearSession implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    const control = await real.tether.control();
    await control.evaluate(() => chrome.storage.session.clear());
    for (const handle of model.handles) handle.valid = false;
    model.disruptions += 1;
    await checkPages(model, real);
  }
  toString = () => 'clearSession';
}

const tabIndex = fc.integer({ min: 0, max: TABS - 1 });
const title = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim() === text && !/[\n\r]/.test(text));
const bind = fc.tuple(tabIndex, fc.constantFrom<'write' | 'reference'>('write', 'write', 'reference')).map(([tab, role]) => new Bind(tab, role));
const act = fc.tuple(fc.nat(), title).map(([pick, text]) => new Act(pick, text));
// Binds and acts are drawn more often than the disruptions, so most runs write and refuse both.
const commands = [
  bind,
  bind,
  act,
  act,
  act,
  tabIndex.map((tab) => new Unbind(tab)),
  tabIndex.map((tab) => new CloseTab(tab)),
  tabIndex.map((tab) => new ReplaceTab(tab)),
  fc.constant(new RestartWorker()),
  fc.constant(new ClearSession()),
];

test('model-based: bind, unbind, act, close, replace, restart and a cleared session, checked after every step', async ({ tether, sites }) => {
  test.setTimeout(600_000);
  await tether.signIn('blog', 'alice');
  const profile = await tether.profileId();
  const stats = { commands: 0, outcomes: new Map<string, number>() };
  const counts = scenarioCounts('model-based interleavings');
  let workspaceId: string | null = null;
  let pages: Page[] = [];
  await withSeed('model-based test', (seed) =>
    fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 24, size: 'large' }), async (cmds) => {
        for (const page of pages) if (!page.isClosed()) await page.close();
        if (workspaceId) await tether.must({ type: 'workspace.delete', workspaceId });
        pages = [];
        sites.state.blog.drafts.clear();
        const real: Real = { tether, pages, workspace: '', profile, stats, counts };
        for (let tab = 0; tab < TABS; tab += 1) pages.push(await openTab(real, tab, 0));
        const workspace = await tether.workspaceOf(pages, { writable: ['blog'] });
        workspaceId = workspace.id;
        real.workspace = workspace.id;
        const model: Model = {
          tabs: Array.from({ length: TABS }, (_, tab) => ({ generation: 0, title: '', url: urlFor(real, tab, 0) })),
          handles: [],
          disruptions: 0,
        };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 20, seed, endOnFailure: true },
    ),
  );
  const outcomes = [...stats.outcomes.entries()]
    .sort()
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ');
  console.log(`model-based: ${stats.commands} commands; acts: ${outcomes}`);
  expect(counts.counts.checkedWrites + counts.counts.otherWrites).toBeGreaterThan(0);
  expect(Object.keys(counts.counts.refusals).length).toBeGreaterThan(0);
  counts.generated(stats.commands);
  counts.save();
});
