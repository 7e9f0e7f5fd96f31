/**
 * SmartEditor ONE written for real, on the Naver fixture (e2e/sites/naver/, served at Naver's
 * hosts) through the production Naver adapters: title and body through the editor's own model
 * from the main world, the input-buffer paste where that model is missing or renamed, every
 * write read back from the model and from the rendered page, rollbacks verified like writes (and
 * leftovers said, both with the editor honouring synthetic keys and ignoring them), forged and
 * throwing models refused with the page unchanged, an object named SmartEditor elsewhere
 * never called; and the whole post: Naver Blog's publish panel (tags, category, the final 발행
 * with the person's approval, 저장 as a draft), its temporary-save prompt, Naver Cafe's board,
 * tags and 등록 with approval; photos through the editor's own uploader (issue 26 item 3): the
 * issue's whole post with two photos from the Cafe notes on Blog and Cafe, a local file, base64,
 * rollback, Ctrl+Z, every malformed upload answer, and a fake SmartEditor elsewhere never called.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import type { ActDone, ActResult, InspectResult } from '../shared/agent/results.ts';
import { BOTH, expect, inBothBrowsers, test } from './fixtures.ts';
import { ok, ran, refused } from './support/answers.ts';
import type { TetherDriver } from './support/tetherDriver.ts';
import { emptyDocument, paragraph, textComponent, textNode, titleComponent } from './sites/naver/editor/model.ts';
import { CAFE_PHOTOS, type NaverState } from './sites/naver/naverSites.ts';
import { encodeBase64 } from '../shared/imageBytes.ts';
import { makePng } from '../shared/testing/imageFixtures.ts';

interface Bound {
  page: Page;
  inspect(read?: string[]): Promise<InspectResult>;
  act(steps: unknown[], plan?: { continueDraft?: boolean }): Promise<ReturnType<typeof ok<ActResult>> | never>;
  raw(steps: unknown[], plan?: { continueDraft?: boolean }, extra?: { approvalTimeoutSeconds?: number }): ReturnType<TetherDriver['agent']>;
  /** A plan that presses a publish button: refused while the person has not approved (nothing runs), then approved and run. */
  approved(steps: unknown[]): Promise<ActDone>;
}

interface Component {
  id: string;
  '@ctype': string;
  [key: string]: unknown;
}
interface Model {
  document: { components: Component[] };
}

/** Opens a Naver write page signed in, binds it as the write target; `query` sets the fixture's switches (keys=trusted-only, api=none|renamed|forged|throws). */
async function naver(tether: TetherDriver, where: 'blog' | 'cafe', query = '', options: { draftPrompt?: boolean } = {}): Promise<Bound> {
  const path = where === 'blog' ? `/alice_nv?Redirect=Write${query}` : `/ca-fe/cafes/10001/articles/write?boardType=L&menuId=3${query}`;
  const host = where === 'blog' ? 'blog.naver.com' : 'cafe.naver.com';
  const page = await tether.context.newPage();
  await page.goto(tether.sites.at(host, `/nidlogin?as=alice_nv&next=${encodeURIComponent(path)}`));
  await editorFrame(page).waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  // The temporary-save prompt comes after the editor has loaded; binding a page that shows it needs continueDraft.
  if (options.draftPrompt) await editorFrame(page).locator('.se-popup-container').waitFor();
  const workspace = await tether.workspaceOf([page]);
  await tether.must({
    type: 'workspace.setSite',
    workspaceId: workspace.id,
    origin: `${new URL(page.url()).origin}/`,
    policy: { writable: true, publishWithoutApproval: false },
  });
  const profile = await tether.profileId();
  const resolved = ok(
    await tether.agent('resolve', {
      profile,
      workspace: workspace.id,
      destination: { url: page.url() },
      ...(options.draftPrompt ? { continueDraft: true } : {}),
    }),
  );
  const handle = resolved.write?.handle ?? '';
  const raw = (steps: unknown[], plan = {}, extra = {}) =>
    tether.agent('act', { profile, workspace: workspace.id, handle, plan: { steps, ...plan }, ...extra });
  return {
    page,
    inspect: async (read = []) => ok(await tether.agent('inspect', { profile, workspace: workspace.id, handle, read })),
    act: async (steps, plan) => {
      const answer = await raw(steps, plan);
      if (!answer.ok) console.log(JSON.stringify(answer.error.details));
      return ok(answer as Parameters<typeof ok<ActResult>>[0]);
    },
    raw,
    approved: async (steps) => {
      refused(await raw(steps, {}, { approvalTimeoutSeconds: 1 }), 'approval_required');
      const acting = raw(steps);
      await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
      await tether.must({ type: 'approval.decide', approvalId: (await tether.state()).approvals[0]?.id ?? '', approve: true });
      return ran(ok((await acting) as Parameters<typeof ok<ActResult>>[0]));
    },
  };
}

function editorFrame(page: Page): Frame {
  return page.frame({ name: 'mainFrame' }) ?? page.mainFrame();
}

/** What the editor's model really holds (the fixture's own handle, not what Tether calls). */
const model = (page: Page): Promise<Model> => editorFrame(page).evaluate(() => (window as unknown as { __fixture: { model(): Model } }).__fixture.model());

const paragraphs = (component: Component) =>
  (component.value ?? component.title ?? []) as Array<{
    nodes: Array<{ value: string; style?: Record<string, unknown>; link?: { url: string } }>;
    style?: { list?: { type: string } };
  }>;
const lineOf = (paragraph: ReturnType<typeof paragraphs>[number]) => paragraph.nodes.map((node) => node.value).join('');
const titleOf = (data: Model) =>
  paragraphs(data.document.components.find((component) => component['@ctype'] === 'documentTitle') as Component)
    .map(lineOf)
    .join('\n');
const bodyLines = (data: Model) =>
  data.document.components
    .filter((component) => component['@ctype'] !== 'documentTitle')
    .flatMap((component) => paragraphs(component).map(lineOf))
    .filter((line) => line !== '');

const POST = `## 장보기 안내

토요일 **10시**에 *강변*에서 ~~9시~~ 열립니다.

- 장바구니
- 컵

1. 첫째
2. 둘째

[지도](https://map.example.com/riverside)를 보세요. \`코드\`

> 모두 환영합니다.`;

