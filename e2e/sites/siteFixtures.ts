/**
 * Pages that reproduce the markup of the real sites Tether has adapters for — Naver Blog
 * (SmartEditor ONE inside #mainFrame), Naver Cafe (title textarea over SmartEditor ONE; articles
 * in #cafe_main), Tistory (title textarea, TinyMCE iframe, publish layer) and WordPress's block
 * editor (title and blocks in the editor-canvas iframe) — served at the real host names, which
 * the test browser resolves to this server (`--host-resolver-rules`, HOST_RULES below). Only the
 * parts Tether reads are reproduced: fields, the buttons that save and publish, sign-in marks,
 * readable regions; the markup follows the public sources each adapter in content/adapters/
 * cites (checked 2026-11-30). The editors do not take keystrokes: writing them is not what
 * these pages test.
 *
 * Plus one page on the demo blog's host with markup of its own (/studio/new), as another app on
 * the same host or a redesign would serve: the demo adapter claims it but does not match it.
 */
import { escapeHtml } from './pages.ts';

/** The real hosts the fixtures answer for; the test browser maps them to 127.0.0.1. */
export const FIXTURE_HOSTS = ['blog.naver.com', 'cafe.naver.com', '*.tistory.com'] as const;
export const HOST_RULES = `--host-resolver-rules=${FIXTURE_HOSTS.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`;
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

/** One sign-in per host, as the real sites keep it in their cookies. */
const SESSION_COOKIE = 'fixture_user';

function signIn(request: FixtureRequest): FixtureResponse | null {
  if (request.url.pathname !== '/nidlogin') return null;
  const as = request.url.searchParams.get('as') ?? '';
  const next = request.url.searchParams.get('next') ?? '/';
  return {
    status: 303,
    body: '',
    headers: { location: next.startsWith('/') ? next : '/', 'set-cookie': `${SESSION_COOKIE}=${encodeURIComponent(as)}; Path=/` },
  };
}

/** The Naver bar: the nickname and the sign-out link when signed in (hidden, as seen in #mainFrame), the sign-in link when not. */
function naverBar(user: string | null, hidden: boolean): string {
  return user
    ? `<div id="gnb"${hidden ? ' style="display:none"' : ''}><a id="gnb_name1" class="gnb_name" href="#">${escapeHtml(user)}</a> <a id="gnb_logout_button" href="https://nid.naver.com/nidlogin.logout">로그아웃</a></div>`
    : `<div id="gnb"><a id="gnb_login_button" href="https://nid.naver.com/nidlogin.login">로그인</a></div>`;
}

function seParagraphs(lines: string[], size: string, placeholder: string): string {
  if (lines.length === 0) {
    return `<p class="se-text-paragraph se-text-paragraph-align-left"><span class="se-ff-nanumgothic ${size} __se-node">\u200b</span><span class="se-placeholder __se_placeholder se-ff-nanumgothic ${size}">${escapeHtml(placeholder)}</span></p>`;
  }
  return lines
    .map((line) => `<p class="se-text-paragraph se-text-paragraph-align-left"><span class="se-ff-nanumgothic ${size} __se-node">${escapeHtml(line)}</span></p>`)
    .join('');
}

/** SmartEditor ONE's document: rendered components (not contenteditable) and a hidden input iframe that takes keystrokes. */
function smartEditorOne(options: { title?: string[]; body: string[]; bodyPlaceholder: string }): string {
  const title =
    options.title === undefined
      ? ''
      : `<div class="se-component se-documentTitle se-l-default" data-a11y-title="제목"><div class="se-component-content"><div class="se-section se-section-documentTitle se-l-default"><div class="se-module se-module-text se-title-text">${seParagraphs(options.title, 'se-fs32', '제목')}</div></div></div></div>`;
  return `<div class="se-wrap">
<header class="se-header"><ul class="se-toolbar se-document-toolbar">
<li class="se-toolbar-item se-toolbar-item-image"><button type="button" class="se-image-toolbar-button" data-name="image" data-log="dot.img"><span class="se-toolbar-label">사진</span></button></li>
<li class="se-toolbar-item se-toolbar-item-insert-quotation"><button type="button" class="se-document-toolbar-icon-select-button" data-name="quotation"><span class="se-toolbar-tooltip">인용구 추가</span></button></li>
</ul></header>
<div style="position:absolute;width:0;height:0;overflow:hidden"><iframe id="input_buffer" class="se-input-buffer" title="input buffer" style="width:0;height:0;border:0"></iframe></div>
<div class="se-container"><div class="se-content"><section class="se-canvas se-native-selection-hidden"><article class="se-components-wrap">
${title}
<div class="se-component se-text se-l-default" data-a11y-title="본문"><div class="se-component-content"><div class="se-section se-section-text se-l-default"><div class="se-module se-module-text">${seParagraphs(options.body, 'se-fs15', options.bodyPlaceholder)}</div></div></div></div>
</article></section></div></div>
</div>`;
}

