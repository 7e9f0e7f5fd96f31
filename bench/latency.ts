/**
 * Latency of inspect and of a three-step act through the whole path (MCP client → bridge →
 * extension → content script → page), against the same operations done by Playwright directly
 * over CDP on the same page; and where Tether's time goes, stage by stage. The primary path is the
 * native one: the host offers the worker the bridge's loopback port, and calls go bridge → direct
 * WebSocket → worker; inspect is also measured through the host (bridge → host's unix socket →
 * host → native port → worker: a bridge that offers no direct link) and over the WebSocket
 * fallback, last (the extension uses it only once no native host serves).
 * Inspects alternate with direct reads in blocks of ten, so both see the same stretches of a shared machine;
 * each block starts once the previous one's aftermath (the journal notice to open pages) is over.
 */
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import type { EnvelopeMeta } from '../shared/agent/agentProtocol.ts';
import { JOURNAL_NOTICE_MS } from '../shared/extension/uiProtocol.ts';
import { median, p95, timed } from './stats.ts';
import type { BenchCall, BenchTether } from './tetherSetup.ts';

export interface LatencyRow {
  operation: string;
  tether: { median: number; p95: number };
  direct: { median: number; p95: number };
  stages: Record<string, number>;
  /** Samples that went the way the row says, of `samples`. */
  onChannel: number;
  samples: number;
}

/** One request as measured: the whole path, the bridge's part of it, the worker's part, and its journal record. */
interface Sample {
  total: number;
  bridgeMs: number;
  /** The native host's wait for the worker (native path only). */
  hostMs: number;
  workerMs: number;
  journalId: string;
}

type Channel = 'direct' | 'host' | 'websocket';

/** How many samples went the way their row says (a call on the direct link that the host carried instead would say so). */
function onChannel(samples: Sample[], channel: Channel): number {
  return samples.filter((sample) => (channel === 'host') === sample.hostMs > 0).length;
}

function stageMedians(samples: Sample[], records: Map<string, JournalRecord>, channel: Channel): Record<string, number> {
  const matched = samples.flatMap((sample) => {
    const record = records.get(sample.journalId);
    return record ? [{ sample, record }] : [];
  });
  const at = (record: JournalRecord, point: keyof JournalRecord['lifecycle']) => record.lifecycle[point] ?? 0;
  return {
    'MCP stdio + bridge (client → bridge → client)': median(samples.map((sample) => sample.total - sample.bridgeMs)),
    ...(channel === 'host'
      ? {
          'bridge ↔ native host: unix socket, sealed (node:crypto both sides)': median(samples.map((sample) => sample.bridgeMs - sample.hostMs)),
          'native host ↔ worker: the browser’s native-messaging port (JSON, not sealed)': median(samples.map((sample) => sample.hostMs - sample.workerMs)),
        }
      : {
          'bridge ↔ worker: loopback WebSocket, sealed (node:crypto / Web Crypto in the worker; the direct link or the fallback)': median(
            samples.map((sample) => sample.bridgeMs - sample.workerMs),
          ),
        }),
    'worker before the page: parse, scope, handle; an act also revalidates and marks itself running (prepare → dispatch)': median(
      matched.map(({ record }) => at(record, 'dispatch') - at(record, 'prepare')),
    ),
    'page round trip: content script work; an inspect revalidates alongside (dispatch → observe)': median(
      matched.map(({ record }) => at(record, 'observe') - at(record, 'dispatch')),
    ),
    'worker after the page: journal record (and the act’s record for retries), then the answer (observe → answered)': median(
      matched.map(({ sample, record }) => sample.workerMs - at(record, 'observe')),
    ),
  };
}

async function agentRecords(bench: BenchTether, count: number): Promise<Map<string, JournalRecord>> {
  const records = await bench.driver.must({ type: 'journal.list', limit: count + 50 });
  return new Map(records.map((record) => [record.id, record]));
}

function sampleOf(took: number, meta: EnvelopeMeta | undefined): Sample {
  return {
    total: took,
    bridgeMs: meta?.bridgeMs ?? 0,
    hostMs: meta?.hostMs ?? 0,
    workerMs: meta?.tookMs ?? 0,
    journalId: meta?.journal?.saved === true ? meta.journal.id : '',
  };
}

const BLOCK = 10;

