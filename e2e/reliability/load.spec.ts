/**
 * Scenario 9: load. 20 concurrent agent clients (the bridge's own relay clients, as every extra
 * `tether-mcp` process is one) across 2 browser profiles and 10 tabs, for one minute, bounded and
 * on loopback only. Afterwards: no journal record lost, no write on a wrong tab, the worker's
 * memory flat.
 */
import type { Page } from '@playwright/test';
import { Hub } from '../../bridge/hub.ts';
import { Relay } from '../../bridge/relay.ts';
import { MAX_JOURNAL_RECORDS as MAX_RECORDS } from '../../shared/journalRecord.ts';
import type { ToolEnvelope } from '../../shared/protocol.ts';
import { expect, test } from '../fixtures.ts';
import { launchTether } from '../support/launchTether.ts';
import { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts } from './counts.ts';

const CLIENTS = 20;
const TABS_PER_PROFILE = 5;
const SECONDS = Number(process.env.TETHER_LOAD_SECONDS ?? 60);
const PAUSE_MS = 250;

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

test('20 agent clients, 2 profiles, 10 tabs, one minute: no record lost, no wrong tab, flat memory', async ({ tether, sites }) => {
  test.setTimeout(SECONDS * 1000 + 180_000);
  // The acts here run right after their own resolve and inspect: counted as writes, not as checked ones.
  const counts = scenarioCounts('load: 20 clients, 2 profiles, 10 tabs');
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

    const call = async <T extends 'resolve' | 'inspect' | 'act'>(
      browser: Browser,
      relay: Relay,
      tool: T,
      args: Record<string, unknown>,
    ): Promise<ToolEnvelope<T>> => {
      // What came over the wire is read as this tool's answer.
      const envelope = (await relay.call({ tool, args: { profile: browser.profile, workspace: browser.workspace, ...args } })) as ToolEnvelope<T>;
      browser.requests += 1;
      count(envelope.ok ? `${tool}:ok` : `${tool}:${envelope.error.code}`);
      return envelope;
    };

    await Promise.all(
      clients.map(async (relay, index) => {
        const browserIndex = index % 2;
        const browser = browsers[browserIndex] as Browser;
        const slot = Math.floor(index / 2) % TABS_PER_PROFILE;
        for (let round = 0; Date.now() < deadline; round += 1) {
          const resolved = await call(browser, relay, 'resolve', { destination: { url: browser.urls[slot] }, continueDraft: true });
          if (resolved.ok) {
            const handle = resolved.result.write?.handle;
            const inspected = await call(browser, relay, 'inspect', { handle });
            if (inspected.ok) {
              const text = `c${index}r${round}`;
              const hash = inspected.result.fields?.find((field) => field.name === 'title')?.hash;
              const acted = await call(browser, relay, 'act', {
                handle,
                requestId: `load-${index}-${round}`,
                plan: { steps: [{ op: 'fill', field: 'title', text, expect: { hash } }], continueDraft: true },
              });
              if (acted.ok) {
                counts.write(acted);
                writes.push({ browser: browserIndex, slot, text });
              }
            }
          }
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
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
