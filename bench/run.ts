/**
 * `npm run bench`: Tether and its alternatives side by side, in one run on one machine, as ratios
 * (the machine is shared and noisy; absolute times alone mean little). Prints the tables and writes
 * them, with the machine and date, to bench/RESULTS.md. No test asserts on these numbers.
 *   BENCH_ITERATIONS (default 200) — requests per latency measurement.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from '../e2e/support/launchTether.ts';
import { readFileSync } from 'node:fs';
import { measureColdStart } from './coldStart.ts';
import { measureFirstAnswers, measureServerStart, timingRow } from './connection.ts';
import { measureEditorLatency } from './editorLatency.ts';
import { measureImageInsert } from './imageInsert.ts';
import { MINIMAL_PAGES, playwrightMcpTranscript, REALISTIC_PAGES, tetherTranscript } from './contextCost.ts';
import { JOURNAL_NOTICE_MS } from '../shared/extension/uiProtocol.ts';
import { measureBrowserFloor } from './browserFloor.ts';
import { measureLatency } from './latency.ts';
import { measureResolverScale } from './resolverScale.ts';
import { measureHoldCheck } from './holdCheck.ts';
import { measurePageSize } from './pageSize.ts';
import { measureSizes } from './size.ts';
import { ms, ratio } from './stats.ts';
import { startBenchTether } from './tetherSetup.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const EDITOR_ITERATIONS = Number(process.env.BENCH_EDITOR_ITERATIONS ?? 30);
/** 2 MB photos per family in the image section. */
const IMAGE_ITERATIONS = Number(process.env.BENCH_IMAGE_ITERATIONS ?? 10);
/** Inspects per cell of the page-size table. */
const PAGE_SIZE_RUNS = Number(process.env.BENCH_PAGE_SIZE_RUNS ?? 20);
/** Runs per first-answer and server-start row. */
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** BENCH_ONLY=editors,size (or scale, holds, context, pagesize, latency, cold, connection, serverstart, images) measures only those sections and keeps the others of RESULTS.md as they were. */
const ONLY = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const runs = (name: string) => ONLY.size === 0 || ONLY.has(name);

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
const loadAtStart = loadavg()[0] ?? 0;
/** Sections are measured in the order that needs the least setup, and written in their numbered order. */
const sections = new Map<number, string[]>();
let current = 0;
const section = (number: number, heading: string) => {
  current = number;
  sections.set(number, []);
  log(`## ${number}. ${heading}\n`);
};
const log = (text: string) => {
  console.log(text);
  sections.get(current)?.push(text);
};

if (runs('scale')) {
  const scale = measureResolverScale();
  section(2, 'Resolver and revalidation at scale (pure functions, per request)');
  log(
    table(
      ['tabs', 'resolve', 'resolve, every address changed', 'every tab scanned instead', 'revalidate', 'resolve time ÷ previous', 'tabs ÷ previous'],
      scale.map((row, index) => {
        const previous = scale[index - 1];
        return [
          String(row.tabs),
          `${row.resolveUs.toFixed(1)} µs`,
          `${row.rebuildUs.toFixed(1)} µs`,
          `${row.scanUs.toFixed(1)} µs (${ratio(row.scanUs, row.resolveUs)})`,
          `${row.revalidateUs.toFixed(2)} µs`,
          previous ? ratio(row.resolveUs, previous.resolveUs) : '—',
          previous ? ratio(row.tabs, previous.tabs) : '—',
        ];
      }),
    ),
  );
  log(
    `\nCPU time per request (this process's, not the wall clock: the machine is shared). The resolver indexes the workspace's tabs by origin on every request and matches a named site or address against each origin, not each tab. Reading an address's origin is most of that work, so it is remembered by tab id while the tab's address is the same text (the worker reads the tabs afresh on every request: a new array with the same addresses, so identity would never hit); whether an origin is a candidate is asked of the workspace's sites every time. "resolve" is the next request with the tabs' addresses unchanged; "every address changed" is a request after every tab navigated (each address's origin read again: the cost after a change; a tab that navigated, or one not seen before, costs one such read); "every tab scanned instead" is the same request's matching done tab by tab (as resolve did before the index), in the same run. Resolve grows linearly with the tabs (one pass over them); revalidation looks at one tab and stays flat.\n`,
  );
}