/**
 * Between blocks: longer than the worker waits before telling open Tether pages (the bench's
 * control page) that the journal changed, so the page's reload after a block of inspects lands in
 * neither the next direct block nor the next Tether block.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, JOURNAL_NOTICE_MS + 50));

export async function measureLatency(bench: BenchTether, iterations = 200, warmup = 10): Promise<LatencyRow[]> {
  const { profile, workspace } = bench;
  await bench.blog.goto(bench.sites.url('blog', '/write?editor=plain'));
  await bench.blog.waitForFunction(() => 'blogEditor' in window);
  const resolved = await bench.call('resolve', { profile, workspace, destination: { site: 'blog' }, continueDraft: true });
  if (!resolved.envelope.ok) throw new Error(`resolve failed: ${resolved.envelope.error.message}`);
  const handle = resolved.envelope.result.write?.handle;

  // inspect (debug: the answer's meta carries the bridge's and the worker's times, and the journal id),
  // in blocks of ten alternating with blocks of the same read done directly: both see the same
  // stretches of a shared machine, and neither runs right behind the other's leftovers
  const inspect = async (call: BenchCall) => {
    const samples: Sample[] = [];
    const direct: number[] = [];
    for (let block = 0; block < warmup + iterations; block += BLOCK) {
      for (let index = block; index < Math.min(block + BLOCK, warmup + iterations); index += 1) {
        const [took, answer] = await timed(() => call('inspect', { profile, workspace, handle, debug: true }));
        if (!answer.envelope.ok) throw new Error(`inspect failed: ${answer.envelope.error.message}`);
        if (index >= warmup) samples.push(sampleOf(took, answer.envelope.meta));
      }
      await settle();
      for (let index = block; index < Math.min(block + BLOCK, warmup + iterations); index += 1) {
        const [took] = await timed(() => directInspect(bench));
        if (index >= warmup) direct.push(took);
      }
      await settle();
    }
    return { samples, direct, records: await agentRecords(bench, iterations) };
  };
  const overDirect = await inspect(bench.call);
  const throughHost = await inspect(bench.callHost);

  // a three-step act, each step expecting what the previous act left
  const actSamples: Sample[] = [];
  const categories = ['daily', 'notes', 'reviews'];
  let title = '';
  let body = '';
  let category = 'daily';
  for (let index = 0; index < warmup + iterations; index += 1) {
    const next = { title: `Title ${index}`, body: `Body ${index}\nSecond line`, category: categories[(index + 1) % 3] ?? 'daily' };
    const plan = {
      steps: [
        { op: 'fill', field: 'title', text: next.title, expect: { text: title } },
        { op: 'fill', field: 'body', text: next.body, expect: { text: body } },
        { op: 'select', field: 'category', value: next.category, expect: { text: category } },
      ],
      continueDraft: true,
    };
    const [took, answer] = await timed(() => bench.call('act', { profile, workspace, handle, plan, debug: true }));
    if (!answer.envelope.ok) throw new Error(`act failed: ${answer.envelope.error.message}`);
    ({ title, body, category } = next);
    if (index >= warmup) actSamples.push(sampleOf(took, answer.envelope.meta));
  }
  const actRecords = await agentRecords(bench, iterations);

  // the act done directly by Playwright over CDP
  const directAct: number[] = [];
  for (let index = 0; index < warmup + iterations; index += 1) {
    const [took] = await timed(async () => {
      await bench.blog.fill('#post-title', `Direct ${index}`);
      await bench.blog.fill('#post-body', `Direct body ${index}\nSecond line`);
      await bench.blog.selectOption('#post-category', categories[index % 3] ?? 'daily');
    });
    if (index >= warmup) directAct.push(took);
  }

  await bench.useWebSocket();
  const overWebSocket = await inspect(bench.callWs);

  const row = (operation: string, samples: Sample[], direct: number[], records: Map<string, JournalRecord>, channel: Channel): LatencyRow => ({
    operation,
    tether: { median: median(samples.map((sample) => sample.total)), p95: p95(samples.map((sample) => sample.total)) },
    direct: { median: median(direct), p95: p95(direct) },
    stages: stageMedians(samples, records, channel),
    onChannel: onChannel(samples, channel),
    samples: samples.length,
  });
  return [
    row('inspect (native path: direct link)', overDirect.samples, overDirect.direct, overDirect.records, 'direct'),
    row('act (3 steps, native path: direct link)', actSamples, directAct, actRecords, 'direct'),
    row('inspect (native path: through the host)', throughHost.samples, throughHost.direct, throughHost.records, 'host'),
    row('inspect (WebSocket fallback)', overWebSocket.samples, overWebSocket.direct, overWebSocket.records, 'websocket'),
  ];
}

/** What an inspect reads, read by Playwright directly over CDP: one evaluate in the page. */
function directInspect(bench: BenchTether) {
  return bench.blog.evaluate(() => ({
    url: location.href,
    title: document.title,
    fields: Array.from(document.querySelectorAll('input, textarea, select')).map((element) => ({
      name: element.id,
      length: (element as HTMLInputElement).value.length,
    })),
    actions: Array.from(document.querySelectorAll('button')).map((button) => button.textContent),
  }));
}