test('Naver Blog: title and markdown body through SmartEditor ONE’s model: its own subheading, styles, lists, link and quotation, read back from the model and the page; the title stays; append, title fill, clear', async ({
  tether,
}) => {
  const blog = await naver(tether, 'blog');
  await blog.inspect();
  const first = ran(await blog.act([{ op: 'fill', field: 'title', text: '봄 시장 소식', expect: { text: '' } }]));
  expect(first.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'document-service', undo: 'tether', verified: true });

  const body = ran(await blog.act([{ op: 'fill', field: 'body', text: POST, format: 'markdown', expect: { text: '' } }]));
  expect(body.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'document-service', took: 'html', verified: true });
  expect(body.steps[0]?.kept).toEqual([
    'textNode.link',
    'nodeStyle.bold',
    'nodeStyle.italic',
    'nodeStyle.strikethrough',
    'paragraphListStyle.bullet',
    'paragraphListStyle.decimal',
    'quotation',
    'subheading (bold + fontSizeCode)',
  ]);
  // Inline code has no place in the model: said, not silently flattened (its text stays).
  expect(body.steps[0]?.dropped).toEqual(['code']);

  const data = await model(blog.page);
  expect(titleOf(data)).toBe('봄 시장 소식');
  expect(bodyLines(data)).toEqual([
    '장보기 안내',
    '토요일 10시에 강변에서 9시 열립니다.',
    '장바구니',
    '컵',
    '첫째',
    '둘째',
    '지도를 보세요. 코드',
    '모두 환영합니다.',
  ]);
  const text = data.document.components.find((component) => component['@ctype'] === 'text') as Component;
  const [heading, styled, bullet, , decimal, , linked] = paragraphs(text);
  expect(heading?.nodes[0]?.style).toMatchObject({ bold: true, fontSizeCode: 'fs24' });
  expect(styled?.nodes.map((node) => [node.value, node.style ?? {}])).toEqual([
    ['토요일 ', {}],
    ['10시', { bold: true, '@ctype': 'nodeStyle' }],
    ['에 ', {}],
    ['강변', { italic: true, '@ctype': 'nodeStyle' }],
    ['에서 ', {}],
    ['9시', { strikethrough: true, '@ctype': 'nodeStyle' }],
    [' 열립니다.', {}],
  ]);
  expect([bullet?.style?.list?.type, decimal?.style?.list?.type]).toEqual(['bullet', 'decimal']);
  expect(linked?.nodes[0]?.link?.url).toBe('https://map.example.com/riverside');
  expect(data.document.components.map((component) => component['@ctype'])).toEqual(['documentTitle', 'text', 'quotation', 'text']);
  // On the page: the editor's own link element, no <a>.
  const frame = editorFrame(blog.page);
  await expect(frame.locator('.se-component.se-text span.se-link[data-href="https://map.example.com/riverside"]')).toHaveText('지도');
  expect(await frame.locator('.se-components-wrap a').count()).toBe(0);

  // append goes after the last component; what was there keeps its ids.
  await blog.inspect();
  const idsBefore = (await model(blog.page)).document.components.map((component) => component.id).slice(0, 3);
  const appended = ran(await blog.act([{ op: 'append', field: 'body', text: '끝.' }]));
  expect(appended.steps[0]).toMatchObject({ path: 'document-service', verified: true });
  const afterAppend = await model(blog.page);
  expect(afterAppend.document.components.map((component) => component.id).slice(0, 3)).toEqual(idsBefore);
  expect(bodyLines(afterAppend).at(-1)).toBe('끝.');

  // A title fill changes the title only; a clear empties the body only.
  await blog.inspect();
  ran(await blog.act([{ op: 'fill', field: 'title', text: '새 제목' }]));
  const retitled = await model(blog.page);
  expect([titleOf(retitled), bodyLines(retitled)]).toEqual(['새 제목', bodyLines(afterAppend)]);
  await blog.inspect();
  ran(await blog.act([{ op: 'clear', field: 'body' }]));
  const cleared = await model(blog.page);
  expect([titleOf(cleared), bodyLines(cleared)]).toEqual(['새 제목', []]);
  expect((await blog.inspect(['title', 'body'])).text).toEqual({ title: '새 제목', body: '' });

  // The person's Ctrl+Z does not undo a write through the model, as the step said (undo: "tether").
  ran(await blog.act([{ op: 'fill', field: 'body', text: '되돌려 보기', expect: { text: '' } }]));
  await frame.locator('.se-component.se-text p.se-text-paragraph').first().click();
  await blog.page.keyboard.press('Control+z');
  await blog.page.keyboard.press('Control+z');
  expect(bodyLines(await model(blog.page))).toEqual(['되돌려 보기']);
});

for (const api of ['none', 'renamed'] as const) {
  test(`a page whose editor model is ${api === 'none' ? 'missing' : 'renamed'}: the input-buffer paste adds to the body or fills it empty; a fill over text is refused with nothing sent; the person’s Ctrl+Z undoes the paste`, async ({
    tether,
  }) => {
    const blog = await naver(tether, 'blog', `&api=${api}`);
    await blog.inspect();
    const filled = ran(await blog.act([{ op: 'fill', field: 'body', text: '첫 문단\n둘째 문단', expect: { text: '' } }]));
    expect(filled.steps[0]).toMatchObject({
      editor: 'smarteditor-one',
      path: 'buffer-paste',
      tried: ['document-service', 'buffer-paste'],
      undo: 'editor',
      verified: true,
    });
    expect(bodyLines(await model(blog.page))).toEqual(['첫 문단', '둘째 문단']);

    await blog.inspect();
    const appended = ran(await blog.act([{ op: 'append', field: 'body', text: '- 컵\n- [지도](https://map.example.com/)', format: 'markdown' }]));
    expect(appended.steps[0]).toMatchObject({ path: 'buffer-paste', verified: true, kept: ['textNode.link', 'paragraphListStyle.bullet'] });
    expect(bodyLines(await model(blog.page))).toEqual(['첫 문단', '둘째 문단', '컵', '지도']);

    // Replacing text would need the editor's select-all, which takes the whole document: refused, nothing sent.
    await blog.inspect();
    const before = await model(blog.page);
    const refusal = refused(await blog.raw([{ op: 'fill', field: 'body', text: '새 글' }]), 'invalid_request');
    expect(refusal.message).toMatch(
      /^Step 1: Tether did not write to "body" \(the smarteditor-one editor\): document-service: (missing|shape) .*; buffer-paste: the input buffer cannot select one field’s text alone/,
    );
    expect(refusal.details?.tried).toEqual(['document-service']);
    expect(await model(blog.page)).toEqual(before);

    // The paste is an edit the editor records: the person's Ctrl+Z takes it back (as the step said: undo "editor").
    await editorFrame(blog.page).locator('.se-component.se-text p.se-text-paragraph').first().click();
    await blog.page.keyboard.press('Control+z');
    await expect.poll(async () => bodyLines(await model(blog.page))).toEqual(['첫 문단', '둘째 문단']);
  });
}