/** Shows a layer when its opener is pressed: the real sites add their publish panels to the DOM only then. */
const openLayerScript = (opener: string, layerHtml: string, host = 'body') =>
  `<script>document.querySelector(${JSON.stringify(opener)}).addEventListener('click', () => { if (!document.querySelector('[data-fixture-layer]')) document.querySelector(${JSON.stringify(host)}).insertAdjacentHTML('beforeend', ${JSON.stringify(layerHtml)}); });</script>`;

const mainFramePage = (title: string, src: string, id = 'mainFrame') =>
  page(title, `<iframe id="${id}" name="${id}" src="${escapeHtml(src)}" title="${escapeHtml(title)}" style="width:100%;height:760px;border:0"></iframe>`);

function naverBlog(request: FixtureRequest): FixtureResponse | null {
  const { url } = request;
  const user = request.cookies[SESSION_COOKIE] || null;
  const blogId = url.searchParams.get('blogId') ?? '';
  if (url.pathname === '/PostWriteForm.naver') {
    // The real editor sends a signed-out visitor to the sign-in page; here, a page that says so.
    if (!user) return page('로그인이 필요합니다', `${naverBar(null, false)}<p>로그인이 필요합니다.</p>`);
    const draft = url.searchParams.get('draft') === '1';
    const layer = `<div class="layer_publish__vA9PX" data-fixture-layer><strong>발행 설정</strong><div class="option_category___kpJc"><button type="button" class="selectbox_button__jb1Dt" aria-label="카테고리 목록 버튼">일상</button></div><input id="tag-input" type="text" placeholder="#태그 입력 (최대 30개)"><button type="button" class="confirm_btn__WEaBq" data-testid="seOnePublishBtn" data-click-area="tpb*i.publish"><span>발행</span></button></div>`;
    return page(
      `${blogId} : 네이버 블로그`,
      `${naverBar(user, true)}
<div class="blog_editor"><div class="header__Ceaap">
<button type="button" class="save_btn__bzc5B" data-click-area="tpb.save"><span>저장</span></button>
<button type="button" class="save_count_btn__ZTLNa" aria-label="임시저장된 글 보기, 0개">0</button>
<button type="button" class="publish_btn__m9KHH" data-click-area="tpb.publish"><span>발행</span><i class="ico"></i></button>
</div>
${smartEditorOne({ title: draft ? ['봄 시장 메모'] : [], body: draft ? ['토요일 10시에 강변에서 열립니다.', '컵을 가져오세요.'] : [], bodyPlaceholder: '본문에 #을 이용하여 태그를 사용해보세요!' })}
</div>
${openLayerScript('[data-click-area="tpb.publish"]', layer)}`,
    );
  }
  if (url.pathname === '/PostView.naver') {
    return page(
      '봄 시장 공지 : 네이버 블로그',
      `${naverBar(user, true)}<div id="postViewArea"><div class="se-viewer"><div class="se-component se-documentTitle"><div class="se-module se-module-text se-title-text"><p class="se-text-paragraph"><span>봄 시장 공지</span></p></div></div>
<div class="se-main-container"><div class="se-component se-text"><div class="se-module se-module-text"><p class="se-text-paragraph"><span>봄 시장은 토요일 오전 10시에 강변에서 열립니다.</span></p><p class="se-text-paragraph"><span>자원봉사자는 9시에 북문에서 모입니다.</span></p></div></div></div></div></div>`,
    );
  }
  // blog.naver.com/{id}?Redirect=Write and blog.naver.com/{id}/{logNo}: the page is in #mainFrame.
  const [, id, logNo] = url.pathname.split('/');
  if (id && url.searchParams.get('Redirect') === 'Write') {
    const draft = url.searchParams.get('draft') === '1' ? '&draft=1' : '';
    return mainFramePage(`${id} : 네이버 블로그`, `/PostWriteForm.naver?blogId=${encodeURIComponent(id)}${draft}`);
  }
  if (id && logNo) return mainFramePage(`${id} : 네이버 블로그`, `/PostView.naver?blogId=${encodeURIComponent(id)}&logNo=${encodeURIComponent(logNo)}`);
  return null;
}

