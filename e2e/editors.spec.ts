/**
 * Posts land in every editor family, with structure, through each editor's own model: CKEditor 5,
 * Lexical (rich and plain text), ProseMirror (TipTap), Slate, Draft.js, TinyMCE (iframe), Quill,
 * CodeMirror 6 (markdown source), Editor.js (blocks), Trix (a custom element), CKEditor 4 (an iframe with an element path), an editor typed into through a hidden input iframe (the
 * SmartEditor ONE pattern), a textarea, a contenteditable, a designMode iframe and a React
 * textarea. For each: a markdown post with every allowed construct (read back through the
 * editor's API in the page's main world), the post read back as markdown, a failure mid-plan that
 * restores the earlier steps with their formatting, plain text, field_changed after the person
 * typed, and the person's Ctrl+Z undoing Tether's write. The notes site has no adapter, so the
 * generic one finds the fields, and editor toolbars must not show up as actions.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { ok, ran, refused } from './support/answers.ts';
import { editorScene, structureOf, type EditorScene } from './support/editorScene.ts';

const POST = `## Market day

The spring market opens **Saturday** at *10am*. ~~Cancelled~~ Moved to the north gate.
Line one  
line two.

Read [the notice](https://cafe.example.com/notice) and use code \`TEA10\`.

- Tea stall
- Bakery

1. Arrive early
2. Bring a bag

> Volunteers meet at 9am.

### Details

\`\`\`
north gate, 9am
\`\`\`

#### Contact

Ask carol.`;

/** The post's text as a rich editor holds it, one block per line. */
const POST_TEXT = [
  'Market day',
  'The spring market opens Saturday at 10am. Cancelled Moved to the north gate. Line one',
  'line two.',
  'Read the notice and use code TEA10.',
  'Tea stall',
  'Bakery',
  'Arrive early',
  'Bring a bag',
  'Volunteers meet at 9am.',
  'Details',
  'north gate, 9am',
  'Contact',
  'Ask carol.',
];

/** Lines without blank ones or spacing differences: editors differ in both. */
function lines(text: string): string[] {
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}

interface Family {
  page: string;
  /** The page's query (a variant of its setup). */
  query?: string;
  editor: string;
  /** Where the person clicks to type. */
  surface(page: Page): Locator;
  /** The editor's model holds markup (false: markdown goes in as its source). */
  rich: boolean;
  /** The constructs of the post its schema has a place for (default: every one the other editors keep); the rest must be `dropped`. */
  keeps?: string[];
  /** The tags its own serialization then holds (default: those of every construct the other editors keep). */
  tags?: string[];
  /** The library has no undo history of its own (Editor.js 2.31): Ctrl+Z undoes nobody's paste, Tether's or the person's. */
  noUndo?: true;
}

const KEEPS = ['h2', 'h3', 'strong', 'em', 'a', 'ul', 'ol', 'blockquote', 'pre'];