if (runs('size')) {
  const sizes = measureSizes();
  section(5, 'Size (every chunk each part loads)');
  log(
    table(
      ['part', 'files', 'raw', 'gzip'],
      sizes.map((row) => [row.part, String(row.files), kb(row.bytes), kb(row.gzipBytes)]),
    ),
  );
  log(
    '\nEvery page carries only the content script (observe, inspect, the person’s activity). The act module (plan checks, writes, editor drivers, marked, DOMPurify, turndown) is injected by the worker into the bound document on its first act or markdown read; the site adapters only into a page one of them claims (every page carries only the list of claims); the reader module (Readability, the comments’ text) only into a document whose article or comments an agent reads.\n',
  );
}

const bench = ['editors', 'images', 'context', 'pagesize', 'latency', 'cold', 'holds'].some(runs) ? await startBenchTether() : null;
try {
  // The context cost first: the editor pages the editor section opens are not part of the task.
  if (bench && runs('context')) {
    const transcripts = [];
    for (const pages of [REALISTIC_PAGES, MINIMAL_PAGES]) {
      transcripts.push({ pages, tether: await tetherTranscript(bench, pages), playwright: await playwrightMcpTranscript(bench, pages) });
    }
    section(3, 'Agent context cost of the blog-from-cafe task');
    log(
      table(
        ['pages', '', 'tool list', 'answers', 'total', '≈ tokens', 'published', 'Tether ÷ Playwright MCP'],
        transcripts.flatMap(({ pages, tether, playwright }) =>
          [tether, playwright].map((run) => [
            pages.name,
            run.who,
            `${run.toolListBytes} B`,
            `${run.totalBytes - run.toolListBytes} B`,
            kb(run.totalBytes),
            String(Math.round(run.totalBytes / 4)),
            run.published ? 'yes' : 'NO',
            run === tether
              ? `**${ratio(tether.totalBytes, playwright.totalBytes)}** (answers alone: ${ratio(tether.totalBytes - tether.toolListBytes, playwright.totalBytes - playwright.toolListBytes)})`
              : '',
          ]),
        ),
      ),
    );
    log(
      "\nBoth ran against the same demo sites in the same Debian Chromium. The demo pages carry what real blogs and cafes do (menus, sidebars, comments, a formatting toolbar); the minimal pages hold only the editor's two fields and its publish button, and the post's title and body (plus the account name each sign-in check reads). A Playwright MCP agent reads page snapshots to find the post and the editor's fields, and these grow with everything on the page; Tether answers with the fields, actions and the text asked for by name, whatever else the page holds.\n",
    );
    for (const { pages, tether, playwright } of transcripts) {
      log(
        table(
          [`Tether call (${pages.name})`, 'bytes'],
          tether.answers.map((answer) => [answer.call, String(answer.bytes)]),
        ),
      );
      log('');
      log(
        table(
          [`Playwright MCP call (${pages.name})`, 'bytes'],
          playwright.answers.map((answer) => [answer.call, String(answer.bytes)]),
        ),
      );
      log('');
    }
  }
  if (bench && runs('pagesize')) {
    const { rows, snapshotVersion } = await measurePageSize(bench, PAGE_SIZE_RUNS);
    section(9, 'Cost against page size');
    const cell = (reading: { bytes: number; ms: number }) => `${kb(reading.bytes)}, ${ms(reading.ms)} ms`;
    log(
      table(
        [
          'comments',
          'page elements',
          'inspect, nothing read',
          '`read: ["main"]`',
          '`read: ["article"]` (the article’s own text)',
          `\`browser_snapshot\` (@playwright/mcp ${snapshotVersion})`,
          'main ÷ snapshot (bytes)',
          'article ÷ snapshot (bytes)',
        ],
        rows.map((row) => [
          row.comments.toLocaleString('en'),
          row.elements.toLocaleString('en'),
          cell(row.inspect),
          `${cell(row.main)}${row.main.truncated ? ' (truncated)' : ''}`,
          `${cell(row.article)} (${kb(row.article.articleBytes)}${row.article.fallback ? '; FELL BACK' : ''})`,
          row.snapshot.failed === undefined ? cell(row.snapshot) : `no snapshot after ${ms(row.snapshot.ms)} ms: “${row.snapshot.failed}”`,
          row.snapshot.failed === undefined ? ratio(row.main.bytes, row.snapshot.bytes) : '—',
          row.snapshot.failed === undefined ? ratio(row.article.bytes, row.snapshot.bytes) : '—',
        ]),
      ),
    );
    const overhead = rows.map((row) => row.article.bytes - row.article.articleBytes);
    const largest = rows.reduce((worst, row) => (row.inspect.ms > worst.inspect.ms ? row : worst));
    log(
      `\nThe cafe's weekly notes (e2e/sites/readingPages.ts) on a host no adapter claims, with the cafe's menus and popular-posts sidebar, the post's Like / Share / Report, and N comments with Reply / Like / Report under each (ten elements a comment); the same pages for both, one after the other, in one run. Bytes are what the model reads (the answer's text); times are the whole path, from the agent's call to its answer (median of ${PAGE_SIZE_RUNS}; the snapshot's of ${Math.min(PAGE_SIZE_RUNS, 5)}). \`main\` is the generic reading (the page's main element: the article and every comment), cut at 50,000 characters and saying so; \`article\` is Readability (0.6.0) on a copy of the document without its comments, in the reader module, injected on the first article read (not timed). Goal: an article costs at most 2 KB beyond its own text whatever the number of comments — measured ${overhead.map((bytes) => `${bytes} B`).join(', ')} (${overhead.every((bytes) => bytes <= 2048) ? 'met' : 'NOT met'}); an inspect of a 50,000-element page under 100 ms — ${ms(largest.inspect.ms)} ms with nothing read, ${ms(largest.article.ms)} ms reading the article, ${ms(largest.main.ms)} ms reading main, at ${largest.elements.toLocaleString('en')} elements.\n`,
    );
  }
  if (bench && runs('editors')) {
    const editors = await measureEditorLatency(bench, EDITOR_ITERATIONS);
    section(6, 'Act latency per editor family (whole path, one fill of the body)');
    log(
      table(
        ['editor', 'path', 'first act (injects the act module)', 'text median', 'text p95', 'markdown post median', 'markdown post p95'],
        editors.map((row) => [
          row.family,
          row.path,
          `${ms(row.firstActMs)} ms`,
          `${ms(row.text.median)} ms`,
          `${ms(row.text.p95)} ms`,
          `${ms(row.markdown.median)} ms`,
          `${ms(row.markdown.p95)} ms`,
        ]),
      ),
    );
    log(
      `\n${EDITOR_ITERATIONS} fills of each kind per editor, each after an inspect (not timed) so it expects what the previous one left. An act checks every step in the page before any runs (a plan that presses nothing, in the run itself), converts markdown (marked) and sanitizes it (DOMPurify), delivers it the way the editor takes it (paste, beforeinput or execCommand), waits for the editor to settle and reads it back; the editor's own paste handling is most of the time.\n`,
    );
  }
  if (bench && runs('images')) {
    const inserts = await measureImageInsert(bench, IMAGE_ITERATIONS);
    section(11, 'A 2 MB photo into each family with an image path, vs. the page posting it itself');
    log(
      table(
        [
          'target',
          'path',
          'photo',
          'refused, sent again',
          'Tether median',
          'Tether p95',
          'page script median',
          'page script p95',
          'Tether ÷ page script (median)',
        ],
        inserts.map((row) => [
          row.target,
          row.path,
          kb(row.bytes),
          String(row.retries),
          `${ms(row.tether.median)} ms`,
          `${ms(row.tether.p95)} ms`,
          `${ms(row.direct.median)} ms`,
          `${ms(row.direct.p95)} ms`,
          ratio(row.tether.median, row.direct.median),
        ]),
      ),
    );
    log(
      `\n${IMAGE_ITERATIONS} photos per row (a real 816 × 816 PNG stored uncompressed), after one untimed act that injects the act module; each after an inspect (not timed); an act refused before it ran because the editor was still settling (field_changed) is inspected and sent again, as an agent does, and counted in its column, not timed. The families are those whose descriptor declares an image path (content/editors/families/), so one that gains a path is measured too. Tether's time is the whole act: the MCP client sends the bytes inline (base64), the worker checks them and stages them into the page, the editor's own upload (or the site's file chooser script) posts them to the site, and Tether waits until the editor shows the site's stored copy and reads it back; the site lets agents upload there without asking, so no approval waits. The page script row posts the same bytes to the same endpoint from the page itself and waits for the stored copy to load: the site's upload alone.\n`,
    );
  }
  if (bench && runs('latency')) {
    const floor = await measureBrowserFloor(bench, ITERATIONS);
    const latency = await measureLatency(bench, ITERATIONS);
    section(1, 'Latency through the whole path vs. Playwright directly over CDP');
    log(
      table(
        ['operation', 'Tether median', 'Tether p95', 'direct median', 'direct p95', 'Tether ÷ direct (median)'],
        latency.map((row) => [
          row.operation,
          `${ms(row.tether.median)} ms`,
          `${ms(row.tether.p95)} ms`,
          `${ms(row.direct.median)} ms`,
          `${ms(row.direct.p95)} ms`,
          ratio(row.tether.median, row.direct.median),
        ]),
      ),
    );
    const strays = latency.filter((row) => row.onChannel !== row.samples);
    if (strays.length > 0)
      log(`\nNot every request went the row's way: ${strays.map((row) => `${row.operation}: ${row.onChannel} of ${row.samples}`).join('; ')}.\n`);
    log('\nWhere Tether’s time goes (medians, ms):\n');
    const stageNames = [...new Set(latency.flatMap((row) => Object.keys(row.stages)))];
    log(
      table(
        ['stage', ...latency.map((row) => row.operation)],
        stageNames.map((stage) => [stage, ...latency.map((row) => (stage in row.stages ? ms(row.stages[stage] ?? Number.NaN) : '—'))]),
      ),
    );
    const rowNamed = (operation: string) => latency.find((row) => row.operation === operation)?.stages ?? {};
    const stageOf = (prefix: string, operation = 'inspect (native path: direct link)') =>
      ms(Object.entries(rowNamed(operation)).find(([name]) => name.startsWith(prefix))?.[1] ?? Number.NaN);
    log('\nThe browser’s own floor under the inspect stages: the same hops made bare in the same Chromium, from Tether’s worker (medians, ms):\n');
    log(
      table(
        ['stage', 'inspect (native path: direct link; the host’s hop through the host)', 'the same hop, bare', 'bare'],
        [
          [
            'native host ↔ worker',
            stageOf('native host ↔ worker', 'inspect (native path: through the host)'),
            'native-messaging round trip to a host that echoes an inspect-sized answer at once',
            ms(floor.nativeRoundTrip),
          ],
          [
            'page round trip',
            stageOf('page round trip'),
            'a message on Tether’s page port to the bound document, answered at once · with the revalidation’s two reads alongside · Tether’s inspect message on that port straight from the worker (the page’s work included)',
            `${ms(floor.pageRoundTrip)} · ${ms(floor.pageRoundTripWithRevalidation)} · ${ms(floor.pageInspect)}`,
          ],
          [
            'worker after the page',
            stageOf('worker after the page'),
            'one IndexedDB add of a journal-sized record and its commit (relaxed durability)',
            ms(floor.idbCommit),
          ],
        ],
      ),
    );
    log(
      `\n${ITERATIONS} requests per row; Tether’s inspects alternate with the same read done directly in blocks of ten, so both see the same stretches of a shared machine; each block starts once the previous one's aftermath is over (the worker tells open Tether pages, such as the bench's control page, that the journal changed at most ${JOURNAL_NOTICE_MS} ms after a record, once per burst). The direct path is one CDP call into the page. Tether adds an MCP hop over stdio, then a hop to the worker. On the native path (the primary one) the browser starts Tether's native host, which offers the worker the loopback port of the bridge that holds it and the token they share: the worker links to that bridge directly over a loopback WebSocket, each message sealed both ways (node:crypto in the bridge, Web Crypto in the worker), and that bridge's calls go there. A bridge whose port is not offered (another agent's, or one started with TETHER_DIRECT=off, measured here) goes through the host: the bridge's unix socket to the host (paired, each message sealed with AES-GCM; node:crypto on both Node sides) and the browser's own native-messaging pipe from the host to the worker (no sealing there: it never leaves the browser and its host), one process more each way. On the WebSocket fallback (no native host; a pasted token) the same loopback WebSocket as the direct link. Then the worker checking the scope and the handle (kept in the worker, with storage.session as the source of truth), revalidating the binding against the browser (tabs.get and webNavigation.getFrame, together), the message to the exact document (on a port the worker keeps open to it, opened by documentId), and a journal record in IndexedDB before answering. An inspect reads the page while its binding is revalidated and uses the answer only if the binding holds. An act whose plan presses nothing is validated by the page as it runs (all steps checked before any runs), so it makes one page round trip; an act with clicks also validates in a dry run first (the elements it may press, and whether the person must approve). Its writes go through execCommand and are read back.\n`,
    );
  }
  if (bench && runs('holds')) {
    const holds = await measureHoldCheck();
    // The page round trip the hold check sits next to: Tether's inspect message on its page port, from the worker (the page's work included), in this run.
    const floor = await measureBrowserFloor(bench, 100);
    const page = floor.pageInspect;
    section(10, 'The hold check per request, next to the page round trip');
    log(
      table(
        ['held tabs', 'per resolve', 'per act', 'the renewal pass (once per 15 s per session)', `page round trip (${ms(page)} ms, this run)`],
        holds.map((row) => [
          String(row.holds),
          `${row.resolveUs.toFixed(1)} µs`,
          `${row.actUs.toFixed(1)} µs`,
          `${row.renewPassUs.toFixed(1)} µs`,
          `resolve ${ratio(row.resolveUs / 1000, page)} · act ${ratio(row.actUs / 1000, page)}`,
        ]),
      ),
    );
    log(
      `\nCPU time per request in Node's V8 (the worker's engine), this process's, median of batches: every request renews its session's holds (the pass over the table is skipped while it was made less than 15 s ago for that session: nothing can need storing sooner); a resolve asks who else holds its write target and keeps (or takes) the hold; an act checks it may write at validation and again right before the page, and notes the act's end. With five scheduled acts, which hold their targets too. The page round trip is Tether's inspect message on its page port straight from the worker to the bound document and back (the page's reading included), ${100} rounds in the same run; the whole inspect is several times that (section 1).\n`,
    );
  }
  if (bench && runs('cold')) {
    const cold = await measureColdStart(bench);
    section(4, 'Cold start');
    log(
      table(
        ['', 'median', 'ratio to warm'],
        [
          ['warm `context` (worker running)', `${ms(cold.warmMedian)} ms`, '1.00×'],
          [
            `stopped worker → first answer, woken by an extension event (${cold.samples} runs)`,
            `${ms(cold.coldMedian)} ms`,
            ratio(cold.coldMedian, cold.warmMedian),
          ],
          [
            'stopped worker → first answer through the WebSocket fallback (token pairing; 1 run)',
            `${ms(cold.viaBridgeMs)} ms`,
            ratio(cold.viaBridgeMs, cold.warmMedian),
          ],
        ],
      ),
    );
    log(
      '\nOn the WebSocket fallback the bridge cannot wake a stopped worker; the reconnect alarm (every 30 s, the shortest Chrome allows packed extensions) does. The native path (section 7) does not wait: the open port keeps the worker alive, and after a forced stop the keeper starts it again at once.\n',
    );
  }
} finally {
  await bench?.close();
}

