/**
 * Latency of inspect and of a three-step act through the whole path (MCP client → bridge →
 * extension → content script → page), against the same operations done by Playwright directly
 * over CDP on the same page; and where Tether's time goes, stage by stage.
 */
import type { JournalRecord } from '../shared/journalRecord.ts';
import { median, p95, timed } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

export interface LatencyRow {
  operation: string;
  tether: { median: number; p95: number };
  direct: { median: number; p95: number };
  stages: Record<string, number>;
}

function stageMedians(totals: number[], bridge: number[], records: JournalRecord[]): Record<string, number> {
  const worker = records.map((record) => record.tookMs);
  const lifecycle = (from: keyof JournalRecord['lifecycle'], to: keyof JournalRecord['lifecycle']) =>
    median(records.map((record) => (record.lifecycle[to] ?? 0) - (record.lifecycle[from] ?? 0)));
  return {
    'MCP stdio + bridge parsing': median(totals.map((total, index) => total - (bridge[index] ?? 0))),
    'bridge ↔ extension WebSocket': median(bridge.map((value, index) => value - (worker[index] ?? 0))),
    'worker: parse, scope, revalidate, validate (prepare → decide)': lifecycle('prepare', 'decide'),
    'worker: decide → dispatch': lifecycle('decide', 'dispatch'),
    'page round trip: content script work (dispatch → observe)': lifecycle('dispatch', 'observe'),
    'journal record (observe → saved)': median(records.map((record) => record.tookMs - (record.lifecycle.observe ?? 0))),
  };
}

async function agentRecords(bench: BenchTether, tool: string, count: number): Promise<JournalRecord[]> {
  const records = await bench.driver.must({ type: 'journal.list', limit: 500 });
  return records.filter((record) => record.tool === tool && record.via === 'agent').slice(0, count).reverse();
}

export async function measureLatency(bench: BenchTether, iterations = 200, warmup = 10): Promise<LatencyRow[]> {
  const { profile, workspace } = bench;
  await bench.blog.goto(bench.sites.url('blog', '/write?editor=plain'));
  await bench.blog.waitForFunction(() => 'blogEditor' in window);
  const resolved = await bench.call('resolve', { profile, workspace, destination: { site: 'blog' }, continueDraft: true });
  if (!resolved.envelope.ok) throw new Error(`resolve failed: ${resolved.envelope.error.message}`);
  const handle = (resolved.envelope.result as { write: { handle: string } }).write.handle;

  // inspect
  const inspectTotals: number[] = [];
  const inspectBridge: number[] = [];
  for (let index = 0; index < warmup + iterations; index += 1) {
    const [took, answer] = await timed(() => bench.call('inspect', { profile, workspace, handle }));
    if (!answer.envelope.ok) throw new Error(`inspect failed: ${answer.envelope.error.message}`);
    if (index < warmup) continue;
    inspectTotals.push(took);
    inspectBridge.push(answer.envelope.meta.bridgeMs ?? 0);
  }
  const inspectRecords = await agentRecords(bench, 'inspect', iterations);

  // a three-step act, each step expecting what the previous act left
  const actTotals: number[] = [];
  const actBridge: number[] = [];
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
    const [took, answer] = await timed(() => bench.call('act', { profile, workspace, handle, plan }));
    if (!answer.envelope.ok) throw new Error(`act failed: ${answer.envelope.error.message}`);
    ({ title, body, category } = next);
    if (index < warmup) continue;
    actTotals.push(took);
    actBridge.push(answer.envelope.meta.bridgeMs ?? 0);
  }
  const actRecords = await agentRecords(bench, 'act', iterations);

  // the same, done directly by Playwright over CDP
  const directInspect: number[] = [];
  for (let index = 0; index < warmup + iterations; index += 1) {
    const [took] = await timed(() =>
      bench.blog.evaluate(() => ({
        url: location.href,
        title: document.title,
        fields: Array.from(document.querySelectorAll('input, textarea, select')).map((element) => ({
          name: element.id,
          length: (element as HTMLInputElement).value.length,
        })),
        actions: Array.from(document.querySelectorAll('button')).map((button) => button.textContent),
      })),
    );
    if (index >= warmup) directInspect.push(took);
  }
  const directAct: number[] = [];
  for (let index = 0; index < warmup + iterations; index += 1) {
    const [took] = await timed(async () => {
      await bench.blog.fill('#post-title', `Direct ${index}`);
      await bench.blog.fill('#post-body', `Direct body ${index}\nSecond line`);
      await bench.blog.selectOption('#post-category', categories[index % 3] ?? 'daily');
    });
    if (index >= warmup) directAct.push(took);
  }

  return [
    {
      operation: 'inspect',
      tether: { median: median(inspectTotals), p95: p95(inspectTotals) },
      direct: { median: median(directInspect), p95: p95(directInspect) },
      stages: stageMedians(inspectTotals, inspectBridge, inspectRecords),
    },
    {
      operation: 'act (3 steps)',
      tether: { median: median(actTotals), p95: p95(actTotals) },
      direct: { median: median(directAct), p95: p95(directAct) },
      stages: stageMedians(actTotals, actBridge, actRecords),
    },
  ];
}
