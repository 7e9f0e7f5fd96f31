/**
 * The page model's reading, pinned in real Chromium (visibility needs real layout and styles): the
 * content script's reading code, bundled with esbuild, runs in pages served from the demo blog's
 * host, where the demo blog adapter claims them. Which candidates count as visible fields (hidden
 * attribute, display:none ancestor, visibility:hidden, zero size, type=hidden), and what the
 * adapter's check against the generic model adds, whichever path that check takes.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM } from './support/launchTether.ts';

const here = dirname(fileURLToPath(import.meta.url));

interface ReadField {
  name: string;
  label: string;
  kind: string;
  located: string;
}
interface Reading {
  adapterId: string;
  adapterProblem: string | null;
  fields: ReadField[];
  actions: Array<{ name: string; repeated?: number }>;
}

const ENTRY = `
import { readSitePage } from './content/sites/siteReader.ts';
import { inferred } from './content/pageModel.ts';
const describe = (element: Element) => element.id || element.getAttribute('name') || element.tagName.toLowerCase();
(globalThis as unknown as { readModel: () => unknown }).readModel = () => {
  const model = readSitePage(document) ?? inferred(document);
  return {
    adapterId: model.adapterId,
    adapterProblem: model.adapterProblem ?? null,
    fields: model.fields.map((field) => ({ name: field.name, label: field.label, kind: field.editable.kind, located: describe(field.located) })),
    actions: model.actions.map((action) => (action.repeated === undefined ? { name: action.name } : { name: action.name, repeated: action.repeated })),
  };
};`;

let browser: Browser;
let reader: string;

test.beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: join(here, '..'), loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    define: { __TETHER_TEST_SITES__: 'true' },
  });
  reader = bundle.outputFiles[0]?.text ?? '';
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
});

test.afterAll(async () => {
  await browser.close();
});

/** The model of a page on the demo blog's host (claimed by its adapter) or on a host no adapter claims. */
async function readingOf(host: 'blog.localhost' | 'plain.localhost', body: string): Promise<Reading> {
  const page: Page = await browser.newPage();
  await page.route('**/*', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>` }),
  );
  await page.goto(`http://${host}/write`);
  await page.addScriptTag({ content: reader });
  const reading = await page.evaluate(() => (globalThis as unknown as { readModel: () => Reading }).readModel());
  await page.close();
  return reading;
}

/** Candidates that are not fields: none of these is visible (or a text field at all). */
const NOT_FIELDS = `
<input name="secret" type="hidden" value="x">
<input name="hidden-attr" hidden>
<div style="display:none"><input name="in-display-none"></div>
<input name="invisible" style="visibility:hidden">
<input name="zero-size" style="width:0;height:0;padding:0;border:0">
<input type="radio" name="choice"><input type="checkbox" name="agree">`;
/** Edge cases that are visible: shown again inside a visibility:hidden box, and zero wide but not zero high. */
const HIDDEN_ONES = `${NOT_FIELDS}
<div style="visibility:hidden"><input name="in-invisible" style="visibility:visible"></div>
<input name="thin" style="width:0;height:20px;padding:0;border:0">`;

test('generic reading: hidden attribute, display:none ancestor, visibility:hidden, zero size and type=hidden are not fields; a re-shown or thin one is', async () => {
  const reading = await readingOf(
    'plain.localhost',
    `<label for="headline">Headline</label><input id="headline" name="headline"><textarea name="story"></textarea>${HIDDEN_ONES}`,
  );
  expect(reading.adapterId).toBe('generic');
  expect(reading.fields).toEqual([
    { name: 'body', label: 'story', kind: 'textarea', located: 'story' },
    { name: 'headline', label: 'Headline', kind: 'input', located: 'headline' },
    { name: 'in_invisible', label: 'in-invisible', kind: 'input', located: 'in-invisible' },
    { name: 'thin', label: 'thin', kind: 'input', located: 'thin' },
  ]);
});

test('the demo blog adapter on its own editor, with invisible candidates beside it: its fields stand, nothing added', async () => {
  const reading = await readingOf(
    'blog.localhost',
    `<input id="post-title"><textarea id="post-body"></textarea><select id="post-category"><option>a</option></select><input id="post-tags">${NOT_FIELDS}`,
  );
  expect({ ...reading, actions: [] }).toEqual({
    adapterId: 'test-blog',
    adapterProblem: null,
    actions: [],
    fields: [
      { name: 'title', label: 'Post title', kind: 'input', located: 'post-title' },
      { name: 'body', label: 'Post body', kind: 'textarea', located: 'post-body' },
      { name: 'category', label: 'Category', kind: 'select', located: 'post-category' },
      { name: 'tags', label: 'Tags', kind: 'input', located: 'post-tags' },
    ],
  });
});

test('an adapter field hidden on the page still covers its editor; a visible field it does not name is added by the generic model, a hidden one is not', async () => {
  const reading = await readingOf(
    'blog.localhost',
    `<input id="post-title" style="display:none"><div id="post-body"><textarea name="inner"></textarea></div><input name="summary" placeholder="Summary"><input name="draft-note" hidden>`,
  );
  expect(reading.adapterId).toBe('test-blog');
  expect(reading.adapterProblem).toBe(
    'The test-blog adapter (checked 2026-11-30) does not name a field on this page (summary); the generic page model added it. Not found here: category, tags.',
  );
  expect(reading.fields).toEqual([
    { name: 'title', label: 'Post title', kind: 'input', located: 'post-title' },
    { name: 'body', label: 'Post body', kind: 'textarea', located: 'post-body' },
    { name: 'summary', label: 'Summary', kind: 'input', located: 'summary' },
  ]);
});

test('a page the adapter claims but finds none of its fields on is read by the generic model, hidden candidates left out', async () => {
  const reading = await readingOf(
    'blog.localhost',
    `<input name="headline" placeholder="Story title"><div contenteditable="true" aria-label="Story" style="min-height:40px"></div>${HIDDEN_ONES}`,
  );
  expect(reading.adapterId).toBe('generic');
  expect(reading.fields.map((field) => [field.name, field.kind])).toEqual([
    ['title', 'input'],
    ['body', 'contenteditable'],
    ['in_invisible', 'input'],
    ['thin', 'input'],
  ]);
});

/** Inputs a person cannot reach, each hidden one way only (reachable.ts), beside ones they can. */
const UNREACHABLE = `
<div aria-hidden="true"><div><input name="in-aria-hidden"></div></div>
<input name="aria-hidden-itself" aria-hidden="true">
<div inert><div><input name="in-inert"></div></div>
<div style="opacity:0"><div><input name="in-transparent" placeholder="Search tools"></div></div>
<input name="transparent" style="opacity:0">
<input name="left-of-page" style="position:absolute;left:-10000px">
<input name="above-page" style="position:absolute;top:-10000px">
<input name="one-pixel" style="width:1px;height:1px;padding:0;border:0">
<input name="untabbable" tabindex="-1">`;
const REACHABLE = `
<input name="labelled-untabbable" tabindex="-1" aria-label="Note">
<label>Wrapped <input name="wrapped-untabbable" tabindex="-1"></label>
<input name="partly-left" style="position:relative;left:-50px;width:200px">
<div style="opacity:0.5"><input name="half-transparent"></div>
<div aria-hidden="false"><input name="aria-hidden-false"></div>`;

test('generic reading: inputs a person cannot reach (aria-hidden or inert on it or an ancestor, opacity:0, off-screen, 1 px, tabindex=-1 without a label) are not fields', async () => {
  const reading = await readingOf('plain.localhost', `<textarea name="story"></textarea>${UNREACHABLE}${REACHABLE}`);
  expect(reading.fields.map((field) => field.located)).toEqual([
    'story',
    'labelled-untabbable',
    'wrapped-untabbable',
    'partly-left',
    'half-transparent',
    'aria-hidden-false',
  ]);
});

/**
 * A page's own buttons beside an editor's chrome (editorChrome.ts) — a link away and a form's
 * submit stay actions inside the editor's bar or beside a text area — and comments with repeated
 * controls.
 */
const CHROME = `
<header><button>Publish</button><button>Body</button></header>
<nav><button>Images</button></nav>
<div class="editor">
  <div class="row"><button type="button">Bold</button><button type="button" aria-label="기울임꼴">𝐼</button><button type="button">format_list_bulleted</button></div>
  <div class="editor-toolbar"><button type="button">Decrease level</button><button type="button">Save</button><a role="button" href="http://elsewhere.localhost/guide">Guide</a></div>
  <div contenteditable="true" style="min-height:80px" aria-label="Story"></div>
  <div class="foot"><span role="button">body</span> › <span role="button">h2</span></div>
</div>
<form><textarea name="q" aria-label="Search"></textarea><button>Code</button></form>
<ol>${Array.from({ length: 40 }, (_, index) => `<li>Comment ${index}<button>Reply</button><button>Like ${index}</button></li>`).join('')}</ol>
<button>Post comment</button>`;

test('generic actions: editor chrome beside the editor is left out, the page’s own buttons stay, repeated ones are listed once with a count, and no action takes a field’s name', async () => {
  const reading = await readingOf('plain.localhost', CHROME);
  expect(reading.fields.map((field) => field.name)).toEqual(['body', 'q']);
  expect(reading.actions).toEqual([
    { name: 'publish' },
    { name: 'body_2' },
    { name: 'images' },
    { name: 'save' },
    { name: 'guide' },
    { name: 'code' },
    { name: 'reply', repeated: 39 },
    { name: 'like_0', repeated: 39 },
    { name: 'post_comment' },
  ]);
});