for (const keys of ['honoured', 'ignored'] as const) {
  test(`a plan that fails after a buffer write is undone and read back — synthetic keys ${keys}: ${keys === 'honoured' ? 'undone' : 'the leftover is said, never “undone”, and the next act does not take it for the person’s draft'}`, async ({
    tether,
  }) => {
    const blog = await naver(tether, 'blog', `&api=none${keys === 'ignored' ? '&keys=trusted-only' : ''}`);
    await blog.inspect();
    ran(await blog.act([{ op: 'fill', field: 'title', text: '있는 제목', expect: { text: '' } }]));
    await blog.inspect();
    const answer = refused(
      await blog.raw([
        { op: 'append', field: 'body', text: '첫 줄\n둘째 줄' },
        { op: 'fill', field: 'title', text: '새 제목' },
      ]),
      'invalid_request',
    );
    expect(answer.details?.ran).toEqual([0, 1]);
    if (keys === 'honoured') {
      expect(answer.message).toMatch(/; earlier steps were undone\.$/);
      // The failing step (its field as it was: nothing to put back) and the append, read back.
      expect(answer.details?.rolledBack).toEqual([1, 0]);
      expect(answer.details?.leftOver).toBeUndefined();
      expect(bodyLines(await model(blog.page))).toEqual([]);
      return;
    }
    // The editor ignored Tether's Ctrl+Z: the page still differs, and the answer says so.
    expect(answer.message).not.toContain('undone');
    expect(answer.message).toContain('Tether could not undo its writes to "body": the page still differs from before (details.leftOver)');
    // Only the title, which the failing step never wrote, reads as it was.
    expect(answer.details?.rolledBack).toEqual([1]);
    expect(answer.details?.leftOver).toEqual([{ step: 0, field: 'body', length: '첫 줄\n둘째 줄'.length, hash: expect.any(String) }]);
    expect(bodyLines(await model(blog.page))).toEqual(['첫 줄', '둘째 줄']);
    // Tether's own leftover is not the person's draft: the next act runs without continueDraft.
    const seen = await blog.inspect();
    expect(seen.draft).toBeUndefined();
    ran(await blog.act([{ op: 'append', field: 'body', text: '셋째 줄' }]));
    expect(bodyLines(await model(blog.page))).toEqual(['첫 줄', '둘째 줄', '셋째 줄']);
  });
}

test('every step of a plan the model took part of is undone through the model and read back; every problem listed', async ({ tether }) => {
  const blog = await naver(tether, 'blog');
  await blog.inspect();
  ran(await blog.act([{ op: 'fill', field: 'body', text: '원래 본문', expect: { text: '' } }]));
  ran(await blog.act([{ op: 'click', action: 'publish_settings' }]));
  await blog.inspect();
  const before = await model(blog.page);
  const answer = refused(
    await blog.raw([
      { op: 'fill', field: 'title', text: '바뀐 제목' },
      { op: 'fill', field: 'body', text: '## 바뀐 본문\n\n새 문단', format: 'markdown' },
      { op: 'select', field: 'category', value: '없는 분류' },
    ]),
    'invalid_request',
  );
  expect(answer.message).toMatch(/^Step 3: Tether did not write to "category" \(the listbox editor\): no option "없는 분류" .*; earlier steps were undone\.$/);
  expect(answer.details).toMatchObject({ ran: [0, 1, 2], rolledBack: [2, 1, 0], problems: [{ step: 2, code: 'invalid_request' }] });
  const after = await model(blog.page);
  expect([titleOf(after), bodyLines(after)]).toEqual([titleOf(before), bodyLines(before)]);
  expect((await blog.inspect(['title', 'body'])).text).toEqual({ title: '', body: '원래 본문' });
});

test('a page whose model lies, throws, or does not read as what the page shows: refused, the page and its model unchanged', async ({ tether }) => {
  // forged: setDocumentData keeps nothing and getDocumentData answers what it was told.
  const forged = await naver(tether, 'blog', '&api=forged');
  await forged.inspect();
  const lied = refused(await forged.raw([{ op: 'fill', field: 'body', text: '거짓 모델', expect: { text: '' } }]), 'invalid_request');
  expect(lied.details?.why).toBe('document-service: the page does not show what the editor’s model says');
  expect(bodyLines(await model(forged.page))).toEqual([]);
  expect((await forged.inspect(['body'])).text?.body).toBe('');

  // throws: setDocumentData throws on every model.
  const throwing = await naver(tether, 'blog', '&api=throws');
  await throwing.inspect();
  const threw = refused(await throwing.raw([{ op: 'fill', field: 'title', text: '제목', expect: { text: '' } }]), 'invalid_request');
  expect(threw.details).toMatchObject({
    editor: 'smarteditor-one',
    tried: ['document-service'],
    why: expect.stringContaining("document-service: threw (TypeError: setDocumentData: Cannot read properties of undefined (reading 'forEach'))"),
  });
  expect(titleOf(await model(throwing.page))).toBe('');

  // The page shows what its model does not hold (a DOM-only edit): the model is not believed, nothing is written.
  const blog = await naver(tether, 'blog');
  await editorFrame(blog.page).evaluate(() => {
    const node = document.querySelector('.se-documentTitle .__se-node');
    if (node) node.textContent = '화면에만';
  });
  await blog.inspect();
  const mismatch = refused(await blog.raw([{ op: 'fill', field: 'body', text: '본문', expect: { text: '' } }]), 'invalid_request');
  expect(mismatch.details?.why).toBe('document-service: the editor’s model does not read as what the page shows; Tether writes neither way');
  expect(bodyLines(await model(blog.page))).toEqual([]);
});