if (runs('connection')) {
  const firstAnswers = await measureFirstAnswers(RUNS, (line) => console.log(`  ${line}`));
  section(7, 'First answer on the native path, whatever came before');
  log(table(['situation', 'median', 'p95', 'runs', 'measured'], firstAnswers.rows.map(timingRow)));
  log(
    `\nGoal: p95 ≤ 1 s from the MCP server being up. The browser runs without Playwright here (Playwright keeps service workers from idling out). Left alone for ${firstAnswers.idle.idleSeconds} s — past Chrome’s 30 s idle timeout for a worker — the worker was ${firstAnswers.idle.workerStillRunning ? 'still running (the open native port keeps it)' : 'STOPPED'}, its host ${firstAnswers.idle.sameHost ? 'the same process' : 'a NEW process'}, and a new MCP server had its first answer ${Math.round(firstAnswers.idle.firstAnswerMs)} ms after it was spawned. A forced stop (DevTools, a crash, CDP) ends the worker and its host; the keeper (an offscreen document) starts the worker again at once, and the bridge waits for the profile’s new host instead of refusing. With the MCP server first, the first call is refused at once (browser_not_connected, with the install hint) and the browser’s own start dominates the rest.\n`,
  );
}

if (runs('serverstart')) {
  const serverStarts = await measureServerStart(RUNS);
  section(8, 'MCP server start to tools/list');
  log(table(['server', 'median', 'p95', 'runs', 'measured'], serverStarts.map(timingRow)));
  log(
    '\nInterleaved runs on the same machine in the same run. Tether is plain JavaScript (esbuild), no TypeScript compiled at start. Its first two answers come from the stdio front door (bridge/mcp/stdioFrontDoor.ts) with what the build computed, before the MCP SDK and its zod schemas load (then the SDK’s Server takes over the same stdin); its browser side loads at the client’s `initialized`, as a chunk of its own. The floor rows are a bin that loads nothing and answers at once, installed the same way: what is left above it is Tether’s own start, and through `npx` most of the time is npm’s own start, the same for any package. `npx @playwright/mcp` runs inside this repository (a large dependency tree).\n',
  );
}

