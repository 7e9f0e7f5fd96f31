/**
 * Scenario 9: load. 20 concurrent agent clients (the bridge's own relay clients, as every extra
 * `tether-mcp` process is one), each a named agent with its own MCP session, across 2 browser
 * profiles and 10 tabs, for one minute, bounded and on loopback only. Two agents share each tab:
 * only the one whose task holds it writes; the other is refused, and now and then tries to write
 * anyway with the handle of its earlier hold. The holder releases the tab every few rounds, so the
 * tab changes hands. Afterwards: no journal record lost, no write on a wrong tab, no write by an
 * agent that did not hold the tab, the worker's memory flat.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Hub } from '../../bridge/loopback/hub.ts';
import { Relay } from '../../bridge/loopback/relay.ts';
import { MAX_JOURNAL_RECORDS as MAX_RECORDS } from '../../shared/model/journalRecord.ts';
import type { ToolEnvelope } from '../../shared/agent/agentProtocol.ts';
import { expect, test } from '../fixtures.ts';
import { launchTether } from '../support/launchTether.ts';
import { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts } from './counts.ts';

const CLIENTS = 20;
const TABS_PER_PROFILE = 5;
const SECONDS = Number(process.env.TETHER_LOAD_SECONDS ?? 60);
const PAUSE_MS = 250;
/** The holder ends its task (releases the tab) every this many rounds. */
const RELEASE_EVERY = 3;

interface Browser {
  tether: TetherDriver;
  profile: string;
  workspace: string;
  pages: Page[];
  urls: string[];
  requests: number;
}

async function setUpBrowser(tether: TetherDriver, account: string, hub: { port: number; token: string }): Promise<Browser> {
  await tether.signIn('blog', account);
  const pages: Page[] = [];
  for (let slot = 0; slot < TABS_PER_PROFILE; slot += 1) pages.push(await tether.open('blog', `/write?editor=plain&slot=${slot}`));
  for (const page of pages) await page.waitForFunction(() => 'blogEditor' in window);
  const workspace = await tether.workspaceOf(pages, { writable: ['blog'] });
  await tether.must({ type: 'connection.set', token: hub.token, port: hub.port });
  await expect.poll(async () => (await tether.state()).connection.state, { timeout: 15_000 }).toBe('connected');
  return { tether, profile: await tether.profileId(), workspace: workspace.id, pages, urls: pages.map((page) => page.url()), requests: 0 };
}