test('main-world code: only on the Naver adapters’ hosts, nothing left behind; an object named SmartEditor on another site is never called', async ({
  tether,
  sites,
}) => {
  const blog = await naver(tether, 'blog');
  const globals = () =>
    Promise.all([blog.page.mainFrame(), editorFrame(blog.page)].map((frame) => frame.evaluate(() => Object.getOwnPropertyNames(window).sort().join(','))));
  const before = await globals();
  await blog.inspect();
  ran(await blog.act([{ op: 'fill', field: 'body', text: '본문', expect: { text: '' } }]));
  expect(await globals()).toEqual(before);

  // Elsewhere: the same editor and a window.SmartEditor recording every call. Written through the buffer, or not at all.
  await tether.signIn('notes', 'alice');
  const page = await tether.context.newPage();
  await page.goto(sites.url('notes', '/editor/smarteditor-one'));
  await page.waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  const workspace = await tether.workspaceOf([page]);
  await tether.must({
    type: 'workspace.setSite',
    workspaceId: workspace.id,
    origin: `${new URL(page.url()).origin}/`,
    policy: { writable: true, publishWithoutApproval: false },
  });
  const profile = await tether.profileId();
  const handle = ok(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { url: page.url() } })).write?.handle ?? '';
  const seen = ok(await tether.agent('inspect', { profile, workspace: workspace.id, handle }));
  const body = seen.fields?.find((field) => field.kind === 'rich-editor');
  const wrote = ran(
    ok(
      await tether.agent('act', {
        profile,
        workspace: workspace.id,
        handle,
        plan: { steps: [{ op: 'fill', field: body?.name, text: '여기는 네이버가 아닙니다' }] },
      }),
    ) as ActResult,
  );
  // No `tried`: the one path that ran took (the model path never ran off Naver's hosts).
  expect(wrote.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'buffer-paste', verified: true });
  expect(wrote.steps[0]?.tried).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __smartEditorCalls: string[] }).__smartEditorCalls)).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { editorApi: { text(): string } }).editorApi.text())).toBe('여기는 네이버가 아닙니다');
});

/** The post, from the Cafe notes: a heading, two paragraphs, a list and a link (photos: issue 26 item 3, with the photos branch). */
const NOTES_POST = `## 봄 시장

토요일 10시에 강변에서 열립니다.

컵을 가져오면 차 할인이 있습니다.

- 장바구니
- 컵

[강변 공원 안내](https://map.example.com/riverside)`;
const NOTES_LINES = ['봄 시장', '토요일 10시에 강변에서 열립니다.', '컵을 가져오면 차 할인이 있습니다.', '장바구니', '컵', '강변 공원 안내'];

test('Naver Blog, the whole post: title and body in the model; 저장 saves a draft; 발행 only opens the panel; tags and category there; the final 발행 waits for the person and publishes once, from the model', async ({
  tether,
  sites,
}) => {
  const blog = await naver(tether, 'blog');
  const seen = await blog.inspect();
  expect(seen.actions).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'publish_settings', kind: 'other' }),
      expect.objectContaining({ name: 'save_draft', kind: 'save_draft' }),
    ]),
  );
  const wrote = ran(
    await blog.act([
      { op: 'fill', field: 'title', text: '주간 공지: 봄 시장', expect: { text: '' } },
      { op: 'fill', field: 'body', text: NOTES_POST, format: 'markdown', expect: { text: '' } },
      // 저장 is a save_draft: no approval, nothing public.
      { op: 'click', action: 'save_draft' },
    ]),
  );
  expect(wrote.steps.map((step) => [step.path ?? step.editor ?? 'click', step.verified])).toEqual([
    ['document-service', true],
    ['document-service', true],
    ['click', true],
  ]);
  expect(wrote.steps[1]?.kept).toEqual(['textNode.link', 'paragraphListStyle.bullet', 'subheading (bold + fontSizeCode)']);
  await expect.poll(() => sites.naver.drafts.length).toBe(1);
  expect(sites.naver.posts).toHaveLength(1); // the seeded post only

  // 발행 in the header opens the panel: a plain action, no approval, nothing published.
  ran(await blog.act([{ op: 'click', action: 'publish_settings' }]));
  const panel = await blog.inspect();
  expect(panel.actions).toContainEqual(expect.objectContaining({ name: 'publish', kind: 'publish' }));
  expect(panel.fields?.find((field) => field.name === 'category')?.options).toEqual(['일상', '시장 이야기', '책과 차']);
  const publish = [
    { op: 'fill', field: 'tags', text: '봄, 시장, 강변' },
    { op: 'select', field: 'category', value: '시장 이야기' },
    { op: 'click', action: 'publish' },
  ];
  const published = await blog.approved(publish);
  expect(published.steps.map((step) => [step.editor ?? 'click', step.verified])).toEqual([
    ['tag-chips', true],
    ['listbox', true],
    ['click', true],
  ]);
  await expect.poll(() => sites.naver.posts.length).toBe(2);
  const post = sites.naver.posts[1];
  expect([post?.category, post?.tags]).toEqual(['7', ['봄', '시장', '강변']]);
  const postModel = post?.data as unknown as Model;
  expect([titleOf(postModel), bodyLines(postModel)]).toEqual(['주간 공지: 봄 시장', NOTES_LINES]);
  // Published once: the page moved to the post, and nothing posts again.
  await expect.poll(() => editorFrame(blog.page).url()).toContain('PostView.naver');
  expect(sites.naver.posts).toHaveLength(2);
});

test('Naver Blog: the temporary-save prompt is a draft in progress; with continueDraft, 확인 loads it and a body append goes through the model after it', async ({
  tether,
  sites,
}) => {
  const draft = emptyDocument();
  draft.document.components = [titleComponent('봄 시장 메모'), textComponent([paragraph([textNode('토요일 10시에 강변에서 열립니다.')])])];
  sites.naver.autosave.set('alice_nv|blogpc001', draft);
  const blog = await naver(tether, 'blog', '', { draftPrompt: true });
  const prompted = await blog.inspect();
  expect(prompted.draft).toEqual({ reasons: ['autosave-banner'] });
  refused(await blog.raw([{ op: 'fill', field: 'title', text: '새 글', expect: { text: '' } }]), 'draft_in_progress');
  expect(titleOf(await model(blog.page))).toBe('');

  ran(await blog.act([{ op: 'click', action: 'continue_draft' }], { continueDraft: true }));
  await expect(editorFrame(blog.page).locator('.se-popup-container')).toHaveCount(0);
  expect((await blog.inspect(['title', 'body'])).text).toEqual({ title: '봄 시장 메모', body: '토요일 10시에 강변에서 열립니다.' });
  const appended = ran(await blog.act([{ op: 'append', field: 'body', text: '컵을 가져오세요.' }], { continueDraft: true }));
  expect(appended.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'document-service', verified: true });
  const data = await model(blog.page);
  expect([titleOf(data), bodyLines(data)]).toEqual(['봄 시장 메모', ['토요일 10시에 강변에서 열립니다.', '컵을 가져오세요.']]);
});

