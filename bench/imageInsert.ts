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
import type { Frame, Page } from '@playwright/test';
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

interface Target {
  target: string;
  /** The notes page named after the family, or SmartEditor ONE's Naver Blog write page (its uploader works on Naver's hosts only). */
  page: string;
  field: string;
  naver?: true;
}

/** Each family with an image path and the page that hosts it, then the file chooser. */
function targets(): Target[] {
  const families = ALL_FAMILIES.filter((family) => family.image !== undefined).map((family): Target =>
    family.id === 'smarteditor-one'
      ? { target: family.id, page: 'naver-blog', field: 'body', naver: true }
      : { target: family.id, page: family.id, field: 'body' },
  );
  return [...families, { target: 'file-input (the site’s own chooser)', page: 'attach', field: 'attach' }];
}

/** The Naver Blog fixture's write page, signed in (e2e/sites/naver), and the frame its editor runs in. */
async function openNaver(bench: BenchTether): Promise<{ page: Page; frame: Frame }> {
  const page = await bench.driver.context.newPage();
  const path = '/alice_nv?Redirect=Write';
  await page.goto(bench.sites.at('blog.naver.com', `/nidlogin?as=alice_nv&next=${encodeURIComponent(path)}`));
  const frame = page.frame({ name: 'mainFrame' }) ?? page.mainFrame();
  await frame.waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  return { page, frame };
}

/**
 * The same bytes posted by the page's own script to its own upload, the stored copy then loaded:
 * the notes site's endpoint; on Naver, the editor's (a session key, then the upphoto host, then
 * the photo at the answer's url on the image domain, as the fixture's uploader does).
 */
function direct(frame: Frame | Page, base64: string, naver: boolean): Promise<number> {
  return frame.evaluate(
    async ({ base64, naver }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const form = new FormData();
      const started = performance.now();
      let stored = '';
      if (naver) {
        const port = location.port;
        const key = (
          (await (await fetch(`http://platform.editor.naver.com:${port}/api/blogpc001/v1/photo-uploader/session-key`, { credentials: 'include' })).json()) as {
            sessionKey: string;
          }
        ).sessionKey;
        form.append('image', new File([bytes], 'direct.png', { type: 'image/png' }));
        const xml = await (
          await fetch(`http://blog.upphoto.naver.com:${port}/${key}/simpleUpload/0?userId=alice_nv`, { method: 'POST', body: form, credentials: 'include' })
        ).text();
        const url = /<url>([^<]+)<\/url>/.exec(xml)?.[1] ?? '';
        stored = /^https?:/.test(url) ? url : `http://blogfiles.pstatic.net:${port}${url}`;
      } else {
        form.append('file', new File([bytes], 'direct.png', { type: 'image/png' }));
        const response = await fetch('/api/uploads', { method: 'POST', body: form });
        stored = ((await response.json()) as { location?: string }).location ?? '';
      }
      await new Promise<void>((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve();
        img.onerror = () => reject(new Error('the stored copy did not load'));
        img.src = stored;
      });
      return performance.now() - started;
    },
    { base64, naver },
  );
}

export async function measureImageInsert(bench: BenchTether, iterations = 10): Promise<ImageInsertRow[]> {
  const { driver, profile } = bench;
  await driver.signIn('notes', 'alice');
  const data = encodeBase64(PHOTO);
  const rows: ImageInsertRow[] = [];
  for (const { target, page: name, field, naver } of targets()) {
    let page: Page;
    let frame: Frame | Page;
    if (naver) ({ page, frame } = await openNaver(bench));
    else {
      // Editor.js's page registers its image tool only with ?images.
      page = await driver.open('notes', `/editor/${name}${name === 'editorjs' ? '?images' : ''}`);
      frame = page;
      await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
    }
    const origin = naver ? `${new URL(page.url()).origin}/` : bench.sites.url('notes', '/');
    const workspace = (await driver.workspaceOf([page], { name: `Bench images ${name}`, ...(naver ? {} : { writable: ['notes'] }) })).id;
    // Inline bytes are the agent's: the person's standing permission for the site, so no approval waits in the timing.
    await driver.must({
      type: 'workspace.setSite',
      workspaceId: workspace,
      origin,
      policy: { writable: true, publishWithoutApproval: false, uploadImagesWithoutAsking: true },
    });
    const resolved = await bench.call('resolve', { profile, workspace, destination: naver ? { url: page.url() } : { site: 'notes' }, continueDraft: true });
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
    const baseline: number[] = [];
    for (let index = 0; index < iterations; index += 1) {
      tether.push(await insert(index));
      // The same bytes, posted by the page's own script (the bytes are in the page before the clock starts).
      baseline.push(await direct(frame, data, naver === true).catch(() => Number.NaN));
    }
    rows.push({
      target,
      path,
      retries,
      bytes: PHOTO.length,
      tether: { median: median(tether), p95: p95(tether) },
      // A baseline that failed (NaN) is left out; none left: no figure ('—').
      direct: { median: median(baseline.filter(Number.isFinite)), p95: p95(baseline.filter(Number.isFinite)) },
    });
    await page.close();
  }
  return rows;
}
