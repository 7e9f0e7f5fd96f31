/**
 * What inspect lists as fields and actions, on generated pages, through the built extension in
 * real Chromium (issues 24 and 29): editor chrome — toolbars with and without roles, named by
 * class or by tag or not at all, labelled in English or Korean, by text, aria-label, title or icon
 * ligature, element-path bars — is never an action, while the page's own buttons (publish, save,
 * a form's submit, a link away) always are; inputs a person cannot see or reach (a focus trap at
 * −10000 px, a toolbox search box in an opacity:0 panel, nested aria-hidden, inert and
 * visibility:hidden panels, a 1 px box, tabindex=-1 without a label) are never fields; repeated
 * controls are listed once with how many more there are; and a reference answer has no controls.
 *
 * The pages are generated: a table that crosses every kind of bar with both languages, then
 * pages fast-check draws (fixed seed) from the same parts.
 */
import type { Page } from '@playwright/test';
import fc from 'fast-check';
import type { InspectResult } from '../shared/agent/results.ts';
import { expect, test } from './fixtures.ts';
import { ok } from './support/answers.ts';
import type { TetherDriver } from './support/tetherDriver.ts';

const ORIGIN = 'http://gen.localhost';

type Bar = 'role' | 'class' | 'tag' | 'none';
type Style = 'text' | 'aria' | 'title' | 'ligature' | 'anchor';
type Surface = 'contenteditable' | 'textarea' | 'iframe';
type PathBar = 'statusbar' | 'plain' | 'none';
type Place = 'before' | 'after' | 'nested';

interface Spec {
  surface: Surface;
  bar: Bar;
  lang: 'en' | 'ko';
  style: Style;
  place: Place;
  path: PathBar;
  /** Publish sits in the editor's toolbar (a bar with a name or a role) rather than in the page's header. */
  publishInBar: boolean;
  comments: number;
}

/** Toolbar buttons: [English, Korean, icon ligature (Material Symbols names)]. */
const TOOLS: Array<[string, string, string]> = [
  ['Bold', '굵게', 'format_bold'],
  ['Italic', '기울임꼴', 'format_italic'],
  ['Heading 2', '제목 2', 'format_h2'],
  ['Bulleted list', '글머리 기호 목록', 'format_list_bulleted'],
  ['Numbered list', '번호 매기기', 'format_list_numbered'],
  ['Insert link', '링크 삽입', 'link'],
  ['Quote', '인용구', 'format_quote'],
  ['Code block', '코드 블록', 'code'],
  ['Indent', '들여쓰기', 'format_indent_increase'],
  ['Undo', '실행 취소', 'undo'],
  ['Redo', '다시 실행', 'redo'],
  ['Insert table', '표', 'table_chart'],
  ['Insert image', '사진', 'image'],
  ['Attach files', '파일 첨부', 'attach_file'],
];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function tool(label: string, ligature: string, style: Style): string {
  switch (style) {
    case 'text':
      return `<button type="button">${label}</button>`;
    case 'aria':
      return `<button type="button" aria-label="${escape(label)}"><svg width="16" height="16"><rect width="16" height="16"/></svg></button>`;
    case 'title':
      return `<button type="button" title="${escape(label)}">▪</button>`;
    case 'ligature':
      return `<button type="button" class="icon"><span class="material-symbols">${ligature}</span></button>`;
    case 'anchor':
      return `<a role="button" href="javascript:void(0)" title="${escape(label)}">${label}</a>`;
  }
}

function toolbar(spec: Spec): string {
  const buttons = TOOLS.map(([en, ko, ligature]) => tool(spec.lang === 'en' ? en : ko, ligature, spec.style));
  // A control whose words say nothing of the text: chrome only by the bar it is in.
  if (spec.bar !== 'none') buttons.push(`<button type="button">${spec.lang === 'en' ? 'Decrease level' : '수준 낮추기'}</button>`);
  if (spec.publishInBar && spec.bar !== 'none') buttons.push(`<button type="button">${spec.lang === 'en' ? 'Publish' : '발행'}</button>`);
  const inner = buttons.join('');
  switch (spec.bar) {
    case 'role':
      return `<div role="toolbar" aria-label="Formatting">${inner}</div>`;
    case 'class':
      return `<div class="editor-toolbar">${inner}</div>`;
    case 'tag':
      return `<x-editor-toolbar>${inner}</x-editor-toolbar>`;
    case 'none':
      return `<div class="row">${inner}</div>`;
  }
}

