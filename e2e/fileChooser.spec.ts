/**
 * Photos through the site's own `<input type=file>` (issue 25, item 3), in real Chromium with the
 * built extension: the notes site's /editor/attach has an attach button (a label over a hidden,
 * multiple chooser, as Tistory's) and a JPEG-only cover photo (a cafe's); its own script uploads
 * what is chosen and shows the stored copy. inspect describes each chooser (accept, multiple,
 * label); an image step chooses a photo in it as a person's choice does, the site's upload endpoint
 * receives the very bytes, and the page shows the stored address; a local file needs the person's
 * approval (declined, approved) unless the site allows it; bad input is refused with the page
 * unchanged; a failed upload empties the chooser and undoes the plan's earlier steps.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOTH, expect, inBothBrowsers, test } from './fixtures.ts';
import { MEDIA } from './sites/uploads.ts';
import { ok, ran, refused } from './support/answers.ts';
import { launchTether } from './support/launchTether.ts';
import type { TabPage, TetherClient } from './support/tetherClient.ts';
import { TetherDriver } from './support/tetherDriver.ts';
import { encodeBase64 } from '../shared/imageBytes.ts';
import { makePng } from '../shared/testing/imageFixtures.ts';

async function attachScene<P extends TabPage>(tether: TetherClient<P>) {
  await tether.signIn('notes', 'alice');
  await tether.signIn('cafe', 'carol');
  const cafe = await tether.open('cafe', '/photos');
  await cafe.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  const page = await tether.open('notes', '/editor/attach');
  await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
  const workspace = (await tether.workspaceOf([page, cafe], { writable: ['notes'] })).id;
  const profile = await tether.profileId();
  const resolved = ok(
    await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' }, references: [{ url: cafe.url() }], continueDraft: true }),
  );
  const handle = resolved.write?.handle ?? '';
  const ref = resolved.references?.[0]?.handle ?? '';
  const inspect = () => tether.agent('inspect', { profile, workspace, handle });
  const act = async (steps: unknown[]) => {
    await inspect();
    return tether.agent('act', { profile, workspace, handle, plan: { steps } });
  };
  /** What the page shows and holds: its attached photos, its cover, and what each chooser holds. */
  const shown = () =>
    page.evaluate(() => ({
      attached: Array.from(document.querySelectorAll<HTMLImageElement>('#attached img')).map((img) => img.src),
      cover:
        document.querySelector<HTMLImageElement>('#cover-preview')?.hidden === false ? document.querySelector<HTMLImageElement>('#cover-preview')?.src : null,
      attachFiles: document.querySelector<HTMLInputElement>('#attach')?.files?.length ?? -1,
      coverFiles: document.querySelector<HTMLInputElement>('input[name="cover"]')?.files?.length ?? -1,
      title: document.querySelector<HTMLInputElement>('#title')?.value ?? null,
    }));
  return { page, profile, workspace, handle, ref, inspect, act, shown };
}

function localPhoto(width: number, height: number) {
  const photo = makePng(width, height, (x, y) => [(x * 7) % 255, (y * 3) % 255, 120]);
  const path = join(mkdtempSync(join(tmpdir(), 'tether-chooser-')), 'market.png');
  writeFileSync(path, photo);
  return { photo, path, source: { file: path, data: encodeBase64(photo) } };
}