test('Naver Cafe: the title textarea, the body through the model (cafepc001), the board as a select, tags, and 등록 as publish: waits for the person, registers once, from the model', async ({
  tether,
  sites,
}) => {
  const cafe = await naver(tether, 'cafe');
  const seen = await cafe.inspect();
  expect(seen.fields?.find((field) => field.name === 'board')?.options).toEqual(['공지사항', '자유게시판', '장터 소식']);
  expect(seen.actions).toContainEqual(expect.objectContaining({ name: 'register', kind: 'publish' }));
  const before = sites.naver.articles.length;
  const registered = await cafe.approved([
    { op: 'fill', field: 'title', text: '장터 소식: 봄 시장', expect: { text: '' } },
    { op: 'fill', field: 'body', text: NOTES_POST, format: 'markdown', expect: { text: '' } },
    { op: 'select', field: 'board', value: '장터 소식' },
    { op: 'fill', field: 'tags', text: '봄, 시장, 강변' },
    { op: 'click', action: 'register' },
  ]);
  expect(registered.steps.map((step) => [step.editor ?? 'click', step.path ?? null, step.verified])).toEqual([
    ['textarea', expect.any(String), true],
    ['smarteditor-one', 'document-service', true],
    ['listbox', 'widget', true],
    ['tag-chips', 'widget', true],
    ['click', null, true],
  ]);
  expect(registered.steps[1]?.kept).toEqual(['textNode.link', 'paragraphListStyle.bullet', 'subheading (bold + fontSizeCode)']);
  await expect.poll(() => sites.naver.articles.length).toBe(before + 1);
  const article = sites.naver.articles.at(-1);
  expect([article?.menuId, article?.subject, article?.tags]).toEqual(['5', '장터 소식: 봄 시장', ['봄', '시장', '강변']]);
  expect(bodyLines(article?.data as unknown as Model)).toEqual(NOTES_LINES);
  await expect.poll(() => cafe.page.url()).toMatch(/\/ca-fe\/cafes\/10001\/articles\/\d+$/);
  expect(sites.naver.articles).toHaveLength(before + 1);
});

// ---- photos through SmartEditor ONE's own uploader (issue 26 item 3, with issue 25) ----

interface ImageModel {
  src: string;
  path: string;
  domain: string;
  caption: Array<{ nodes: Array<{ value: string }> }> | null;
  '@ctype': 'image';
}
const imagesOf = (data: Model) => data.document.components.filter((component) => component['@ctype'] === 'image') as unknown as ImageModel[];
const captionOf = (image: ImageModel) => (image.caption ?? []).map((paragraph) => paragraph.nodes.map((node) => node.value).join('')).join('\n');
/** The body in order: each text line, and each photo as [photo: caption]. */
const bodyOrder = (data: Model) =>
  data.document.components
    .filter((component) => component['@ctype'] !== 'documentTitle')
    .flatMap((component) =>
      component['@ctype'] === 'image' ? [`[photo: ${captionOf(component as unknown as ImageModel)}]`] : paragraphs(component).map(lineOf),
    )
    .filter((line) => line !== '');

/** The cafe notes (a Naver Cafe article with two photos) as the reference, and a Naver write page as the write target. */
async function naverWithNotes(tether: TetherDriver, where: 'blog' | 'cafe') {
  const notes = await tether.context.newPage();
  const article = '/ca-fe/cafes/10001/articles/1';
  await notes.goto(tether.sites.at('cafe.naver.com', `/nidlogin?as=alice_nv&next=${encodeURIComponent(article)}`));
  await notes.waitForFunction(
    () => Array.from(document.images).length >= 2 && Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
  );
  const path = where === 'blog' ? '/alice_nv?Redirect=Write' : '/ca-fe/cafes/10001/articles/write?boardType=L&menuId=3';
  const host = where === 'blog' ? 'blog.naver.com' : 'cafe.naver.com';
  const page = await tether.context.newPage();
  await page.goto(tether.sites.at(host, `/nidlogin?as=alice_nv&next=${encodeURIComponent(path)}`));
  await editorFrame(page).waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  const workspace = (await tether.workspaceOf([page, notes])).id;
  const setSite = (extra: Record<string, unknown> = {}) =>
    tether.must({
      type: 'workspace.setSite',
      workspaceId: workspace,
      origin: `${new URL(page.url()).origin}/`,
      policy: { writable: true, publishWithoutApproval: false, ...extra },
    });
  await setSite();
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { url: page.url() }, references: [{ url: notes.url() }] }));
  const handle = resolved.write?.handle ?? '';
  const ref = resolved.references?.[0]?.handle ?? '';
  const raw = (steps: unknown[], extra: Record<string, unknown> = {}) => tether.agent('act', { profile, workspace, handle, plan: { steps }, ...extra });
  const inspect = async () => ok(await tether.agent('inspect', { profile, workspace, handle }));
  return {
    page,
    notes,
    profile,
    workspace,
    handle,
    ref,
    raw,
    inspect,
    setSite,
    /** A plan that asks the person (a publish, a local file): refused while not approved, then approved and run. */
    approved: async (steps: unknown[]) => {
      refused(await raw(steps, { approvalTimeoutSeconds: 1 }), 'approval_required');
      const acting = raw(steps);
      await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
      await tether.must({ type: 'approval.decide', approvalId: (await tether.state()).approvals[0]?.id ?? '', approve: true });
      return ran(ok((await acting) as Parameters<typeof ok<ActResult>>[0]));
    },
  };
}

/** What the editor frame shows of its photos (the rendered components, read as a person's browser shows them). */
const shownPhotos = (page: Page) =>
  editorFrame(page).evaluate(() =>
    Array.from(document.querySelectorAll('.se-component.se-image')).map((component) => {
      const img = component.querySelector('img.se-image-resource') as HTMLImageElement;
      return { src: img.src, loaded: img.complete && img.naturalWidth > 0, caption: component.querySelector('.se-caption')?.textContent ?? '' };
    }),
  );

const PHOTO_POST = `## 봄 시장

토요일 10시에 강변에서 열립니다.

![장터 풍경](image:market)

컵을 가져오면 차 할인이 있습니다.

- 장바구니
- 컵

[강변 공원 안내](https://map.example.com/riverside)

![강변 찻집](image:tea)`;
const PHOTO_ORDER = [
  '봄 시장',
  '토요일 10시에 강변에서 열립니다.',
  '[photo: 장터 풍경]',
  '컵을 가져오면 차 할인이 있습니다.',
  '장바구니',
  '컵',
  '강변 공원 안내',
  '[photo: 강변 찻집]',
];