const FAMILIES: Family[] = [
  { page: 'ckeditor5', editor: 'ckeditor5', rich: true, surface: (page) => page.locator('.ck-editor__editable') },
  { page: 'lexical', editor: 'lexical', rich: true, surface: (page) => page.locator('[data-lexical-editor]') },
  { page: 'lexical-plain', editor: 'lexical', rich: false, surface: (page) => page.locator('[data-lexical-editor]') },
  { page: 'prosemirror', editor: 'prosemirror', rich: true, surface: (page) => page.locator('.ProseMirror') },
  { page: 'slate', editor: 'slate', rich: true, surface: (page) => page.locator('[data-slate-editor]') },
  { page: 'draft', editor: 'draft', rich: true, surface: (page) => page.locator('.public-DraftEditor-content') },
  { page: 'tinymce', editor: 'tinymce', rich: true, surface: (page) => page.frameLocator('#editor iframe').locator('body') },
  { page: 'quill', editor: 'quill', rich: true, surface: (page) => page.locator('.ql-editor') },
  { page: 'codemirror', editor: 'codemirror', rich: false, surface: (page) => page.locator('.cm-content') },
  { page: 'input-buffer', editor: 'input-buffer', rich: true, surface: (page) => page.locator('.se-content') },
  {
    page: 'editorjs',
    editor: 'editorjs',
    rich: true,
    surface: (page) => page.locator('.ce-block [contenteditable="true"]').last(),
    // The header and list tools, and its inline bold, italic and link: no strike, code, quote or code block.
    keeps: ['h2', 'h3', 'h4', 'strong', 'em', 'a', 'ul', 'ol'],
    tags: ['h2', 'h3', 'h4', 'p', 'strong', 'em', 'a', 'ul', 'ol', 'li'],
    noUndo: true,
  },
  {
    // The same with @editorjs/image registered, as real sites do (its paste config claims <img> tags, image files and image URLs).
    page: 'editorjs',
    query: '?images',
    editor: 'editorjs',
    rich: true,
    surface: (page) => page.locator('.ce-block [contenteditable="true"]').last(),
    keeps: ['h2', 'h3', 'h4', 'strong', 'em', 'a', 'ul', 'ol'],
    tags: ['h2', 'h3', 'h4', 'p', 'strong', 'em', 'a', 'ul', 'ol', 'li'],
    noUndo: true,
  },
  {
    page: 'trix',
    editor: 'trix',
    rich: true,
    surface: (page) => page.locator('trix-editor'),
    // One heading level (h1: every heading lands there), no inline code, no line break inside a block.
    keeps: ['h2', 'h3', 'h4', 'strong', 'em', 's', 'a', 'ul', 'ol', 'blockquote', 'pre', 'br'],
    tags: ['h1', 'strong', 'em', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'pre'],
  },
  {
    page: 'wordpress-block-editor',
    editor: 'wordpress-block-editor',
    rich: true,
    surface: (page) => page.locator('.is-root-container [contenteditable="true"]').last(),
  },
  { page: 'ckeditor4', editor: 'ckeditor4', rich: true, surface: (page) => page.frameLocator('#editor iframe').locator('body') },
  { page: 'textarea', editor: 'textarea', rich: false, surface: (page) => page.locator('#editor textarea') },
  { page: 'react', editor: 'textarea', rich: false, surface: (page) => page.locator('#body') },
  { page: 'contenteditable', editor: 'contenteditable', rich: true, surface: (page) => page.locator('#editor [contenteditable]') },
  { page: 'iframe', editor: 'designmode', rich: true, surface: (page) => page.frameLocator('#editor iframe').locator('body') },
];

async function modelLines(scene: EditorScene): Promise<string[]> {
  return lines((await scene.model()).text);
}