/** The sections of the last RESULTS.md, by number, for a run that measured only some. */
function previousSections(): Map<number, string[]> {
  const kept = new Map<number, string[]>();
  if (ONLY.size === 0) return kept;
  let text: string;
  try {
    text = readFileSync(join(import.meta.dirname, 'RESULTS.md'), 'utf8');
  } catch {
    return kept;
  }
  for (const part of text.split(/^(?=## \d+\. )/m).slice(1)) {
    const number = Number(/^## (\d+)\./.exec(part)?.[1]);
    kept.set(number, [part.trimEnd(), '']);
  }
  return kept;
}
for (const [number, lines] of previousSections()) if (!sections.has(number)) sections.set(number, lines);

const partial = ONLY.size > 0 ? ` Sections ${[...ONLY].join(', ')} were measured in this run (\`BENCH_ONLY\`); the others are from the run before.` : '';
const header = `# Tether benchmarks\n\nRun ${date} on ${machine}. Command: \`npm run bench\` (${ITERATIONS} requests per latency row). Ratios matter more than absolute times: the machine is shared (1-minute load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end, on ${cpus().length} cores).${partial}\n`;
const body = [...sections.entries()].sort(([a], [b]) => a - b).map(([, lines]) => lines.join('\n'));
writeFileSync(join(import.meta.dirname, 'RESULTS.md'), `${[header, ...body].join('\n')}\n`);
console.log(`\nWrote bench/RESULTS.md`);
