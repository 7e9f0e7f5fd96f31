/**
 * The WordPress block editor (Gutenberg: @wordpress/block-editor 18.0.0 with block-library
 * 11.1.0's core blocks, set up as the Block Editor Handbook's "Build your own block editor"
 * does; e2e/sites/client/editors/gutenberg.tsx), in real Chromium with the built extension.
 * What Tether writes is read back from the editor's own model: the blocks in its
 * `core/block-editor` store, through the page's data registry (`wp.data`) in the main world.
 *
 * An append of structure is refused before anything is written (tested below). A fill goes through
 * the store (its pasteHandler, then replaceBlocks): over a post of one block that is not focused, a
 * paste landed after the old text and its rollback left a leftover (docs/editors.md); the last
 * test here is that case, with the person's Ctrl+Z and a clean rollback. Photos through
 * its `mediaUpload` are in images.spec (with the other families), the person's Ctrl+Z of one
 * there too.
 */
import { expect, test } from './fixtures.ts';
import { ok, ran, refused } from './support/answers.ts';
import { editorScene, type EditorScene } from './support/editorScene.ts';

interface StoreBlock {
  name: string;
  attributes: Record<string, unknown>;
  innerBlocks: StoreBlock[];
}

/** The store's blocks (`core/block-editor` getBlocks), names, heading levels and text only. */
async function storeBlocks(scene: EditorScene): Promise<unknown[]> {
  return scene.page.evaluate(() => {
    const wp = (window as unknown as { wp: { data: { select(store: string): { getBlocks(): StoreBlock[] } } } }).wp;
    const text = (html: unknown) => new DOMParser().parseFromString(String(html ?? ''), 'text/html').body.textContent ?? '';
    const shape = (block: StoreBlock): unknown => ({
      name: block.name,
      ...(block.name === 'core/heading' ? { level: block.attributes.level } : {}),
      ...(block.attributes.ordered ? { ordered: true } : {}),
      ...(typeof block.attributes.content === 'object' || typeof block.attributes.content === 'string' ? { text: text(block.attributes.content) } : {}),
      ...(block.innerBlocks.length > 0 ? { inner: block.innerBlocks.map(shape) } : {}),
    });
    return wp.data.select('core/block-editor').getBlocks().map(shape);
  });
}

const POST = `## Ridge walk

Twelve **members** came, *early*, to [the north gate](https://cafe.example.com/gate).

- first peak
- second peak

1. Arrive
2. Climb

> Bring water.

##### Small print

Ask carol.`;