// In both browsers: in Firefox the chooser's files are set from a DataTransfer whose File was added as the page (content/editors/pasteEvent.ts).
inBothBrowsers(
  'the site’s own file chooser: inspect describes it; a reference photo and a local file (declined, approved, allowed) go in through the site’s upload; a later failure leaves what the site stored said',
  BOTH,
  async ({ tether, sites }) => {
    const scene = await attachScene(tether);
    const origin = sites.url('notes', '').replace(/\/$/, '');

    // inspect names each chooser, with what it accepts, whether it takes several files, and its label.
    const fields = ok(await scene.inspect()).fields ?? [];
    expect(fields.find((field) => field.name === 'attach')).toMatchObject({ kind: 'file', label: '사진 추가', accept: ['image/*'], multiple: true });
    expect(fields.find((field) => field.name === 'cover')).toMatchObject({
      kind: 'file',
      label: '대표 사진 (JPEG)',
      accept: ['.jpg', '.jpeg', 'image/jpeg'],
      multiple: false,
    });
    // The body is still the textarea, never a chooser.
    expect(fields.find((field) => field.name === 'body')).toMatchObject({ kind: 'textarea' });

    // A reference photo: no approval; the site's own script uploaded the very bytes and shows its copy.
    const put = ran(ok(await scene.act([{ op: 'image', field: 'attach', source: { ref: scene.ref, image: 'the-ridge-at-sunrise' }, alt: 'The ridge' }])));
    expect(put.steps[0]).toMatchObject({
      editor: 'file-input',
      path: 'file-input',
      verified: true,
      kept: ['img'],
      dropped: ['alt'],
      src: `${origin}/uploads/0.png`,
    });
    expect(sites.state.notes.uploads).toHaveLength(1);
    expect(sites.state.notes.uploads[0]).toMatchObject({ field: 'file', name: 'ridge.png', type: 'image/png', user: 'alice' });
    expect(Buffer.compare(sites.state.notes.uploads[0]?.bytes ?? Buffer.alloc(0), Buffer.from(MEDIA['ridge.png']?.bytes ?? []))).toBe(0);
    expect((await scene.shown()).attached).toEqual([`${origin}/uploads/0.png`]);
    const [journal] = await tether.must({ type: 'journal.list', limit: 1 });
    expect(journal?.images).toEqual([expect.objectContaining({ kind: 'reference', from: expect.stringContaining('the-ridge-at-sunrise'), name: 'ridge.png' })]);

    // A local file: the person is asked first; declined, nothing is chosen and nothing leaves.
    const local = localPhoto(180, 120);
    const fileStep = { op: 'image', field: 'attach', source: local.source, alt: '' };
    const declining = scene.act([fileStep]);
    await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
    const asked = (await tether.state()).approvals[0];
    expect(asked?.images).toEqual([expect.objectContaining({ name: 'market.png', from: local.path, kind: 'file', width: 180, height: 120, asks: true })]);
    await tether.must({ type: 'approval.decide', approvalId: asked?.id ?? '', approve: false });
    refused(await declining, 'approval_denied');
    expect(sites.state.notes.uploads).toHaveLength(1);
    expect(await scene.shown()).toMatchObject({ attached: [`${origin}/uploads/0.png`] });

    // Approved: chosen, uploaded by the site, shown.
    const approving = scene.act([fileStep]);
    await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
    await tether.must({ type: 'approval.decide', approvalId: (await tether.state()).approvals[0]?.id ?? '', approve: true });
    expect(ran(ok(await approving)).steps[0]).toMatchObject({ verified: true, src: `${origin}/uploads/1.png` });
    expect(Buffer.compare(sites.state.notes.uploads[1]?.bytes ?? Buffer.alloc(0), Buffer.from(local.photo))).toBe(0);
    expect((await scene.shown()).attached).toEqual([`${origin}/uploads/0.png`, `${origin}/uploads/1.png`]);

    // The site's standing permission: no approval asked.
    await tether.must({
      type: 'workspace.setSite',
      workspaceId: scene.workspace,
      origin: sites.url('notes', '/'),
      policy: { writable: true, publishWithoutApproval: false, uploadImagesWithoutAsking: true },
    });
    expect(ran(ok(await scene.act([fileStep]))).steps[0]).toMatchObject({ verified: true, src: `${origin}/uploads/2.png` });
    expect((await tether.state()).approvals).toHaveLength(0);

    // A later step fails: the chooser is emptied, and what the site already stored is said, never called undone.
    const failed = refused(
      await scene.act([
        { op: 'image', field: 'attach', source: { ref: scene.ref, image: 'harbor-boats' }, alt: '' },
        { op: 'fill', field: 'tags', text: 'Upper Case' },
      ]),
      'invalid_request',
    );
    expect(failed.message).toMatch(/could not undo its writes to "attach"/);
    expect(failed.details).toMatchObject({ leftOver: [expect.objectContaining({ step: 0, field: 'attach', uploaded: `${origin}/uploads/3.png` })] });
    expect((await scene.shown()).attachFiles).toBe(0);
  },
);