for (const where of ['blog', 'cafe'] as const) {
  test(`the issue's post on Naver ${where === 'blog' ? 'Blog' : 'Cafe'}, from the Naver Cafe notes: a heading, two paragraphs, a list, a link, two photos from the notes (through SmartEditor ONE's own uploader) and three tags, ${where === 'blog' ? 'published' : 'registered'} once the person approves`, async ({
    tether,
    sites,
  }) => {
    const scene = await naverWithNotes(tether, where);
    const notes = ok(await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.ref, read: ['post.body'] }));
    expect(notes.images?.map((image) => image.name)).toEqual(['market-stalls', 'riverside-tea']);
    await scene.inspect();
    const uploadsBefore = sites.naver.uploads.length;
    const writeSteps = [
      { op: 'fill', field: 'title', text: '주간 공지: 봄 시장', expect: { text: '' } },
      {
        op: 'fill',
        field: 'body',
        text: PHOTO_POST,
        format: 'markdown',
        expect: { text: '' },
        images: { market: { ref: scene.ref, image: 'market-stalls' }, tea: { ref: scene.ref, image: 'riverside-tea' } },
      },
    ];
    const publishSteps =
      where === 'blog'
        ? [
            { op: 'fill', field: 'tags', text: '봄, 시장, 강변' },
            { op: 'select', field: 'category', value: '시장 이야기' },
            { op: 'click', action: 'publish' },
          ]
        : [
            { op: 'select', field: 'board', value: '장터 소식' },
            { op: 'fill', field: 'tags', text: '봄, 시장, 강변' },
            { op: 'click', action: 'register' },
          ];
    let done: ActDone;
    if (where === 'blog') {
      // The post, its photos copied from the notes (no approval: already on the web), then 발행 opens the panel.
      const wrote = ran(ok((await scene.raw([...writeSteps, { op: 'click', action: 'publish_settings' }])) as Parameters<typeof ok<ActResult>>[0]));
      expect(wrote.steps[1]).toMatchObject({ editor: 'smarteditor-one', verified: true, kept: expect.arrayContaining(['textNode.link', 'img']) });
      expect(wrote.steps[1]?.images).toHaveLength(2);
      await scene.inspect();
      done = await scene.approved(publishSteps);
    } else {
      done = await scene.approved([...writeSteps, ...publishSteps]);
      expect(done.steps[1]).toMatchObject({ editor: 'smarteditor-one', verified: true, kept: expect.arrayContaining(['textNode.link', 'img']) });
      expect(done.steps[1]?.images).toHaveLength(2);
    }

    // Uploaded by the editor's own uploader to Naver's upload host: the notes' bytes, twice, nothing else.
    const uploads = sites.naver.uploads.slice(uploadsBefore);
    expect(uploads.map((upload) => [upload.host, upload.size])).toEqual([
      [`${where}.upphoto.naver.com`, CAFE_PHOTOS[0]?.bytes.length],
      [`${where}.upphoto.naver.com`, CAFE_PHOTOS[1]?.bytes.length],
    ]);
    // Published once, from the model: its photos at the stored address (path = the upload's url), captions as the alts.
    const published =
      where === 'blog'
        ? (await expect.poll(() => sites.naver.posts.length).toBe(2), sites.naver.posts[1]?.data)
        : (await expect.poll(() => sites.naver.articles.length).toBe(2), sites.naver.articles.at(-1)?.data);
    const postModel = published as unknown as Model;
    expect(titleOf(postModel)).toBe(where === 'blog' ? '주간 공지: 봄 시장' : '');
    expect(bodyOrder(postModel)).toEqual(PHOTO_ORDER);
    const photoHost = where === 'blog' ? 'blogfiles.pstatic.net' : 'cafeptthumb-phinf.pstatic.net';
    const photos = imagesOf(postModel);
    expect(photos).toHaveLength(2);
    for (const [index, photo] of photos.entries()) {
      expect(photo.domain).toBe(`http://${photoHost}:${new URL(scene.page.url()).port}`);
      expect(photo.src).toBe(`${photo.domain}${photo.path}?type=w1`);
      // The stored copy, not the notes' address: served at the path, with the notes' bytes.
      expect(photo.path).not.toBe(CAFE_PHOTOS[index]?.url);
      expect(Buffer.compare(sites.naver.photos.get(photo.path)?.bytes ?? Buffer.alloc(0), Buffer.from(CAFE_PHOTOS[index]?.bytes ?? []))).toBe(0);
    }
    if (where === 'blog') expect([sites.naver.posts[1]?.tags, sites.naver.posts[1]?.category]).toEqual([['봄', '시장', '강변'], '7']);
    else
      expect([sites.naver.articles.at(-1)?.subject, sites.naver.articles.at(-1)?.menuId, sites.naver.articles.at(-1)?.tags]).toEqual([
        '주간 공지: 봄 시장',
        '5',
        ['봄', '시장', '강변'],
      ]);
    expect(done.steps.at(-1)).toMatchObject({ verified: true });
  });
}