function surface(spec: Spec): string {
  switch (spec.surface) {
    case 'contenteditable':
      return '<div class="area" contenteditable="true" aria-label="Story" style="min-height:120px"></div>';
    case 'textarea':
      return '<textarea name="story" rows="8" cols="60" aria-label="Story"></textarea>';
    case 'iframe':
      return `<iframe title="Story" style="width:500px;height:150px" srcdoc="${escape('<!doctype html><body contenteditable="true"><p></p></body>')}"></iframe>`;
  }
}

function pathBar(spec: Spec): string {
  const crumb = (name: string) =>
    spec.path === 'statusbar' ? `<span role="button">${name}</span>` : `<a role="button" href="javascript:void(0)" title="${name} element">${name}</a>`;
  const crumbs = ['body', 'h2'].map(crumb).join(' › ');
  switch (spec.path) {
    case 'statusbar':
      return `<div class="editor-statusbar">${crumbs}</div>`;
    case 'plain':
      return `<div class="foot">${crumbs}</div>`;
    case 'none':
      return '';
  }
}

/** Inputs an editor keeps for itself: none of them is a field. Each is hidden one way only. */
const INTERNAL_INPUTS = [
  // A focus trap, as editors place them.
  '<input name="ed_1_focus_temp" aria-hidden="true" tabindex="-1" style="position:absolute;left:-10000px;top:0">',
  // A toolbox's search box in a panel at opacity 0.
  '<div class="toolbox" style="opacity:0"><div class="inner"><input name="x_opacity" placeholder="Search tools"></div></div>',
  '<div aria-hidden="true"><div><div><input name="x_aria_hidden" placeholder="Find"></div></div></div>',
  '<div inert><div><input name="x_inert" placeholder="Find"></div></div>',
  '<div style="visibility:hidden"><div><input name="x_visibility" placeholder="Find"></div></div>',
  '<input name="x_offscreen" placeholder="Find" style="position:absolute;left:-10000px;top:40px">',
  '<input name="x_above" placeholder="Find" style="position:absolute;top:-5000px">',
  '<input name="x_tiny" style="width:1px;height:1px;padding:0;border:0">',
  '<input name="x_untabbable" tabindex="-1">',
].join('');

function editor(spec: Spec): string {
  const parts = [toolbar(spec), `<div class="main">${surface(spec)}</div>`, pathBar(spec), INTERNAL_INPUTS];
  switch (spec.place) {
    case 'before':
      return `<div class="ed">${parts.join('')}</div>`;
    case 'after':
      return `<div class="ed">${[parts[1], parts[0], parts[2], parts[3]].join('')}</div>`;
    case 'nested':
      // The toolbar four levels down, the surface three: still one editor's container.
      return `<div class="ed"><div class="top"><div class="bar-wrap"><div class="group">${parts[0]}</div></div></div><div class="body"><div class="scroll">${parts[1]}</div></div>${parts[2]}${parts[3]}</div>`;
  }
}

function comments(count: number): string {
  if (count === 0) return '';
  const items = Array.from({ length: count }, (_, index) => `<li><p>Comment ${index + 1}</p><button>Reply</button><button>Like ${index + 1}</button></li>`);
  return `<section class="comments"><ol>${items.join('')}</ol></section>`;
}

function html(spec: Spec): string {
  const publish = spec.publishInBar && spec.bar !== 'none' ? '' : `<button>${spec.lang === 'en' ? 'Publish' : '발행'}</button>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Generated</title></head><body>
<header><button>${spec.lang === 'en' ? 'Save draft' : '임시저장'}</button>${publish}<button>Tags</button><a role="button" href="${ORIGIN}/elsewhere">Leave</a></header>
<nav><button>Images</button><button>Code</button></nav>
<main>
<input name="title" aria-label="Title" placeholder="Title">
${editor(spec)}
<input name="tags" placeholder="Tags">
<input name="note" tabindex="-1" aria-label="Note to the editor">
</main>
${comments(spec.comments)}
<form action="/comment" method="post"><label for="c">Comment</label><textarea id="c" name="comment"></textarea><button>Post comment</button></form>
</body></html>`;
}