for (const family of FAMILIES) {
  test(`${family.page}${family.query ?? ''}: a markdown post, read back as markdown, rollback, plain text, field_changed and the person's undo, through the editor's own model`, async ({
    tether,
  }) => {
    const scene = await editorScene(tether, family.page, family.query);
    const first = await scene.inspect();
    // The notes site has no adapter: the generic page model read it (the journal says which).
    const [looked] = await tether.must({ type: 'journal.list', limit: 1 });
    expect(looked?.observation).toMatchObject({ adapter: 'generic' });
    expect(first.fields?.map((field) => field.name)).toEqual(['title', 'body', 'tags']);
    // Editor toolbars (bold, lists, links…) are formatting, not actions. (The label "Publish" says no more than the name.)
    expect(first.actions).toEqual([{ name: 'publish', kind: 'publish' }]);

    // 1. A post with headings, paragraphs, lists, a link, formatting and code.
    const post = ran(
      ok(
        await scene.act({
          steps: [
            { op: 'fill', field: 'title', text: 'Market day' },
            { op: 'fill', field: 'body', text: POST, format: 'markdown' },
          ],
        }),
      ),
    );
    const body = post.steps[1];
    if (!body) throw new Error('no body step in the answer');
    // Step 1 of the plan (its field, body, is the plan's to say).
    expect(body).toMatchObject({ step: 1, editor: family.editor, verified: true });
    expect(body.path).toBeTruthy();
    const written = await scene.model();
    if (family.rich) {
      expect(body.took).toBe('html');
      expect(body.kept).toEqual(expect.arrayContaining(family.keeps ?? KEEPS));
      expect([...(body.kept ?? []), ...(body.dropped ?? [])].sort()).toEqual([
        'a',
        'blockquote',
        'br',
        'code',
        'em',
        'h2',
        'h3',
        'h4',
        'ol',
        'pre',
        's',
        'strong',
        'ul',
      ]);
      const structure = await structureOf(scene.page, written.html);
      expect(structure.tags).toEqual(expect.arrayContaining(family.tags ?? ['h2', 'h3', 'p', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'blockquote', 'pre']));
      expect(structure.links).toEqual(['https://cafe.example.com/notice']);
      expect(lines(written.text).join(' ')).toBe(POST_TEXT.join(' '));
    } else {
      expect(body.took).toBe('text');
      expect(lines(written.text)).toEqual(lines(POST));
    }
    expect(await scene.page.locator('#title').inputValue()).toBe('Market day');

    // 2. The post read back as markdown: headings, lists and links kept.
    const read = await scene.inspect(['body'], 'markdown');
    const markdown = read.text?.body ?? '';
    expect(markdown).toContain('## Market day');
    expect(markdown).toMatch(/^- +Tea stall$/m);
    expect(markdown).toMatch(/^1\. +Arrive early$/m);
    expect(markdown).toContain('[the notice](https://cafe.example.com/notice)');

    // 3. A step fails half-way (the page rewrites the tags): every earlier step is undone, formatting included.
    const before = await scene.model();
    const rolled = refused(
      await scene.act({
        steps: [
          { op: 'fill', field: 'title', text: 'Other title' },
          { op: 'fill', field: 'body', text: 'Replaced entirely.' },
          { op: 'fill', field: 'tags', text: 'Market Spring' },
        ],
      }),
      'invalid_request',
    );
    expect(rolled.details).toMatchObject({ ran: [0, 1, 2], rolledBack: [2, 1, 0] });
    const restored = await scene.model();
    expect(lines(restored.text)).toEqual(lines(before.text));
    if (family.rich) expect((await structureOf(scene.page, restored.html)).tags).toEqual((await structureOf(scene.page, before.html)).tags);
    expect(await scene.page.locator('#title').inputValue()).toBe('Market day');

    // 4. Plain text: one paragraph per line.
    await scene.inspect();
    const plain = ran(ok(await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'First paragraph.\nSecond paragraph.' }] })));
    expect(plain.steps[0]).toMatchObject({ editor: family.editor, verified: true });
    expect(await modelLines(scene)).toEqual(['First paragraph.', 'Second paragraph.']);

    // 5. The person types after inspect: field_changed, and their text stays.
    await scene.inspect();
    await scene.page.bringToFront();
    await family.surface(scene.page).click();
    await scene.page.keyboard.press('End');
    await scene.page.keyboard.type(' Mine');
    await expect.poll(async () => (await modelLines(scene)).join(' ')).toContain('Mine');
    const theirs = await scene.model();
    await expect
      .poll(async () => {
        const answer = await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Agent words.' }], continueDraft: true });
        return answer.ok ? 'ok' : answer.error.code;
      })
      .toBe('field_changed');
    expect((await scene.model()).text).toBe(theirs.text);

    // 6. Tether writes over the person's text (they said so); their Ctrl+Z brings it back.
    await scene.inspect();
    await expect
      .poll(async () => {
        const answer = await scene.act({ steps: [{ op: 'fill', field: 'body', text: 'Agent words.' }], continueDraft: true });
        return answer.ok ? 'ok' : answer.error.code;
      })
      .toBe('ok');
    expect(await modelLines(scene)).toEqual(['Agent words.']);
    await family.surface(scene.page).click();
    await scene.page.keyboard.press('Control+z');
    if (family.noUndo) {
      // The library keeps no history a person's Ctrl+Z could undo a paste with: what was written stays.
      await expect.poll(async () => modelLines(scene)).toEqual(['Agent words.']);
      return;
    }
    await expect.poll(async () => modelLines(scene)).toEqual(lines(theirs.text));
  });
}