test('Naver Blog photos: a local file (the person approves), base64 with the standing permission, after a named paragraph; read back in the model and on the page; Ctrl+Z leaves it (the model write is not in the editor’s history); a plan that fails after a photo takes it out, read back', async ({
  tether,
  sites,
}) => {
  const scene = await naverWithNotes(tether, 'blog');
  await scene.inspect();
  ran(
    ok(
      (await scene.raw([{ op: 'fill', field: 'body', text: '첫 문단입니다.\n\n둘째 문단입니다.', format: 'markdown', expect: { text: '' } }])) as Parameters<
        typeof ok<ActResult>
      >[0],
    ),
  );
  const port = new URL(scene.page.url()).port;

  // A local file: the person's approval first (declined sends nothing: issue 25's rule, the same here).
  const lake = makePng(900, 600, (x, y) => [(x * 3) % 255, (y * 5) % 255, 90]);
  const path = join(mkdtempSync(join(tmpdir(), 'tether-naver-')), 'lake.png');
  writeFileSync(path, lake);
  await scene.inspect();
  const uploadsBefore = sites.naver.uploads.length;
  const filed = await scene.approved([{ op: 'image', field: 'body', source: { file: path, data: encodeBase64(lake) }, alt: '호수', after: '첫 문단' }]);
  expect(filed.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'image-upload-service', verified: true, kept: ['img'] });
  let data = await model(scene.page);
  expect(bodyOrder(data)).toEqual(['첫 문단입니다.', '[photo: 호수]', '둘째 문단입니다.']);
  const [first] = imagesOf(data);
  expect(first?.src).toBe(`http://blogfiles.pstatic.net:${port}${first?.path}?type=w1`);
  expect(filed.steps[0]?.src).toBe(first?.src);
  expect(sites.naver.uploads.slice(uploadsBefore)).toEqual([{ host: 'blog.upphoto.naver.com', fileName: 'lake.png', size: lake.length, type: 'image/png' }]);
  // The page shows it, loaded from the stored copy (a wrong path would 404 here, as CSH saw).
  await expect.poll(() => shownPhotos(scene.page)).toEqual([{ src: first?.src, loaded: true, caption: '호수' }]);

  // The person's Ctrl+Z: the model write is not in the editor's history (the fixture, like the record, has no undo for setDocumentData).
  await scene.page.bringToFront();
  await editorFrame(scene.page).locator('.se-text-paragraph', { hasText: '둘째 문단입니다.' }).click();
  await scene.page.keyboard.press('Control+z');
  expect(imagesOf(await model(scene.page))).toHaveLength(1);

  // Base64 bytes with the site's standing permission: no approval; at the end.
  await scene.setSite({ uploadImagesWithoutAsking: true });
  const dot = makePng(64, 64, () => [10, 200, 30]);
  // Tether waits out the person's key presses (target_busy, nothing ran): inspect and act again, as an agent does.
  const inlineStep = [{ op: 'image', field: 'body', source: { data: encodeBase64(dot), name: 'dot.png' }, alt: '' }];
  let answer = await scene.raw(inlineStep);
  await expect
    .poll(async () => {
      // Nothing ran: the person's keys (target_busy) and their edit (field_changed), alone or together.
      const busy = (envelope: typeof answer) =>
        !envelope.ok && /is typing in|changed since it was inspected/.test(`${envelope.error.message} ${JSON.stringify(envelope.error.details ?? {})}`);
      if (busy(answer)) {
        await scene.inspect();
        answer = await scene.raw(inlineStep);
      }
      return answer.ok || answer.error.code;
    })
    .toBe(true);
  const inline = ran(ok(answer as Parameters<typeof ok<ActResult>>[0]));
  expect(inline.steps[0]).toMatchObject({ verified: true });
  data = await model(scene.page);
  expect(bodyOrder(data)).toEqual(['첫 문단입니다.', '[photo: 호수]', '둘째 문단입니다.', '[photo: ]']);
  expect(imagesOf(data)[1]?.caption).toBeNull();

  // A plan that fails after its photo went in: the photo is taken out through the model, the title put back, read back.
  const before = await model(scene.page);
  sites.naver.photoAnswer = 'fail';
  sites.naver.photoAnswerFrom = sites.naver.uploads.length + 2;
  await scene.inspect();
  const failed = refused(
    await scene.raw([
      { op: 'fill', field: 'title', text: '바뀐 제목' },
      { op: 'image', field: 'body', source: { ref: scene.ref, image: 'market-stalls' }, alt: '장터', after: '둘째 문단' },
      { op: 'image', field: 'body', source: { ref: scene.ref, image: 'riverside-tea' }, alt: '찻집' },
    ]),
    'invalid_request',
  );
  expect(failed.message).toMatch(/image did not go into "body".*earlier steps were undone/);
  expect(failed.details).not.toHaveProperty('leftOver');
  const after = await model(scene.page);
  expect([titleOf(after), bodyOrder(after), imagesOf(after).map((image) => image.src)]).toEqual([
    titleOf(before),
    bodyOrder(before),
    imagesOf(before).map((image) => image.src),
  ]);
  await expect.poll(() => shownPhotos(scene.page).then((shown) => shown.length)).toBe(2);
  sites.naver.photoAnswer = 'good';
});

test('the uploader’s answer is page data: a failed upload, no url, a url on another host, an oversized url, a url that is not a string — each refused, nothing inserted, the model unchanged', async ({
  tether,
  sites,
}) => {
  const scene = await naverWithNotes(tether, 'blog');
  await scene.inspect();
  ran(ok((await scene.raw([{ op: 'fill', field: 'body', text: '본문입니다.', expect: { text: '' } }])) as Parameters<typeof ok<ActResult>>[0]));
  const before = await model(scene.page);
  const cases: Array<[NaverState['photoAnswer'], RegExp]> = [
    ['fail', /uploader did not take the photo/],
    ['no-url', /answer has no url/],
    ['foreign-host', /url is on photos\.evil\.example, not on Naver’s photo host/],
    ['oversized', /url is over 1024 characters/],
    ['non-string', /url is not a string \(number\)/],
  ];
  for (const [answer, problem] of cases) {
    sites.naver.photoAnswer = answer;
    await scene.inspect();
    const uploads = sites.naver.uploads.length;
    const refusal = refused(
      await scene.raw([{ op: 'image', field: 'body', source: { ref: scene.ref, image: 'market-stalls' }, alt: '장터' }]),
      'invalid_request',
    );
    expect(refusal.message).toMatch(problem);
    expect(refusal.details).toMatchObject({ editor: 'smarteditor-one' });
    // It reached the uploader (the bad answer is the page's), and nothing went into the document.
    expect(sites.naver.uploads.length).toBe(uploads + 1);
    expect(await model(scene.page)).toEqual(before);
    expect(await shownPhotos(scene.page)).toEqual([]);
  }
  sites.naver.photoAnswer = 'good';
});

test('a page on another host with a SmartEditor global and uploader: a photo is refused, its uploader never called, nothing uploaded', async ({
  tether,
  sites,
}) => {
  await tether.signIn('notes', 'alice');
  const page = await tether.context.newPage();
  await page.goto(sites.url('notes', '/editor/smarteditor-one'));
  await page.waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  const workspace = await tether.workspaceOf([page]);
  await tether.must({
    type: 'workspace.setSite',
    workspaceId: workspace.id,
    origin: `${new URL(page.url()).origin}/`,
    policy: { writable: true, publishWithoutApproval: false, uploadImagesWithoutAsking: true },
  });
  const profile = await tether.profileId();
  const handle = ok(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { url: page.url() } })).write?.handle ?? '';
  const seen = ok(await tether.agent('inspect', { profile, workspace: workspace.id, handle }));
  const body = seen.fields?.find((field) => field.kind === 'rich-editor');
  const uploads = sites.naver.uploads.length;
  const refusal = refused(
    await tether.agent('act', {
      profile,
      workspace: workspace.id,
      handle,
      plan: { steps: [{ op: 'image', field: body?.name, source: { data: encodeBase64(makePng(64, 64)), name: 'dot.png' }, alt: '' }] },
    }),
    'invalid_request',
  );
  // Never called (the page's uploader records every call), nothing uploaded; the refusal says why.
  expect(await page.evaluate(() => (window as unknown as { __smartEditorCalls: string[] }).__smartEditorCalls)).toEqual([]);
  expect(sites.naver.uploads.length).toBe(uploads);
  expect(refusal.message).toMatch(/only in the body of a Naver Blog or Naver Cafe write page/);
});