/** What inspect must list for a generated page: its fields, and its actions by name (with how many repeats). */
function expected(spec: Spec): { fields: string[]; actions: Record<string, number | undefined> } {
  const publish = spec.lang === 'en' ? 'publish' : '발행';
  const save = spec.lang === 'en' ? 'save_draft' : '임시저장';
  const own = [save, ...(spec.publishInBar && spec.bar !== 'none' ? [] : [publish]), 'tags_2', 'leave', 'images', 'code'];
  const inBar = spec.publishInBar && spec.bar !== 'none' ? [publish] : [];
  const actions: Record<string, number | undefined> = {};
  for (const name of [...own, ...inBar, 'post_comment']) actions[name] = undefined;
  if (spec.comments > 0) {
    actions.reply = spec.comments > 1 ? spec.comments - 1 : undefined;
    actions.like_1 = spec.comments > 1 ? spec.comments - 1 : undefined;
  }
  return { fields: ['title', 'body', 'tags', 'note', 'comment'], actions };
}

interface Bound {
  write: () => Promise<InspectResult>;
  reference: () => Promise<InspectResult>;
}

/** Shows a generated page in the one tab of a workspace where its origin is writable. */
async function showing(tether: TetherDriver, page: Page, path: string, body: string, workspace: string): Promise<Bound> {
  pages.set(path, body);
  await page.goto(`${ORIGIN}${path}`);
  const profile = await tether.profileId();
  const url = page.url();
  const handle = async (role: 'write' | 'reference') => {
    const request = role === 'write' ? { destination: { url } } : { readOnly: true, references: [{ url }] };
    const resolved = ok(await tether.agent('resolve', { profile, workspace, ...request }));
    return (role === 'write' ? resolved.write?.handle : resolved.references?.[0]?.handle) ?? '';
  };
  return {
    write: async () => ok(await tether.agent('inspect', { profile, workspace, handle: await handle('write') })),
    reference: async () => ok(await tether.agent('inspect', { profile, workspace, handle: await handle('reference') })),
  };
}

const pages = new Map<string, string>();

async function generatedTab(tether: TetherDriver): Promise<{ page: Page; workspace: string }> {
  await tether.context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    return route.fulfill({ contentType: 'text/html; charset=utf-8', body: pages.get(path) ?? '<!doctype html><title>elsewhere</title>' });
  });
  const page = await tether.context.newPage();
  pages.set('/start', '<!doctype html><title>start</title>');
  await page.goto(`${ORIGIN}/start`);
  const workspace = (await tether.workspaceOf([page])).id;
  await tether.must({ type: 'workspace.setSite', workspaceId: workspace, origin: `${ORIGIN}/`, policy: { writable: true, publishWithoutApproval: false } });
  return { page, workspace };
}

const actionsOf = (seen: InspectResult) => Object.fromEntries((seen.actions ?? []).map((action) => [action.name, action.repeated]));

/** Every kind of bar in both languages, each with its own label style, placement, surface and path bar. */
const TABLE: Spec[] = (['role', 'class', 'tag', 'none'] as const).flatMap((bar, barIndex) =>
  (['en', 'ko'] as const).map((lang, langIndex): Spec => {
    const index = barIndex * 2 + langIndex;
    const styles: Style[] = ['text', 'aria', 'title', 'ligature', 'anchor'];
    const surfaces: Surface[] = ['contenteditable', 'textarea', 'iframe'];
    const places: Place[] = ['before', 'after', 'nested'];
    const paths: PathBar[] = ['statusbar', 'plain', 'none'];
    return {
      bar,
      lang,
      style: styles[index % styles.length] ?? 'text',
      surface: surfaces[index % surfaces.length] ?? 'textarea',
      place: places[index % places.length] ?? 'before',
      path: paths[index % paths.length] ?? 'none',
      publishInBar: index % 2 === 0,
      comments: index % 4 === 1 ? 3 : 0,
    };
  }),
);

const SPEC = fc.record<Spec>({
  surface: fc.constantFrom('contenteditable', 'textarea', 'iframe'),
  bar: fc.constantFrom('role', 'class', 'tag', 'none'),
  lang: fc.constantFrom('en', 'ko'),
  style: fc.constantFrom('text', 'aria', 'title', 'ligature', 'anchor'),
  place: fc.constantFrom('before', 'after', 'nested'),
  path: fc.constantFrom('statusbar', 'plain', 'none'),
  publishInBar: fc.boolean(),
  comments: fc.constantFrom(0, 1, 5),
});

