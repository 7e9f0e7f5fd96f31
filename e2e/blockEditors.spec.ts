/**
 * Never a false "verified" (issue 24, items 1 and 4): a write is verified against what the
 * editor's model keeps, not against what the page shows. Editor.js keeps a list of blocks; markup
 * that lands inside one block's contenteditable is shown as headings and lists but saved as that
 * block's text, run together — the case the issue saw answered `verified: true`. Headings land at
 * the levels an editor keeps (Trix has one, h1; CKEditor 4's standard preset has h1–h3).
 */
import { expect, test } from './fixtures.ts';
import type { ActStep } from '../shared/agent/results.ts';
import { ok, ran, refused } from './support/answers.ts';
import { editorScene, type EditorScene } from './support/editorScene.ts';

/** The post: a heading, a paragraph with bold and a link, a two-item list. */
const POST = `## Ridge walk

Twelve **members** came to the [north gate](https://walks.example.com/north).

- first peak
- second peak`;

interface SavedBlock {
  type: string;
  data: { text?: string; level?: number; style?: string; items?: Array<{ content: string }> };
}

/** Editor.js's saved model (`save()`), read in the page's main world by the test page's own code. */
async function savedBlocks(scene: EditorScene): Promise<SavedBlock[]> {
  const json = await scene.page.evaluate(async () => {
    const api = (window as unknown as { editorApi: { model?: () => Promise<string> } }).editorApi;
    return api.model ? api.model() : '[]';
  });
  return JSON.parse(json) as SavedBlock[];
}

test('Editor.js: a markdown fill lands as a header, a paragraph and a list block, as a person’s paste does, verified against the saved model', async ({
  tether,
}) => {
  const scene = await editorScene(tether, 'editorjs');
  await scene.inspect();
  const result = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: POST, format: 'markdown' }] })));
  expect(result.steps[0] as ActStep).toMatchObject({
    editor: 'editorjs',
    path: 'paste',
    took: 'html',
    verified: true,
    kept: ['h2', 'strong', 'a', 'ul'],
    dropped: [],
  });
  const blocks = await savedBlocks(scene);
  expect(blocks.map((block) => block.type)).toEqual(['header', 'paragraph', 'list']);
  expect(blocks[0]?.data).toMatchObject({ text: 'Ridge walk', level: 2 });
  expect(blocks[1]?.data.text).toBe('Twelve <b>members</b> came to the <a href="https://walks.example.com/north">north gate</a>.');
  expect(blocks[2]?.data).toMatchObject({ style: 'unordered', items: [{ content: 'first peak' }, { content: 'second peak' }] });
});

test('Editor.js whose paragraph leaves a paste to the browser: the markup lands inside one block, so the step is not verified, says why, and is rolled back', async ({
  tether,
}) => {
  const scene = await editorScene(tether, 'editorjs', '?paste=native');
  await scene.inspect();
  const before = await savedBlocks(scene);
  const error = refused(
    await scene.act({
      steps: [
        { op: 'fill', field: 'title', text: 'Ridge walk' },
        { op: 'fill', field: 'body', text: POST, format: 'markdown' },
      ],
    }),
    'invalid_request',
  );
  // The page showed a heading and a list inside the paragraph block; its model keeps them as that block's text, run together.
  expect(error.message).toContain('Step 2: the page did not keep the text written to "body"');
  expect(error.details).toMatchObject({ editor: 'editorjs', ran: [0, 1], rolledBack: [1, 0] });
  expect(String(error.details?.why)).toContain('inside one block');
  expect(error.message).toContain('inside one block');
  expect(error.details?.tried).toEqual(['paste', 'insertHTML']);
  // Rolled back: the saved model is what it was, and so is the title.
  expect(await savedBlocks(scene)).toEqual(before);
  expect(await scene.page.locator('#title').inputValue()).toBe('');
});

test('headings land at the levels the editor keeps: every level is h1 in Trix, h4 is h3 in CKEditor 4; only what has no place is dropped', async ({
  tether,
}) => {
  const markdown = '## Top\n\nText.\n\n### Middle\n\n#### Low';
  const trix = await editorScene(tether, 'trix');
  await trix.inspect();
  const inTrix = ran(ok(await trix.act({ steps: [{ op: 'fill', field: 'body', text: markdown, format: 'markdown' }] })));
  expect(inTrix.steps[0] as ActStep).toMatchObject({ editor: 'trix', verified: true, kept: ['h2', 'h3', 'h4'], dropped: [] });
  const trixHtml = (await trix.model()).html;
  expect(trixHtml).toContain('<h1>Top</h1>');
  expect(trixHtml).toContain('<h1>Middle</h1>');
  expect(trixHtml).toContain('<h1>Low</h1>');

  const ck4 = await editorScene(tether, 'ckeditor4');
  await ck4.inspect();
  const inCk4 = ran(ok(await ck4.act({ steps: [{ op: 'fill', field: 'body', text: markdown, format: 'markdown' }] })));
  expect(inCk4.steps[0] as ActStep).toMatchObject({ editor: 'ckeditor4', verified: true, kept: ['h2', 'h3', 'h4'], dropped: [] });
  const ck4Html = (await ck4.model()).html;
  expect(ck4Html).toMatch(/<h2>Top<\/h2>/);
  expect(ck4Html).toMatch(/<h3>Middle<\/h3>/);
  expect(ck4Html).toMatch(/<h3>Low<\/h3>/);
});
