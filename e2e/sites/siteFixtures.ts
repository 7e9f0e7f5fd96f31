/**
 * Pages that reproduce the markup of the real sites Tether has adapters for — Tistory (title
 * textarea, TinyMCE iframe, publish layer) and WordPress's block editor (title and blocks in the
 * editor-canvas iframe) — served at the real host names, which the test browser resolves to this
 * server (`--host-resolver-rules`, HOST_RULES below). Only the parts Tether reads are reproduced:
 * fields, the buttons that save and publish, sign-in marks, readable regions; the markup follows
 * the public sources each adapter in content/sites/adapters/ cites (checked 2026-11-30). The editors do
 * not take keystrokes: writing them is not what these pages test.
 *
 * Naver Blog and Naver Cafe are more than markup: a working SmartEditor ONE, its uploader and its
 * publish flow, at Naver's hosts (naver/naverSites.ts, with the sources in naver/SOURCES.md).
 *
 * Plus one page on the demo blog's host with markup of its own (/studio/new), as another app on
 * the same host or a redesign would serve: the demo adapter claims it but does not match it.
 */
import { NAVER_HOSTS } from './naver/naverSites.ts';
import { escapeHtml } from './pages.ts';

/** The real hosts the fixtures answer for; the test browser maps them to 127.0.0.1. */
export const FIXTURE_HOSTS = [...NAVER_HOSTS, '*.tistory.com'] as const;
export const HOST_RULES = `--host-resolver-rules=${FIXTURE_HOSTS.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`;
/**
 * Firefox's counterpart (its `network.dns.localDomains` pref: each name listed resolves to the
 * loopback address, the port kept; Gecko's netwerk/test/unit/test_dns_localredirect.js). It takes
 * names, not patterns: the Naver hosts reach their fixture in Firefox, `*.tistory.com` does not.
 */
export const FIREFOX_LOCAL_DOMAINS = NAVER_HOSTS.join(',');
/** WordPress is self-hosted anywhere; *.localhost already reaches this server. */
export const WORDPRESS_HOST = 'wp.localhost';

export interface FixtureRequest {
  host: string;
  url: URL;
  cookies: Record<string, string>;
}

export interface FixtureResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const page = (title: string, body: string, bodyClass = ''): FixtureResponse => ({
  status: 200,
  body: `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px/1.5 sans-serif;margin:0}button,a.BaseButton{margin:4px}textarea,input[type=text],input:not([type]){width:600px}iframe{border:1px solid #ccc;width:100%;height:320px}.se-canvas{border:1px solid #ddd;padding:16px;min-height:240px}.se-placeholder{color:#aaa}</style>
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ''}>${body}</body>
</html>`,
});

/** Shows a layer when its opener is pressed: the real sites add their publish panels to the DOM only then. */
const openLayerScript = (opener: string, layerHtml: string, host = 'body') =>
  `<script>document.querySelector(${JSON.stringify(opener)}).addEventListener('click', () => { if (!document.querySelector('[data-fixture-layer]')) document.querySelector(${JSON.stringify(host)}).insertAdjacentHTML('beforeend', ${JSON.stringify(layerHtml)}); });</script>`;

function tistory(request: FixtureRequest): FixtureResponse | null {
  const { url } = request;
  if (!url.pathname.startsWith('/manage/newpost')) return null;
  // ?redesign=1: the title box renamed, as a redesign might do; the adapter no longer finds it.
  const titleId = url.searchParams.get('redesign') === '1' ? 'post-title' : 'post-title-inp';
  const tinymce = `<!doctype html><html><head><meta charset="utf-8"></head><body id="tinymce" class="mce-content-body" data-id="editor-tistory" contenteditable="true"><p><br data-mce-bogus="1"></p></body></html>`;
  const layer = `<div class="editor_layer" data-fixture-layer><strong>발행</strong><input type="radio" id="open20" name="basicSet" value="20"><label for="open20">공개</label><button type="button" id="publish-btn" class="btn btn-default">공개 발행</button></div>`;
  return page(
    '글쓰기 - 티스토리',
    `<div id="kakaoHead"><a href="/manage" class="link_manage">관리</a></div>
<div class="editor_wrap">
<div class="area_category"><button id="category-btn" type="button" class="btn-category">카테고리</button></div>
<div class="area_title"><textarea id="${titleId}" class="textarea_tit" placeholder="제목을 입력하세요" style="height:40px"></textarea></div>
<div class="area_editor"><div class="mce-tinymce"><iframe id="editor-tistory_ifr" title="서식 있는 텍스트 영역" srcdoc="${escapeHtml(tinymce)}"></iframe></div></div>
<div class="area_tag"><input id="tagText" type="text" class="tf_g" placeholder="태그입력"></div>
</div>
<div class="editor_footer"><button id="publish-layer-btn" type="button" class="btn btn-default">완료</button></div>
${openLayerScript('#publish-layer-btn', layer)}`,
  );
}