test('generated editor pages: no toolbar, path crumb or internal input is listed; every page action and real field is, and none shares a name', async ({
  tether,
}) => {
  const { page, workspace } = await generatedTab(tether);
  const drawn = fc.sample(SPEC, { seed: 24, numRuns: 8 });
  const specs = [...TABLE, ...drawn];
  const answers: InspectResult[] = [];
  for (const [index, spec] of specs.entries()) answers.push(await (await showing(tether, page, `/p/${index}`, html(spec), workspace)).write());
  const total = (count: (seen: InspectResult) => number) => answers.reduce((sum, seen) => sum + count(seen), 0);
  console.log(
    `${specs.length} generated pages: ${total((seen) => seen.actions?.length ?? 0)} actions, ${total((seen) => seen.fields?.length ?? 0)} fields listed (expected ${specs.reduce((sum, spec) => sum + Object.keys(expected(spec).actions).length, 0)} and ${specs.length * 5})`,
  );
  for (const [index, spec] of specs.entries()) {
    const seen = answers[index] ?? { signIn: { state: 'unknown' } };
    const want = expected(spec);
    const what = `page ${index}: ${JSON.stringify(spec)}`;
    expect(seen.fields?.map((field) => field.name).sort(), what).toEqual([...want.fields].sort());
    expect(actionsOf(seen), what).toEqual(want.actions);
    const fieldNames = new Set(seen.fields?.map((field) => field.name));
    expect(seen.actions?.filter((action) => fieldNames.has(action.name)) ?? [], what).toEqual([]);
  }
});

test('200 comments with a Reply and a Like each: the page’s own actions are listed once, the repeats counted; the comment form’s Post stays in', async ({
  tether,
}) => {
  const { page, workspace } = await generatedTab(tether);
  const spec: Spec = { surface: 'textarea', bar: 'role', lang: 'en', style: 'text', place: 'before', path: 'none', publishInBar: false, comments: 200 };
  const bound = await showing(tether, page, '/comments', html(spec), workspace);
  const seen = await bound.write();
  console.log(
    `200 comments: ${seen.actions?.length ?? 0} actions, ${JSON.stringify(seen).length} characters of answer; the reference's answer: ${JSON.stringify(await bound.reference()).length} characters`,
  );
  expect(actionsOf(seen)).toEqual(expected(spec).actions);
  expect(seen.actions).toContainEqual({ name: 'reply', kind: 'submit', repeated: 199 });
});

test('a reference answer has no controls: what can be read and sign-in; the same page through a write handle keeps them', async ({ tether }) => {
  const { page, workspace } = await generatedTab(tether);
  const spec: Spec = {
    surface: 'contenteditable',
    bar: 'class',
    lang: 'ko',
    style: 'text',
    place: 'before',
    path: 'statusbar',
    publishInBar: false,
    comments: 20,
  };
  const bound = await showing(tether, page, '/reference', html(spec), workspace);
  await page.locator('textarea[name="comment"]').fill('a comment typed before');
  const reference = await bound.reference();
  expect(reference.fields).toBeUndefined();
  expect(reference.actions).toBeUndefined();
  expect(reference.signIn).toEqual({ state: 'unknown' });
  // What can be read: the page's regions, and the field that holds text (by name).
  expect(reference.readable).toEqual(expect.arrayContaining(['main', 'comment']));
  expect(reference.readable).not.toContain('tags');
  const profile = await tether.profileId();
  const url = page.url();
  const resolved = ok(await tether.agent('resolve', { profile, workspace, readOnly: true, references: [{ url }] }));
  const read = ok(await tether.agent('inspect', { profile, workspace, handle: resolved.references?.[0]?.handle, read: ['comment'] }));
  expect(read.text).toEqual({ comment: 'a comment typed before' });
  const write = await bound.write();
  expect(write.fields?.map((field) => field.name)).toEqual(['title', 'body', 'tags', 'note', 'comment']);
  expect(actionsOf(write)).toEqual(expected(spec).actions);
});