function naverCafe(request: FixtureRequest): FixtureResponse | null {
  const { url } = request;
  const user = request.cookies[SESSION_COOKIE] || null;
  if (/^\/ca-fe\/cafes\/\d+\/articles\/write$/.test(url.pathname)) {
    if (!user) return page('네이버 카페', `${naverBar(null, false)}<p>카페 회원만 글을 쓸 수 있습니다.</p>`);
    return page(
      '카페 글쓰기 : 네이버 카페',
      `${naverBar(user, false)}
<div class="WritingWrap"><div class="WritingHeader"><h2 class="title">카페 글쓰기</h2><div class="tool_area">
<div class="temp_save_area"><button type="button" class="btn_temp_save">임시등록</button><button type="button" class="btn_temp_count">0</button></div>
<a href="#" role="button" class="BaseButton BaseButton--skinGreen size_default"><span class="BaseButton__txt">등록</span></a>
</div></div>
<div class="WritingContent"><div class="WritingEditor">
<div class="ArticleWritingTitle"><div class="FormSelectBox"><button type="button" class="button" aria-haspopup="true">자유게시판</button></div>
<div class="FlexableTextArea"><textarea placeholder="제목을 입력해 주세요." class="textarea_input" style="height:36px"></textarea></div></div>
<div id="SmartEditor" class="CafeEditor"><div class="se-body">${smartEditorOne({ body: [], bodyPlaceholder: '내용을 입력하세요.' })}</div></div>
<div class="WritingTag"><div class="tag_inner"><div class="tag_input_box inactive"><input type="text" placeholder="태그를 입력해주세요 (최대 10개)" class="tag_input"></div></div></div>
</div></div></div>`,
    );
  }
  if (url.pathname === '/ArticleRead.nhn') {
    return page(
      '주간 공지 : 네이버 카페',
      `<div class="ArticleContentBox"><div class="article_header"><h3 class="title_text">주간 공지: 봄 시장</h3></div>
<div class="article_viewer"><div class="se-main-container"><div class="se-component se-text"><div class="se-component-content"><div class="se-module se-module-text"><p class="se-text-paragraph"><span>봄 시장은 토요일 오전 10시에 강변에서 열립니다.</span></p><p class="se-text-paragraph"><span>컵을 가져오면 차 할인이 있습니다.</span></p></div></div></div></div></div></div>`,
    );
  }
  // cafe.naver.com/{cafe}/{articleId}: the article is in #cafe_main.
  const match = /^\/([a-z0-9]+)\/(\d+)$/.exec(url.pathname);
  if (match) {
    const frame = `<iframe id="cafe_main" name="cafe_main" src="/ArticleRead.nhn?clubid=10001&amp;articleid=${match[2]}" title="카페 메인" style="width:100%;height:600px;border:0"></iframe>`;
    return page('강변 카페 : 네이버 카페', `${naverBar(user, false)}${frame}`);
  }
  return null;
}

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
  const signedIn = host.endsWith('.naver.com') ? signIn(request) : null;
  if (signedIn) return signedIn;
  if (host === 'blog.naver.com') return naverBlog(request);
  if (host === 'cafe.naver.com') return naverCafe(request);
  if (host.endsWith('.tistory.com')) return tistory(request);
  if (host === WORDPRESS_HOST) return wordpress(request);
  if (host === 'blog.localhost' && url.pathname === '/studio/new') return studioPage();
  return null;
}
