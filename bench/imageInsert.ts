/**
 * A 2 MB photo into each editor family that declares an image path (the family's `image`,
 * content/editors/families/: whatever declares one is measured, so a family that gains one is
 * included), and into the site's own file chooser (the notes site's /editor/attach), through the
 * whole path: the MCP client's act with the bytes inline → bridge → worker (bytes checked, staged
 * into the page) → the editor's own upload to the site → the stored copy read back. The baseline
 * is the same bytes posted by the page's own script to the same upload endpoint (what the site's
 * upload costs by itself, no editor, no Tether). Medians and p95s; the ratio is Tether ÷ direct.
 */
import { ALL_FAMILIES } from '../content/editors/families/index.ts';
import { encodeBase64 } from '../shared/imageBytes.ts';
import { makePng } from '../shared/testing/imageFixtures.ts';
import { median, p95, timed } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

/** A real 816 × 816 PNG, stored uncompressed: 2.0 MB, pixels that vary (as a photo's do). */
const PHOTO = makePng(816, 816, (x, y) => [(x * 7 + y * 3) % 256, (x * y) % 256, (x + y * 5) % 256]);

export interface ImageInsertRow {
  target: string;
  path: string;
  /** Acts refused before they ran (the editor still settling), inspected and sent again: not timed. */
  retries: number;
  bytes: number;
  tether: { median: number; p95: number };
  direct: { median: number; p95: number };
}

/** Each family with an image path and the notes page that hosts it (the page is named after the family), then the file chooser. */
function targets(): Array<{ target: string; page: string; field: string }> {
  // SmartEditor ONE's uploader is called only on the Naver adapters' hosts, for fields they mark: the notes page has none (its photos are timed by nothing here).
  const families = ALL_FAMILIES.filter((family) => family.image !== undefined && family.id !== 'smarteditor-one').map((family) => ({
    target: family.id,
    page: family.id,
    field: 'body',
  }));
  return [...families, { target: 'file-input (the site’s own chooser)', page: 'attach', field: 'attach' }];
}

export async function measureImageInsert(bench: BenchTether, iterations = 10): Promise<ImageInsertRow[]> {
  const { driver, profile } = bench;
  await driver.signIn('notes', 'alice');
  const data = encodeBase64(PHOTO);
  const rows: ImageInsertRow[] = [];
  for (const { target, page: name, field } of targets()) {
    const page = await driver.open('notes', `/editor/${name}`);
    await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
    const workspace = (await driver.workspaceOf([page], { name: `Bench images ${name}`, writable: ['notes'] })).id;
    // Inline bytes are the agent's: the person's standing permission for the site, so no approval waits in the timing.
    await driver.must({
      type: 'workspace.setSite',
      workspaceId: workspace,
      origin: bench.sites.url('notes', '/'),
      policy: { writable: true, publishWithoutApproval: false, uploadImagesWithoutAsking: true },
    });
    const resolved = await bench.call('resolve', { profile, workspace, destination: { site: 'notes' }, continueDraft: true });
    if (!resolved.envelope.ok) throw new Error(`resolve on ${name}: ${resolved.envelope.error.message}`);
    const handle = (resolved.envelope.result as { write: { handle: string } }).write.handle;
    let path = '';
    let retries = 0;
    const insert = async (index: number): Promise<number> => {
      // An editor may still be settling after the last image (CKEditor 5's widget): a refusal that ran
      // nothing (field_changed, target_busy) is answered as an agent does, by inspecting and acting
      // again; only the act that ran is timed.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const inspected = await bench.call('inspect', { profile, workspace, handle });
        if (!inspected.envelope.ok) throw new Error(`inspect on ${name}: ${inspected.envelope.error.message}`);
        const [took, answer] = await timed(() =>
          bench.call('act', {
            profile,
            workspace,
            handle,
            plan: {
              steps: [{ op: 'image', field, source: { data, name: `photo-${index}.png` }, alt: field === 'attach' ? '' : `Photo ${index}` }],
              continueDraft: true,
            },
          }),
        );
        if (!answer.envelope.ok && ['field_changed', 'target_busy'].includes(answer.envelope.error.code)) {
          retries += 1;
          continue;
        }
        if (!answer.envelope.ok) throw new Error(`image act on ${name}: ${answer.envelope.error.message}`);
        path = (answer.envelope.result as { steps: Array<{ path?: string }> }).steps[0]?.path ?? '';
        return took;
      }
      throw new Error(`image act on ${name}: still refused after 10 tries`);
    };
    if (field === 'body') {
      // A post has its text first (an image into an empty CKEditor 5 is refused today: its text reads changed).
      await bench.call('inspect', { profile, workspace, handle });
      const filled = await bench.call('act', {
        profile,
        workspace,
        handle,
        plan: { steps: [{ op: 'fill', field, text: 'Photos of the market.' }], continueDraft: true },
      });
      if (!filled.envelope.ok) throw new Error(`fill on ${name}: ${filled.envelope.error.message}`);
    }
    await insert(-1); // the first image act: not timed
    const tether: number[] = [];
    const direct: number[] = [];
    for (let index = 0; index < iterations; index += 1) {
      tether.push(await insert(index));
      // The same bytes, posted by the page's own script (the bytes are in the page before the clock starts).
      direct.push(
        await page.evaluate(async (base64) => {
          const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const form = new FormData();
          form.append('file', new File([bytes], 'direct.png', { type: 'image/png' }));
          const started = performance.now();
          const response = await fetch('/api/uploads', { method: 'POST', body: form });
          const answer = (await response.json()) as { location?: string };
          await new Promise<void>((resolve, reject) => {
            const img = new Image();
            img.onload = () => resolve();
            img.onerror = () => reject(new Error('the stored copy did not load'));
            img.src = answer.location ?? '';
          });
          return performance.now() - started;
        }, data),
      );
    }
    rows.push({
      target,
      path,
      retries,
      bytes: PHOTO.length,
      tether: { median: median(tether), p95: p95(tether) },
      direct: { median: median(direct), p95: p95(direct) },
    });
    await page.close();
  }
  return rows;
}
