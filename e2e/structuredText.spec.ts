/**
 * Markdown and HTML at the edges: what an editor cannot hold is reported as dropped, hostile HTML
 * is sanitized (and never runs), bad formats and oversized text are refused before anything is
 * written, appended markup starts a new block, and an editor Tether cannot drive is refused with
 * the family it saw and the paths it tried, the page unchanged.
 */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import type { ActStep } from '../shared/agent/results.ts';
import { ok, ran, refused } from './support/answers.ts';
import { blogScene } from './support/blogFlow.ts';
import { editorScene, structureOf } from './support/editorScene.ts';
import { DIST } from './support/launchTether.ts';

type Step = ActStep;

const POST = `## Market day

Opens **Saturday** by the river.

- Tea stall
- Bakery

See [the notice](https://cafe.example.com/notice).`;

test('CKEditor 5 with only paragraphs, bold and italic: the post lands as text, and what it cannot hold is listed as dropped', async ({ tether }) => {
  const scene = await editorScene(tether, 'ckeditor5', '?minimal');
  await scene.inspect();
  const result = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: POST, format: 'markdown' }] })));
  const step = result.steps[0] as Step;
  expect(step).toMatchObject({ editor: 'ckeditor5', path: 'paste', took: 'html', verified: true, kept: ['strong'] });
  expect(step.dropped).toEqual(expect.arrayContaining(['h2', 'ul', 'a']));
  const data = await scene.page.evaluate(() => (window as unknown as { ckeditor: { getData(): string } }).ckeditor.getData());
  expect((await structureOf(scene.page, data)).tags).toEqual(['p', 'strong']);
  expect(data).toContain('Market day');
  expect(data).toContain('Bakery');
});

test('hostile HTML is sanitized: scripts, styles, handlers, javascript:/data: links and iframes are dropped and never run', async ({ tether }) => {
  const hostile = `<p onclick="window.__pwned='onclick'">Hello <strong>there</strong> <a href="javascript:window.__pwned='link'">click</a> <a href="data:text/html,<script>alert(1)</script>">data</a></p>
<script>window.__pwned = 'script'</script><style>body { display: none }</style>
<iframe src="javascript:parent.__pwned='iframe'"></iframe><img src="/nope.png" onerror="window.__pwned='img'">
<h2 onmouseover="window.__pwned='h2'">Safe heading</h2>`;
  for (const family of ['contenteditable', 'prosemirror', 'ckeditor5']) {
    const scene = await editorScene(tether, family);
    await scene.inspect();
    const result = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: hostile, format: 'html' }] })));
    const step = result.steps[0] as Step;
    expect(step.kept).toEqual(expect.arrayContaining(['strong', 'h2']));
    expect(step.dropped).toEqual(expect.arrayContaining(['onclick', 'javascript: URL', 'data: URL', 'script', 'style', 'iframe', 'img', 'onmouseover']));
    const held = await scene.page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
      dangerous: document.querySelectorAll(
        '#editor script, #editor style, #editor iframe, #editor img, #editor [onclick], #editor [onerror], #editor a[href^="javascript"]',
      ).length,
      links: Array.from(document.querySelectorAll('#editor a')).map((link) => link.getAttribute('href')),
      text: (window as unknown as { editorApi: { text(): string } }).editorApi.text(),
    }));
    expect(held).toMatchObject({ pwned: null, dangerous: 0, links: [] });
    expect(held.text).toContain('Safe heading');
    await scene.page.close();
  }
});

test('bad input is refused before anything is written: an unknown format names the allowed ones; oversized markdown; an unknown readAs', async ({ tether }) => {
  const scene = await editorScene(tether, 'lexical');
  await scene.inspect();
  const format = refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'x', format: 'rtf' }] }), 'invalid_request');
  const said = JSON.stringify(format);
  for (const allowed of ['text', 'markdown', 'html']) expect(said).toContain(`"${allowed}"`.replace(/"/g, '\\"'));
  refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'x'.repeat(200_001), format: 'markdown' }] }), 'invalid_request');
  // Under the plan's limit as markdown, over it once converted to HTML.
  const expands = refused(await scene.act({ steps: [{ op: 'fill', field: 'body', text: '* a\n'.repeat(49_000), format: 'markdown' }] }), 'invalid_request');
  expect(expands.message).toContain('too large');
  const readAs = refused(
    await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.handle, read: ['body'], readAs: 'html' }),
    'invalid_request',
  );
  expect(JSON.stringify(readAs)).toContain('markdown');
  expect((await scene.model()).text).toBe('');
});

test('appended markdown starts a new block after what the editor holds', async ({ tether }) => {
  const scene = await editorScene(tether, 'lexical');
  await scene.inspect();
  ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Intro line.' }] }));
  await scene.inspect();
  const result = ran(ok(await scene.act({ steps: [{ op: 'append', field: 'body', text: '## More\n\n- one\n- two', format: 'markdown' }] })));
  expect(result.steps[0] as Step).toMatchObject({ took: 'html', kept: ['h2', 'ul'], dropped: [] });
  const model = await scene.model();
  expect(model.text.split('\n').filter(Boolean)).toEqual(['Intro line.', 'More', 'one', 'two']);
  expect((await structureOf(scene.page, model.html)).tags).toEqual(expect.arrayContaining(['p', 'h2', 'ul', 'li']));
});

test('an editor that takes no edit Tether can make is refused with the family it saw and the paths it tried; the page is unchanged', async ({ tether }) => {
  const scene = await editorScene(tether, 'locked');
  await scene.inspect();
  const before = await scene.model();
  const refusal = refused(
    await scene.act({
      steps: [
        { op: 'fill', field: 'title', text: 'A title' },
        { op: 'fill', field: 'body', text: 'Agent text' },
      ],
    }),
    'invalid_request',
  );
  expect(refusal.details).toMatchObject({ editor: 'contenteditable', tried: ['insertHTML', 'execCommand', 'paste'], rolledBack: [1, 0] });
  expect(refusal.message).toContain('contenteditable');
  expect(await scene.model()).toEqual(before);
  expect(await scene.page.locator('#title').inputValue()).toBe('');
});

test('the content script every page loads is at most 10 KB gzipped; the act module is separate and not web-accessible', () => {
  const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8')) as {
    content_scripts: Array<{ js: string[] }>;
    web_accessible_resources?: unknown;
  };
  expect(manifest.content_scripts.flatMap((script) => script.js)).toEqual(['content.js']);
  expect(gzipSync(readFileSync(join(DIST, 'content.js')), { level: 9 }).length).toBeLessThanOrEqual(10 * 1024);
  expect(readFileSync(join(DIST, 'content-act.js')).length).toBeGreaterThan(0);
  expect(manifest.web_accessible_resources).toBeUndefined();
});

test('a reference page’s region reads as markdown: one paragraph per block', async ({ tether }) => {
  const scene = await blogScene(tether);
  const read = ok(
    await tether.agent('inspect', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.reference,
      read: ['post.title', 'post.body'],
      readAs: 'markdown',
    }),
  );
  expect(read.text?.['post.title']).toBe('Weekly notes: spring market');
  expect(read.text?.['post.body']).toBe(
    'The spring market opens Saturday at 10am by the river.\n\nBring your own cup: the tea stall gives a discount.\n\nVolunteers meet at the north gate at 9am.',
  );
});