/**
 * Naver Blog photos in both browsers (firefox-esr through `network.dns.localDomains`,
 * siteFixtures.ts): a photo of the Cafe notes after a named paragraph and an approved local file,
 * through SmartEditor ONE's own uploader, read back from its model (the fixture's, in #mainFrame)
 * at the stored address; a plan whose second photo's upload fails takes the first out and puts
 * the title back. The steps and assertions of the Chromium-only tests above, on the TetherClient
 * each browser gives.
 */
inBothBrowsers(
  'Naver Blog photos (both browsers): a Cafe notes photo after a named paragraph and an approved local file through SmartEditor ONE’s uploader, read back from its model; a failed upload taken back',
  BOTH,
  async ({ tether, sites }) => {
    const login = (host: string, next: string) => tether.sites.at(host, `/nidlogin?as=alice_nv&next=${encodeURIComponent(next)}`);
    const notes = await tether.openAt(login('cafe.naver.com', '/ca-fe/cafes/10001/articles/1'));
    await notes.waitForFunction(
      () => Array.from(document.images).length >= 2 && Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
    );
    const page = await tether.openAt(login('blog.naver.com', '/alice_nv?Redirect=Write'));
    await page.waitForFunction(
      () => (document.querySelector('#mainFrame') as HTMLIFrameElement | null)?.contentDocument?.body?.dataset.editorReady === 'smarteditor-one',
    );
    const frameModel = () =>
      page.evaluate(() =>
        ((document.querySelector('#mainFrame') as HTMLIFrameElement).contentWindow as unknown as { __fixture: { model(): Model } }).__fixture.model(),
      );
    const workspace = (await tether.workspaceOf([page, notes])).id;
    await tether.must({
      type: 'workspace.setSite',
      workspaceId: workspace,
      origin: `${new URL(page.url()).origin}/`,
      policy: { writable: true, publishWithoutApproval: false },
    });
    const profile = await tether.profileId();
    const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { url: page.url() }, references: [{ url: notes.url() }] }));
    const handle = resolved.write?.handle ?? '';
    const ref = resolved.references?.[0]?.handle ?? '';
    const act = (steps: unknown[]) => tether.agent('act', { profile, workspace, handle, plan: { steps } });
    const inspect = () => tether.agent('inspect', { profile, workspace, handle });
    await inspect();
    ran(ok(await act([{ op: 'fill', field: 'body', text: '첫 문단입니다.\n\n둘째 문단입니다.', format: 'markdown', expect: { text: '' } }])));
    const port = new URL(page.url()).port;

    // A photo of the Cafe notes (no approval: already on the web), after the first paragraph.
    await inspect();
    const uploadsBefore = sites.naver.uploads.length;
    const put = ran(ok(await act([{ op: 'image', field: 'body', source: { ref, image: 'market-stalls' }, alt: '장터', after: '첫 문단' }])));
    expect(put.steps[0]).toMatchObject({ editor: 'smarteditor-one', path: 'image-upload-service', verified: true, kept: ['img'] });
    let data = await frameModel();
    expect(bodyOrder(data)).toEqual(['첫 문단입니다.', '[photo: 장터]', '둘째 문단입니다.']);
    expect(imagesOf(data)[0]?.src).toBe(`http://blogfiles.pstatic.net:${port}${imagesOf(data)[0]?.path}?type=w1`);
    expect(put.steps[0]?.src).toBe(imagesOf(data)[0]?.src);
    expect(Buffer.compare(sites.naver.photos.get(imagesOf(data)[0]?.path ?? '')?.bytes ?? Buffer.alloc(0), Buffer.from(CAFE_PHOTOS[0]?.bytes ?? []))).toBe(0);

    // A local file: the person approves, then it goes in at the end.
    const lake = makePng(200, 150, (x, y) => [(x * 3) % 255, (y * 5) % 255, 90]);
    const path = join(mkdtempSync(join(tmpdir(), 'tether-naver-')), 'lake.png');
    writeFileSync(path, lake);
    await inspect();
    const approving = act([{ op: 'image', field: 'body', source: { file: path, data: encodeBase64(lake) }, alt: '호수' }]);
    await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
    const asked = (await tether.state()).approvals[0];
    expect(asked?.images).toEqual([expect.objectContaining({ name: 'lake.png', from: path, kind: 'file', bytes: lake.length, asks: true })]);
    await tether.must({ type: 'approval.decide', approvalId: asked?.id ?? '', approve: true });
    const filed = ran(ok(await approving));
    expect(filed.steps[0]).toMatchObject({ editor: 'smarteditor-one', verified: true, kept: ['img'] });
    data = await frameModel();
    expect(bodyOrder(data)).toEqual(['첫 문단입니다.', '[photo: 장터]', '둘째 문단입니다.', '[photo: 호수]']);
    expect(filed.steps[0]?.src).toBe(imagesOf(data)[1]?.src);
    expect(sites.naver.uploads.slice(uploadsBefore).map((upload) => [upload.host, upload.size])).toEqual([
      ['blog.upphoto.naver.com', CAFE_PHOTOS[0]?.bytes.length],
      ['blog.upphoto.naver.com', lake.length],
    ]);

    // The second photo's upload fails: the first is taken out through the model, the title put back, read back.
    const before = await frameModel();
    sites.naver.photoAnswer = 'fail';
    sites.naver.photoAnswerFrom = sites.naver.uploads.length + 2;
    await inspect();
    const failed = refused(
      await act([
        { op: 'fill', field: 'title', text: '바뀐 제목' },
        { op: 'image', field: 'body', source: { ref, image: 'riverside-tea' }, alt: '찻집', after: '둘째 문단' },
        { op: 'image', field: 'body', source: { ref, image: 'market-stalls' }, alt: '장터 또' },
      ]),
      'invalid_request',
    );
    expect(failed.message).toMatch(/image did not go into "body".*earlier steps were undone/);
    expect(failed.details).not.toHaveProperty('leftOver');
    const after = await frameModel();
    expect([titleOf(after), bodyOrder(after), imagesOf(after).map((image) => image.src)]).toEqual([
      titleOf(before),
      bodyOrder(before),
      imagesOf(before).map((image) => image.src),
    ]);
    sites.naver.photoAnswer = 'good';
  },
);