test('20 named agents, 2 profiles, 10 tabs, one minute: no record lost, no wrong tab, no write by a non-holder, flat memory', async ({ tether, sites }) => {
  test.setTimeout(SECONDS * 1000 + 180_000);
  // The acts here run right after their own resolve and inspect: counted as writes, not as checked ones.
  const counts = scenarioCounts('load: 20 named agents, 2 profiles, 10 tabs');
  const port = 18000 + (process.pid % 1000);
  const token = `load-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const hub = new Hub(port, token);
  await hub.listen();
  const second = await launchTether();
  const clients: Relay[] = [];
  try {
    const browsers = [
      await setUpBrowser(tether, 'alice', { port, token }),
      await setUpBrowser(new TetherDriver(second.context, second.extensionId, sites), 'bob', { port, token }),
    ];
    for (let index = 0; index < CLIENTS; index += 1) {
      const relay = new Relay(port, token, `load client ${index}`);
      await relay.connect();
      clients.push(relay);
    }
    const journalBefore = await Promise.all(browsers.map(async (browser) => (await browser.tether.must({ type: 'journal.export' })).count));
    const outcomes = new Map<string, number>();
    const writes: Array<{ browser: number; slot: number; text: string }> = [];
    const count = (code: string) => outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
    const deadline = Date.now() + SECONDS * 1000;
    let heapWarm = 0;
    const warmup = setTimeout(
      () => {
        void browsers[0]?.tether.workerHeapBytes().then((bytes) => {
          heapWarm = bytes;
        });
      },
      Math.min(10_000, (SECONDS * 1000) / 4),
    );

    // Each client is an agent of its own: its name and session travel with every call it makes.
    const identities = clients.map((_relay, index) => ({ name: `load agent ${index}`, session: randomBytes(16).toString('hex') }));
    const call = async <T extends 'resolve' | 'inspect' | 'act'>(
      browser: Browser,
      relay: Relay,
      tool: T,
      args: Record<string, unknown>,
    ): Promise<ToolEnvelope<T>> => {
      const agent = identities[clients.indexOf(relay)];
      // What came over the wire is read as this tool's answer.
      const envelope = (await relay.call({
        tool,
        args: { profile: browser.profile, workspace: browser.workspace, ...args },
        ...(agent ? { agent } : {}),
      })) as ToolEnvelope<T>;
      browser.requests += 1;
      count(envelope.ok ? `${tool}:ok` : `${tool}:${envelope.error.code}`);
      return envelope;
    };

    /**
     * When each client surely held its tab, as it saw it: from a resolve's answer (the hold was taken
     * before) to the moment it sent its release (the hold ended after). Two clients' spans on one tab
     * must never overlap.
     */
    const held: Array<{ browser: number; slot: number; client: number; from: number; to: number }> = [];
    let nonHolderTries = 0;
    const nonHolderWrites: string[] = [];
    await Promise.all(
      clients.map(async (relay, index) => {
        const browserIndex = index % 2;
        const browser = browsers[browserIndex] as Browser;
        const slot = Math.floor(index / 2) % TABS_PER_PROFILE;
        let handle: string | undefined;
        let hash: string | undefined;
        let holding: number | null = null;
        for (let round = 0; Date.now() < deadline; round += 1) {
          const resolved = await call(browser, relay, 'resolve', { destination: { url: browser.urls[slot] }, continueDraft: true });
          if (resolved.ok) {
            holding ??= performance.now();
            handle = resolved.result.write?.handle;
            const inspected = await call(browser, relay, 'inspect', { handle });
            if (inspected.ok) {
              const text = `c${index}r${round}`;
              hash = inspected.result.fields?.find((field) => field.name === 'title')?.hash;
              const release = round % RELEASE_EVERY === RELEASE_EVERY - 1;
              const sentAt = performance.now();
              const acted = await call(browser, relay, 'act', {
                handle,
                requestId: `load-${index}-${round}`,
                plan: { steps: [{ op: 'fill', field: 'title', text, expect: { hash } }], continueDraft: true },
                ...(release ? { release: true } : {}),
              });
              if (acted.ok) {
                counts.write(acted);
                writes.push({ browser: browserIndex, slot, text });
              }
              if (acted.ok && release) {
                held.push({ browser: browserIndex, slot, client: index, from: holding, to: sentAt });
                holding = null;
              }
            }
          } else if (resolved.error.code === 'target_busy' && handle !== undefined) {
            // Not the holder: it tries to write anyway, with the handle of its earlier hold and what
            // the field holds now (read through that handle: reading is anyone's), so only the hold stops it.
            const now = await call(browser, relay, 'inspect', { handle });
            const current = now.ok ? now.result.fields?.find((field) => field.name === 'title')?.hash : undefined;
            if (current !== undefined) {
              nonHolderTries += 1;
              const text = `c${index}r${round}x`;
              const acted = await call(browser, relay, 'act', {
                handle,
                requestId: `load-${index}-${round}-x`,
                plan: { steps: [{ op: 'fill', field: 'title', text, expect: { hash: current } }], continueDraft: true },
              });
              if (acted.ok) nonHolderWrites.push(text);
              // Another agent holds the tab (target_busy), or held it and let it go since the inspect: the
              // handle's own hold is gone either way (context_changed, changed: ["holder"]).
              else counts.refused(acted, acted.error.code === 'context_changed' ? 'context_changed' : 'target_busy');
            }
          }
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
        if (holding !== null) held.push({ browser: browserIndex, slot, client: index, from: holding, to: performance.now() });
      }),
    );
    clearTimeout(warmup);
    const heapEnd = await browsers[0]?.tether.workerHeapBytes();
    const summary = [...outcomes.entries()]
      .sort()
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    const total = browsers.reduce((sum, browser) => sum + browser.requests, 0);
    console.log(`load: ${total} requests in ${SECONDS}s (${writes.length} writes); ${summary}; worker heap ${heapWarm} → ${heapEnd} bytes`);

    // Nothing the hub could not deliver, and every request a browser answered is in its journal.
    expect([...outcomes.keys()].filter((key) => key.endsWith('browser_not_connected') || key.endsWith('timeout'))).toEqual([]);
    for (const [index, browser] of browsers.entries()) {
      // The journal is bounded (oldest out past MAX_RECORDS); this load stays under it, so every record must be there.
      expect(browser.requests).toBeLessThan(MAX_RECORDS - (journalBefore[index] ?? 0));
      const after = (await browser.tether.must({ type: 'journal.export' })).count;
      expect(after - (journalBefore[index] ?? 0), `journal of profile ${index}`).toBe(browser.requests);
    }
    // Every write landed on its own tab, and no tab ever held another tab's text.
    for (const [browserIndex, browser] of browsers.entries()) {
      for (const [slot, page] of browser.pages.entries()) {
        const history = await page.evaluate(() => (window as unknown as { titleHistory: string[] }).titleHistory);
        for (const text of history) {
          const client = Number(/^c(\d+)r\d+$/.exec(text)?.[1] ?? -1);
          expect(client % 2, `tab ${slot} of profile ${browserIndex} held ${text}`).toBe(browserIndex);
          expect(Math.floor(client / 2) % TABS_PER_PROFILE, `tab ${slot} of profile ${browserIndex} held ${text}`).toBe(slot);
        }
        for (const write of writes.filter((item) => item.browser === browserIndex && item.slot === slot)) expect(history).toContain(write.text);
      }
    }
    expect(writes.length).toBeGreaterThan(CLIENTS);
    // Only holders wrote: every try by a non-holder was refused, none of its texts is on any page,
    // and on each tab no two agents' spans of holding it overlap.
    console.log(`load: ${nonHolderTries} writes tried by agents that did not hold the tab, ${nonHolderWrites.length} taken; ${held.length} spans of holding`);
    expect(nonHolderTries).toBeGreaterThan(0);
    expect(nonHolderWrites).toEqual([]);
    for (const browser of browsers)
      for (const page of browser.pages) {
        const history = await page.evaluate(() => (window as unknown as { titleHistory: string[] }).titleHistory);
        expect(history.filter((text) => text.endsWith('x'))).toEqual([]);
      }
    for (const span of held) {
      const overlapping = held.filter(
        (other) => other.browser === span.browser && other.slot === span.slot && other.client !== span.client && other.from < span.to && span.from < other.to,
      );
      expect(overlapping, `client ${span.client} held tab ${span.slot} of profile ${span.browser} while another did`).toEqual([]);
    }
    // The tabs changed hands: both agents of a tab held it at some time.
    expect(new Set(held.map((span) => span.client)).size).toBeGreaterThan(CLIENTS / 2);
    // Flat: after a minute of load the worker holds no more than it did once warm (plus slack for GC timing).
    expect(heapEnd ?? 0).toBeLessThan(heapWarm * 1.5 + 1_000_000);
    counts.sent(total);
    counts.save();
  } finally {
    for (const relay of clients) relay.close();
    await second.context.close();
    await hub.close();
  }
});