test('the site’s own file chooser: bad input is refused naming the problem, nothing chosen or uploaded; a failed upload empties the chooser and undoes the earlier steps', async ({
  tether,
  sites,
}) => {
  const scene = await attachScene(tether);
  const before = await scene.shown();
  expect(before).toEqual({ attached: [], cover: null, attachFiles: 0, coverFiles: 0, title: '' });
  const harbor = { ref: scene.ref, image: 'harbor-boats' };
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
  const cases: Array<[unknown[], RegExp]> = [
    // accept= names the types it takes: a PNG into a JPEG-only chooser is refused, naming both.
    [[{ op: 'image', field: 'cover', source: harbor, alt: '' }], /"cover" accepts \.jpg, \.jpeg, image\/jpeg; this image is image\/png/],
    // One file only (no multiple): two photos in one act are refused.
    [
      [
        { op: 'image', field: 'attach', source: harbor, alt: '' },
        { op: 'image', field: 'cover', source: harbor, alt: '' },
        { op: 'image', field: 'cover', source: { ref: scene.ref, image: 'the-ridge-at-sunrise' }, alt: '' },
      ],
      /problems/,
    ],
    [[{ op: 'fill', field: 'attach', text: 'a photo' }], /"attach" is a file chooser: put a photo in it with an image step/],
    [[{ op: 'image', field: 'attach', source: harbor, alt: '', after: 'Something' }], /a photo has no place inside it, so leave out after/],
    [[{ op: 'image', field: 'attach', source: { data: encodeBase64(svg), name: 'x.svg' }, alt: '' }], /SVG/],
    [Array.from({ length: 21 }, () => ({ op: 'image', field: 'attach', source: harbor, alt: '' })), /21 images in one act; at most 20/],
  ];
  for (const [steps, message] of cases) {
    const answer = refused(await scene.act(steps), 'invalid_request');
    expect(answer.message).toMatch(message);
    if (steps.length === 3) {
      expect(JSON.stringify(answer.details)).toMatch(/takes one file \(no multiple\), and this plan puts 2 photos in it/);
    }
  }
  expect(sites.state.notes.uploads).toHaveLength(0);
  expect(await scene.shown()).toEqual(before);

  // The site's upload fails: the chooser is emptied, the title written before it is put back.
  sites.state.notes.uploadsFail = true;
  const failed = refused(
    await scene.act([
      { op: 'fill', field: 'title', text: 'Market day' },
      { op: 'image', field: 'attach', source: harbor, alt: '' },
    ]),
    'invalid_request',
  );
  expect(failed.message).toMatch(/the image did not go into "attach": the page showed no stored copy of it within 30 s/);
  expect(failed.details).toMatchObject({ editor: 'file-input', rolledBack: expect.arrayContaining([0]) });
  expect(await scene.shown()).toEqual(before);
  sites.state.notes.uploadsFail = false;
});

const SHOTS = join(import.meta.dirname, 'screenshots');

const PUBLISH_WORDS = {
  en: {
    now: 'Now',
    heading: /Waiting for your approval \(1\)/,
    photos: 'Photos the post holds when it is published (1)',
    noAlt: '(no description)',
    facts: '320 × 200 pixels, stored on',
    answer: 'Approve',
  },
  ko: {
    now: '지금',
    heading: /승인을 기다리는 요청 \(1\)/,
    photos: '게시할 때 글에 들어 있는 사진 (1)',
    noAlt: '(설명 없음)',
    facts: '320 × 200 픽셀,',
    answer: '거절',
  },
} as const;

for (const lang of ['en', 'ko'] as const) {
  test(`a publish approval (${lang}) shows the photos the post holds, drawn small from the page’s own addresses`, async ({ sites }) => {
    // Not the tether fixture (which resets the sites): a browser in this language, and fresh sites.
    sites.reset();
    const launched = await launchTether({ lang });
    try {
      const tether = new TetherDriver(launched.context, launched.extensionId, sites);
      const words = PUBLISH_WORDS[lang];
      const scene = await attachScene(tether);
      const origin = sites.url('notes', '').replace(/\/$/, '');
      ran(ok(await scene.act([{ op: 'image', field: 'attach', source: { ref: scene.ref, image: 'the-ridge-at-sunrise' }, alt: '' }])));
      const publishing = scene.act([
        { op: 'fill', field: 'title', text: 'Market day' },
        { op: 'click', action: 'publish' },
      ]);
      await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
      const asked = (await tether.state()).approvals[0];
      // The post's photo as the page shows it (the site's stored copy), not one the agent sent.
      expect(asked?.postImages).toEqual([
        { alt: '', width: 320, height: 200, site: new URL(origin).host, thumbnail: expect.stringMatching(/^data:image\/jpeg;base64,/) },
      ]);
      expect(asked?.images).toBeUndefined();
      const panel = await tether.context.newPage();
      await panel.setViewportSize({ width: 360, height: 900 });
      await panel.goto(tether.extensionUrl('extension/panel.html'));
      await panel.getByRole('tab', { name: words.now }).click();
      const approvals = panel.getByRole('region', { name: words.heading });
      await expect(approvals).toBeVisible();
      const photos = approvals.getByRole('region', { name: words.photos });
      await expect(photos.getByText(words.noAlt, { exact: true })).toBeVisible();
      await expect(photos.getByText(new RegExp(`^${words.facts.replace(/[()]/g, '\\$&')}`))).toBeVisible();
      await expect.poll(() => photos.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
      mkdirSync(SHOTS, { recursive: true });
      await panel.screenshot({ path: join(SHOTS, `${lang}-publish-photos.png`), fullPage: true });
      await approvals.getByRole('button', { name: words.answer }).click();
      if (lang === 'en') ran(ok(await publishing));
      else refused(await publishing, 'approval_denied');
    } finally {
      await launched.context.close();
      rmSync(launched.userDataDir, { recursive: true, force: true });
    }
  });
}
