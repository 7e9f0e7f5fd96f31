/**
 * Act latency per editor family, through the whole path (MCP client → bridge → extension → page),
 * on the notes site's editor pages (the e2e suite's real editor libraries): the first act on a
 * page (which injects the act module), then fills of plain text and of a markdown post, each
 * checked against what the previous one left. Medians and p95s; the page work (the editor's own
 * paste or input handling, and waiting for it to settle) is most of it.
 */
import { median, p95, timed } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

export const BENCH_FAMILIES = [
  'ckeditor5',
  'lexical',
  'prosemirror',
  'slate',
  'draft',
  'tinymce',
  'quill',
  'codemirror',
  'input-buffer',
  'textarea',
  'react',
  'contenteditable',
  'iframe',
] as const;

const POST = `## Market day

The spring market opens **Saturday** at *10am* by the river.

- Tea stall
- Bakery

Read [the notice](https://cafe.example.com/notice).`;

export interface EditorLatencyRow {
  family: string;
  path: string;
  firstActMs: number;
  text: { median: number; p95: number };
  markdown: { median: number; p95: number };
}

export async function measureEditorLatency(bench: BenchTether, iterations = 30): Promise<EditorLatencyRow[]> {
  const { driver } = bench;
  await driver.signIn('notes', 'alice');
  const rows: EditorLatencyRow[] = [];
  for (const family of BENCH_FAMILIES) {
    const page = await driver.open('notes', `/editor/${family}`);
    await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
    const workspace = (await driver.workspaceOf([page], { name: `Bench ${family}`, writable: ['notes'] })).id;
    const { profile } = bench;
    const resolved = await bench.call('resolve', { profile, workspace, destination: { site: 'notes' }, continueDraft: true });
    if (!resolved.envelope.ok) throw new Error(`resolve on ${family}: ${resolved.envelope.error.message}`);
    const handle = (resolved.envelope.result as { write: { handle: string } }).write.handle;
    let path = '';
    const act = async (text: string, format: 'text' | 'markdown'): Promise<number> => {
      const inspected = await bench.call('inspect', { profile, workspace, handle });
      if (!inspected.envelope.ok) throw new Error(`inspect on ${family}: ${inspected.envelope.error.message}`);
      const [took, answer] = await timed(() =>
        bench.call('act', { profile, workspace, handle, plan: { steps: [{ op: 'fill', field: 'body', text, format }], continueDraft: true } }),
      );
      if (!answer.envelope.ok) throw new Error(`act on ${family}: ${answer.envelope.error.message}`);
      path = (answer.envelope.result as { steps: Array<{ path?: string }> }).steps[0]?.path ?? '';
      return took;
    };
    const firstActMs = await act('Warm up', 'text');
    const text: number[] = [];
    const markdown: number[] = [];
    for (let index = 0; index < iterations; index += 1) {
      text.push(await act(`Post ${index}\nSecond line ${index}`, 'text'));
      markdown.push(await act(`${POST}\n\nNumber ${index}.`, 'markdown'));
    }
    rows.push({ family, path, firstActMs, text: { median: median(text), p95: p95(text) }, markdown: { median: median(markdown), p95: p95(markdown) } });
    await page.close();
  }
  return rows;
}