test('wordpress block editor: a markdown post lands as its own blocks (heading levels, lists, a quote, bold, italic, a link), read back from its store; plain text; an append of structure refused before it is written', async ({
  tether,
}) => {
  const scene = await editorScene(tether, 'wordpress-block-editor');
  const first = await scene.inspect();
  expect(first.fields?.map((field) => field.name)).toEqual(['title', 'body', 'tags']);
  // Its canvas stop ("Editor canvas", a role=button focus stop) and its toolbars are not actions.
  expect(first.actions).toEqual([{ name: 'publish', kind: 'publish' }]);

  // 1. A markdown fill: one paste, which its paste handler turns into blocks.
  const post = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: POST, format: 'markdown' }] })));
  expect(post.steps[0]).toMatchObject({ editor: 'wordpress-block-editor', verified: true, path: 'block-store', took: 'html' });
  expect(post.steps[0]?.kept).toEqual(expect.arrayContaining(['h2', 'strong', 'em', 'a', 'ul', 'ol', 'blockquote']));
  expect(await storeBlocks(scene)).toEqual([
    { name: 'core/heading', level: 2, text: 'Ridge walk' },
    { name: 'core/paragraph', text: 'Twelve members came, early, to the north gate.' },
    {
      name: 'core/list',
      inner: [
        { name: 'core/list-item', text: 'first peak' },
        { name: 'core/list-item', text: 'second peak' },
      ],
    },
    {
      name: 'core/list',
      ordered: true,
      inner: [
        { name: 'core/list-item', text: 'Arrive' },
        { name: 'core/list-item', text: 'Climb' },
      ],
    },
    { name: 'core/quote', inner: [{ name: 'core/paragraph', text: 'Bring water.' }] },
    // Tether's markdown has h2–h4 (structuredText.ts): ##### comes as h4, which core/heading keeps as level 4.
    { name: 'core/heading', level: 4, text: 'Small print' },
    { name: 'core/paragraph', text: 'Ask carol.' },
  ]);
  // Inline formats are the store's own (format-library: core/bold, core/italic, core/link).
  const html = (await scene.model()).html;
  expect(html).toContain('<strong>members</strong>');
  expect(html).toContain('<em>early</em>');
  expect(html).toContain('<a href="https://cafe.example.com/gate">the north gate</a>');

  // 2. Read back as markdown.
  const read = await scene.inspect(['body'], 'markdown');
  expect(read.text?.body).toContain('## Ridge walk');
  expect(read.text?.body).toMatch(/^- +first peak$/m);
  expect(read.text?.body).toContain('[the north gate](https://cafe.example.com/gate)');

  // 3. A fill over several blocks replaces them all: plain text, a paragraph block per line.
  await scene.inspect();
  const plain = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'First paragraph.\nSecond paragraph.' }] })));
  expect(plain.steps[0]).toMatchObject({ editor: 'wordpress-block-editor', verified: true });
  expect(await storeBlocks(scene)).toEqual([
    { name: 'core/paragraph', text: 'First paragraph.' },
    { name: 'core/paragraph', text: 'Second paragraph.' },
  ]);

  // 4. An append of structure: its paste at the caret would merge the first pasted block (the
  // heading) into the last paragraph. Refused before anything is written, saying what to do.
  await scene.inspect();
  const before = await storeBlocks(scene);
  const appended = refused(
    await scene.act({ steps: [{ op: 'append', field: 'body', text: '### Later\n\n- more news', format: 'markdown' }] }),
    'invalid_request',
  );
  expect(appended.message).toMatch(/does not keep h3, ul appended at the end of a post/);
  expect(appended.message).toMatch(/Fill the whole body instead/);
  expect(appended.details).toMatchObject({ editor: 'wordpress-block-editor' });
  expect(await storeBlocks(scene)).toEqual(before);

  // A plain paragraph appended is written (it has no block construct to lose).
  await scene.inspect();
  ran(ok(await scene.act({ steps: [{ op: 'append', field: 'body', text: 'Third paragraph.' }] })));
  expect((await storeBlocks(scene)).map((block) => (block as { text?: string }).text).join(' ')).toContain('Third paragraph.');
});

test('wordpress block editor: a fill over a post of one block that is not focused replaces it (read back from its store), the person’s Ctrl+Z brings the old text back, and a rollback leaves exactly what was there', async ({
  tether,
}) => {
  const scene = await editorScene(tether, 'wordpress-block-editor');
  await scene.inspect();
  ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Only paragraph.' }] })));
  expect(await storeBlocks(scene)).toEqual([{ name: 'core/paragraph', text: 'Only paragraph.' }]);
  // The person is in the title, not the block: the case where a paste's selection did not hold.
  await scene.page.bringToFront();
  await scene.page.locator('#title').click();

  // 1. The fill replaces the one block (before: "Only paragraph.Replaced text.").
  await scene.inspect();
  const filled = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Replaced text.' }] })));
  expect(filled.steps[0]).toMatchObject({ editor: 'wordpress-block-editor', path: 'block-store', verified: true });
  expect(await storeBlocks(scene)).toEqual([{ name: 'core/paragraph', text: 'Replaced text.' }]);

  // 2. The person's Ctrl+Z: one step back, the old text.
  await scene.page.locator('.is-root-container [contenteditable="true"]').first().click();
  await scene.page.keyboard.press('Control+z');
  await expect.poll(() => storeBlocks(scene)).toEqual([{ name: 'core/paragraph', text: 'Only paragraph.' }]);

  // 3. A plan that fails after the fill (the page rewrites the tags): the one block as it was, nothing left over.
  await scene.page.locator('#title').click();
  await scene.inspect();
  const rolled = refused(
    await scene.act({
      steps: [
        { op: 'fill', field: 'body', text: '## Replaced entirely\n\n- with a list', format: 'markdown' },
        { op: 'fill', field: 'tags', text: 'Market Spring' },
      ],
    }),
    'invalid_request',
  );
  expect(rolled.details).toMatchObject({ ran: [0, 1], rolledBack: [1, 0] });
  expect(rolled.details).not.toHaveProperty('leftOver');
  expect(await storeBlocks(scene)).toEqual([{ name: 'core/paragraph', text: 'Only paragraph.' }]);
});
