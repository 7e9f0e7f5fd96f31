/**
 * Cost against page size: a reference tab showing the cafe's weekly notes with 0 to 5,000 comments
 * (e2e/sites/readingPages.ts, on a host no adapter claims), read by Tether as the generic `main`
 * region and as the reader view's `article`, and by Playwright MCP as the page snapshot its agents
 * read, on the same pages in the same run. Bytes are what the model reads (the answer's text);
 * times are the whole path (median), from the agent's call to its answer.
 */
import type { InspectResult } from '../shared/agent/results.ts';
import { playwrightMcpText, startPlaywrightMcp } from './contextCost.ts';
import { median, timed } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

export const COMMENT_COUNTS = [0, 100, 1000, 5000];

export interface Reading {
  bytes: number;
  ms: number;
}

export interface PageSizeRow {
  comments: number;
  elements: number;
  /** inspect with nothing to read: fields, actions, sign-in, the regions' names. */
  inspect: Reading;
  main: Reading & { truncated: boolean };
  article: Reading & { articleBytes: number; fallback: boolean };
  /** `failed`: what Playwright MCP said instead of a snapshot (a timeout on a loaded machine). */
  snapshot: Reading & { failed?: string };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

async function medianOf(runs: number, read: () => Promise<string>): Promise<Reading> {
  const times: number[] = [];
  let text = '';
  for (let run = 0; run < runs; run += 1) {
    const [ms, answer] = await timed(read);
    times.push(ms);
    text = answer;
  }
  return { bytes: bytes(text), ms: median(times) };
}

export async function measurePageSize(bench: BenchTether, runs: number): Promise<{ rows: PageSizeRow[]; snapshotVersion: string }> {
  const page = await bench.driver.open('notes', '/reading/post?comments=0');
  const workspace = await bench.driver.workspaceOf([page], { name: 'Bench reading' });
  const scope = { profile: bench.profile, workspace: workspace.id };
  const playwright = await startPlaywrightMcp();
  const rows: PageSizeRow[] = [];
  try {
    for (const comments of COMMENT_COUNTS) {
      const url = bench.sites.url('notes', `/reading/post?comments=${comments}`);
      await page.goto(url);
      const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
      // A new document: a new handle.
      const { envelope } = await bench.call('resolve', { ...scope, readOnly: true, references: [{ url }] });
      if (!envelope.ok) throw new Error(`resolve: ${envelope.error.message}`);
      const handle = envelope.result.references?.[0]?.handle;
      const inspect = async (read: string[]): Promise<{ result: InspectResult; text: string }> => {
        const { envelope: answer, text } = await bench.call('inspect', { ...scope, handle, read });
        if (!answer.ok) throw new Error(`inspect ${read.join(', ')}: ${answer.error.message}`);
        return { result: answer.result, text };
      };
      // Once each before timing: the first article read injects the reader module into the page.
      await inspect([]);
      const seen = (await inspect(['main', 'article'])).result;
      const plain = await medianOf(runs, async () => (await inspect([])).text);
      const main = await medianOf(runs, async () => (await inspect(['main'])).text);
      const article = await medianOf(runs, async () => (await inspect(['article'])).text);
      await playwrightMcpText(playwright, 'browser_navigate', { url });
      let failed: string | undefined;
      const snapshot = await medianOf(Math.min(runs, 5), async () => {
        const result = await playwright.callTool({ name: 'browser_snapshot', arguments: {} });
        const text = ((result.content ?? []) as Array<{ text?: string }>).map((item) => item.text ?? '').join('');
        if (result.isError === true) failed = text.slice(0, 120).replace(/\s+/g, ' ');
        return text;
      });
      rows.push({
        comments,
        elements,
        inspect: plain,
        main: { ...main, truncated: seen.truncated?.main !== undefined },
        article: { ...article, articleBytes: bytes(seen.text?.article ?? ''), fallback: seen.fallback?.article !== undefined },
        snapshot: failed === undefined ? snapshot : { ...snapshot, failed },
      });
    }
    return { rows, snapshotVersion: playwright.getServerVersion()?.version ?? '?' };
  } finally {
    await playwright.close();
    await page.close();
  }
}
