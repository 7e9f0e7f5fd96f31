/**
 * `npm run bench`: Tether and its alternatives side by side, in one run on one machine, as ratios
 * (the machine is shared and noisy; absolute times alone mean little). Prints the tables and writes
 * them, with the machine and date, to bench/RESULTS.md. No test asserts on these numbers.
 *   BENCH_ITERATIONS (default 200) — requests per latency measurement.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from '../e2e/support/launchTether.ts';
import { measureColdStart } from './coldStart.ts';
import { playwrightMcpTranscript, tetherTranscript } from './contextCost.ts';
import { measureLatency } from './latency.ts';
import { measureResolverScale } from './resolverScale.ts';
import { measureSizes } from './size.ts';
import { ms, ratio } from './stats.ts';
import { startBenchTether } from './tetherSetup.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

function table(headers: string[], rows: string[][]): string {
  return [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

const chromiumVersion = (() => {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
})();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromiumVersion}`;
const date = new Date().toISOString();
const sections: string[] = [];
const log = (text: string) => {
  console.log(text);
  sections.push(text);
};

log(`# Tether benchmarks\n\nRun ${date} on ${machine}. Command: \`npm run bench\` (${ITERATIONS} requests per latency row).\n`);

const scale = measureResolverScale();
log('## 2. Resolver and revalidation at scale (pure functions, per request)\n');
log(
  table(
    ['tabs', 'resolve', 'revalidate', 'resolve time ÷ previous', 'tabs ÷ previous'],
    scale.map((row, index) => {
      const previous = scale[index - 1];
      return [
        String(row.tabs),
        `${row.resolveUs.toFixed(1)} µs`,
        `${row.revalidateUs.toFixed(2)} µs`,
        previous ? ratio(row.resolveUs, previous.resolveUs) : '—',
        previous ? ratio(row.tabs, previous.tabs) : '—',
      ];
    }),
  ),
);
log(`\nResolve grows linearly with the tabs it narrows (the ratios track the tab ratios); revalidation looks at one tab and stays flat.\n`);

const sizes = measureSizes();
log('## 5. Size (every chunk each part loads)\n');
log(table(['part', 'files', 'raw', 'gzip'], sizes.map((row) => [row.part, String(row.files), kb(row.bytes), kb(row.gzipBytes)])));
log('');

const bench = await startBenchTether();
try {
  const tether = await tetherTranscript(bench);
  const playwright = await playwrightMcpTranscript(bench);
  log('## 3. Agent context cost of the blog-from-cafe task\n');
  log(
    table(
      ['', 'tool list', 'answers', 'total', '≈ tokens', 'published'],
      [tether, playwright].map((run) => [
        run.who,
        kb(run.toolListBytes),
        kb(run.totalBytes - run.toolListBytes),
        kb(run.totalBytes),
        String(Math.round(run.totalBytes / 4)),
        run.published ? 'yes' : 'NO',
      ]),
    ),
  );
  log(`\nTether / Playwright MCP: **${ratio(tether.totalBytes, playwright.totalBytes)}** of the bytes (answers alone: ${ratio(tether.totalBytes - tether.toolListBytes, playwright.totalBytes - playwright.toolListBytes)}).\n`);
  log(table(['Tether call', 'bytes'], tether.answers.map((answer) => [answer.call, String(answer.bytes)])));
  log('');
  log(table(['Playwright MCP call', 'bytes'], playwright.answers.map((answer) => [answer.call, String(answer.bytes)])));
  log('');

  const latency = await measureLatency(bench, ITERATIONS);
  log('## 1. Latency through the whole path vs. Playwright directly over CDP\n');
  log(
    table(
      ['operation', 'Tether median', 'Tether p95', 'direct median', 'direct p95', 'Tether ÷ direct (median)'],
      latency.map((row) => [row.operation, `${ms(row.tether.median)} ms`, `${ms(row.tether.p95)} ms`, `${ms(row.direct.median)} ms`, `${ms(row.direct.p95)} ms`, ratio(row.tether.median, row.direct.median)]),
    ),
  );
  log('\nWhere Tether’s time goes (medians, ms):\n');
  const stageNames = Object.keys(latency[0]?.stages ?? {});
  log(table(['stage', ...latency.map((row) => row.operation)], stageNames.map((stage) => [stage, ...latency.map((row) => ms(row.stages[stage] ?? Number.NaN))])));
  log('');

  const cold = await measureColdStart(bench);
  log('## 4. Cold start\n');
  log(
    table(
      ['', 'median', 'ratio to warm'],
      [
        ['warm `context` (worker running)', `${ms(cold.warmMedian)} ms`, '1.00×'],
        [`stopped worker → first answer, woken by an extension event (${cold.samples} runs)`, `${ms(cold.coldMedian)} ms`, ratio(cold.coldMedian, cold.warmMedian)],
        ['stopped worker → first answer through the bridge (1 run)', `${ms(cold.viaBridgeMs)} ms`, ratio(cold.viaBridgeMs, cold.warmMedian)],
      ],
    ),
  );
  log('\nThe bridge cannot wake a stopped worker; the reconnect alarm (every 30 s, the shortest Chrome allows packed extensions) does. While connected, the WebSocket keepalive keeps the worker from stopping.\n');
} finally {
  await bench.close();
}

writeFileSync(join(import.meta.dirname, 'RESULTS.md'), `${sections.join('\n')}\n`);
console.log(`\nWrote bench/RESULTS.md`);