function wordpress(request: FixtureRequest): FixtureResponse | null {
  if (request.url.pathname !== '/wp-admin/post-new.php') return null;
  const canvas = `<!doctype html><html><head><meta charset="utf-8"></head><body class="editor-styles-wrapper block-editor-iframe__body">
<div class="editor-visual-editor__post-title-wrapper"><h1 class="wp-block wp-block-post-title block-editor-block-list__block editor-post-title editor-post-title__input rich-text" contenteditable="true" role="textbox" aria-label="Add title" aria-multiline="true" style="min-height:1.5em"></h1></div>
<div class="is-root-container is-layout-flow wp-block-post-content block-editor-block-list__layout"><p role="document" aria-multiline="true" aria-label="Empty block; start writing or type forward slash to choose a block" class="block-editor-rich-text__editable block-editor-block-list__block wp-block wp-block-paragraph rich-text" contenteditable="true" style="min-height:1.5em"></p></div>
</body></html>`;
  const panel = `<div class="editor-post-publish-panel" data-fixture-layer><div class="editor-post-publish-panel__header"><div class="editor-post-publish-panel__header-publish-button"><button type="button" class="components-button editor-post-publish-button editor-post-publish-button__button is-primary">Publish</button></div><button type="button" class="components-button">Cancel</button></div><p>Are you ready to publish?</p></div>`;
  return page(
    'Add New Post ‹ Alice’s Notes — WordPress',
    `<div id="wpadminbar" style="display:none"><ul><li id="wp-admin-bar-my-account"><a class="ab-item" href="/wp-admin/profile.php">Howdy, <span class="display-name">Alice Kim</span></a></li></ul></div>
<div id="editor" class="block-editor__container"><div class="editor-editor-interface">
<div class="editor-header edit-post-header" role="region" aria-label="Editor top bar"><div class="editor-header__settings">
<button type="button" class="components-button editor-post-save-draft is-compact is-tertiary">Save draft</button>
<button type="button" class="components-button editor-preview-dropdown__toggle">View</button>
<button type="button" aria-expanded="false" class="components-button editor-post-publish-panel__toggle editor-post-publish-button__button is-primary is-compact">Publish</button>
</div></div>
<div class="editor-visual-editor"><iframe name="editor-canvas" class="editor-canvas__iframe" title="Editor canvas" srcdoc="${escapeHtml(canvas)}"></iframe></div>
</div></div>
${openLayerScript('.editor-post-publish-panel__toggle', panel, '.editor-editor-interface')}`,
    // The real page's body classes: block-editor-page is what the adapter's marker looks for.
    'wp-admin wp-core-ui post-new-php block-editor-page is-fullscreen-mode',
  );
}

function studioPage(): FixtureResponse {
  return page(
    'Studio — new story',
    `<header><span class="username">alice</span> <a href="/logout">Log out</a></header>
<main><h1>New story</h1>
<input name="headline" placeholder="Story title" aria-label="Story title">
<div class="story-editor" contenteditable="true" aria-label="Story" style="min-height:200px;border:1px solid #ccc"></div>
<button type="button" class="story-publish">Publish story</button></main>`,
  );
}

/** The fixture for this request, or null when it is not one (the demo sites answer it). */
export function serveFixture(request: FixtureRequest): FixtureResponse | null {
  const { host, url } = request;
  if (host.endsWith('.tistory.com')) return tistory(request);
  if (host === WORDPRESS_HOST) return wordpress(request);
  if (host === 'blog.localhost' && url.pathname === '/studio/new') return studioPage();
  return null;
}
