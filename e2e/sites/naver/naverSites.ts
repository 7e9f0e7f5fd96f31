/**
 * Naver Blog and Naver Cafe as the fixture serves them, at Naver's own host names (the test
 * browser maps them here: siteFixtures.ts's HOST_RULES): the outer blog page and its same-origin
 * #mainFrame (PostWriteForm.naver) with SmartEditor ONE (editor/), the publish layer, drafts and
 * the editor's autosave, the photo uploader's hosts, published posts; the Cafe write page, its
 * article API and articles. Which behaviour comes from which public source, and what is guessed:
 * SOURCES.md beside this file.
 *
 * Published posts and articles are kept from the editor's document model (what the page posts),
 * never from its DOM: a DOM-only edit does not reach them, as on the real site.
 */
import { randomUUID } from 'node:crypto';
import { documentHtml, escapeHtml } from './editor/render.ts';
import {
  contentText,
  emptyDocument,
  paragraph,
  seId,
  textComponent,
  textNode,
  titleComponent,
  titleText,
  type DocumentData,
  type ImageComponent,
} from './editor/model.ts';
import { makePng } from '../../../shared/testing/imageFixtures.ts';

export const NAVER_HOSTS = [
  'blog.naver.com',
  'cafe.naver.com',
  'platform.editor.naver.com',
  'blog.upphoto.naver.com',
  'cafe.upphoto.naver.com',
  'blogfiles.pstatic.net',
  'cafeptthumb-phinf.pstatic.net',
  'apis.cafe.naver.com',
] as const;

export interface NaverRequest {
  method: string;
  host: string;
  url: URL;
  /** The request's Origin header (the uploader's and the article API's requests are cross-origin). */
  origin: string | null;
  cookies: Record<string, string>;
  port: number;
  body(): Promise<Buffer>;
  contentType: string;
}

export interface NaverResponse {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface BlogPost {
  logNo: string;
  blogId: string;
  author: string;
  data: DocumentData;
  category: string;
  tags: string[];
  open: string;
}

export interface CafeArticle {
  articleId: number;
  cafeId: string;
  menuId: string;
  author: string;
  subject: string;
  data: DocumentData;
  tags: string[];
}

export interface NaverState {
  posts: BlogPost[];
  /** 저장 (RabbitTempPostWrite): the drafts the count button counts. */
  drafts: Array<{ blogId: string; data: DocumentData; savedAt: number }>;
  /** The editor's autosave, per user and editor: what the temporary-save prompt offers to continue. */
  autosave: Map<string, DocumentData>;
  /** Uploaded photos by the path they are served at (the answer's url). */
  photos: Map<string, { bytes: Buffer; type: string }>;
  /** Every upload the uploader posted (the test checks what left the browser). */
  uploads: Array<{ host: string; fileName: string; size: number; type: string }>;
  sessionKeys: Set<string>;
  articles: CafeArticle[];
  /**
   * How the upload host answers (a test's switch): `good`, or badly — `fail` (HTTP 500), an
   * `<item>` with `no-url`, a url on a `foreign-host`, an `oversized` url, or a `non-string` one
   * (`<url type="number">`, which the fixture's uploader passes on as a number).
   */
  photoAnswer: 'good' | 'fail' | 'no-url' | 'foreign-host' | 'oversized' | 'non-string';
  /** From which upload (its 1-based number in `uploads`) the answer is `photoAnswer`; the ones before answer well. */
  photoAnswerFrom: number;
}

/** Blog categories of the fixture's blog (categoryNo → name). */
export const CATEGORIES: Array<[string, string]> = [
  ['1', '일상'],
  ['7', '시장 이야기'],
  ['12', '책과 차'],
];

/** Boards of the fixture's cafe (menuId → name). */
export const BOARDS: Array<[string, string]> = [
  ['1', '공지사항'],
  ['3', '자유게시판'],
  ['5', '장터 소식'],
];

function seededPost(): BlogPost {
  const data = emptyDocument();
  data.document.components = [
    titleComponent('봄 시장 공지'),
    textComponent([paragraph([textNode('봄 시장은 토요일 오전 10시에 강변에서 열립니다.')]), paragraph([textNode('자원봉사자는 9시에 북문에서 모입니다.')])]),
  ];
  return { logNo: '223000000001', blogId: 'alice_nv', author: 'alice_nv', data, category: '1', tags: [], open: 'public' };
}

/** The cafe notes' two photos, served at the Cafe's photo host (the viewer's address carries ?type=w800: guessed). */
export const CAFE_PHOTOS = [
  { url: '/MjAyNjExMjhfMTIz/MDAxNzg0.market.PNG/market_stalls.png', bytes: makePng(320, 200, (x, y) => [200, 80 + (x % 150), 40 + (y % 100)]) },
  { url: '/MjAyNjExMjhfMTI0/MDAxNzg1.tea.PNG/riverside_tea.png', bytes: makePng(240, 180, (x, y) => [30 + (y % 200), 140, 90 + (x % 120)]) },
];

function cafePhoto(photo: (typeof CAFE_PHOTOS)[number], represent: boolean): ImageComponent {
  const fileName = photo.url.slice(photo.url.lastIndexOf('/') + 1);
  const bytes = Buffer.from(photo.bytes);
  const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  return {
    id: seId(),
    layout: 'default',
    src: `https://cafeptthumb-phinf.pstatic.net${photo.url}?type=w800`,
    internalResource: true,
    represent,
    path: photo.url,
    domain: 'https://cafeptthumb-phinf.pstatic.net',
    fileSize: photo.bytes.length,
    width,
    widthPercentage: 0,
    height,
    originalWidth: width,
    originalHeight: height,
    fileName,
    caption: null,
    format: 'normal',
    displayFormat: 'normal',
    imageLoaded: true,
    contentMode: 'fit',
    origin: { srcFrom: 'local', '@ctype': 'imageOrigin' },
    ai: false,
    '@ctype': 'image',
  } as ImageComponent;
}

/** The cafe's notes a blog post is written from (the "from the Naver Cafe notes"), with two photos. */
function seededArticle(): CafeArticle {
  const data = emptyDocument();
  data.document.components = [
    titleComponent(''),
    textComponent([paragraph([textNode('봄 시장은 토요일 오전 10시에 강변에서 열립니다.')]), paragraph([textNode('컵을 가져오면 차 할인이 있습니다.')])]),
    cafePhoto(CAFE_PHOTOS[0] as (typeof CAFE_PHOTOS)[number], true),
    textComponent([
      paragraph([textNode('준비물: 장바구니, 컵, 돗자리', { bold: true })]),
      paragraph([textNode('지도: '), textNode('강변 공원 안내', undefined, 'https://map.example.com/riverside')]),
    ]),
    cafePhoto(CAFE_PHOTOS[1] as (typeof CAFE_PHOTOS)[number], false),
    textComponent([paragraph([textNode('')])]),
  ];
  return { articleId: 1, cafeId: '10001', menuId: '1', author: 'carol', subject: '주간 공지: 봄 시장', data, tags: [] };
}

export function freshNaverState(): NaverState {
  const photos = new Map(CAFE_PHOTOS.map((photo) => [photo.url, { bytes: Buffer.from(photo.bytes), type: 'image/png' }]));
  return {
    posts: [seededPost()],
    drafts: [],
    autosave: new Map(),
    photos,
    uploads: [],
    sessionKeys: new Set(),
    articles: [seededArticle()],
    photoAnswer: 'good',
    photoAnswerFrom: 0,
  };
}

const SESSION_COOKIE = 'fixture_user';

const page = (title: string, body: string, head = ''): NaverResponse => ({
  status: 200,
  body: `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px/1.5 sans-serif;margin:0}button,a.BaseButton{margin:4px}textarea,input[type=text],input:not([type]){width:600px}.se-canvas{border:1px solid #ddd;padding:16px;min-height:240px}.se-placeholder{color:#aaa;position:absolute;margin-left:4px}.se-text-paragraph{margin:4px 0;min-height:1.2em}.se-fs32{font-size:26px}.se-fs28{font-size:24px}.se-fs24{font-size:20px}.se-fs19{font-size:17px}.se-link{color:#06c;text-decoration:underline}.se-popup-dim{position:fixed;inset:0;background:rgba(0,0,0,.3)}.se-popup-container{position:fixed;top:30%;left:30%;background:#fff;padding:20px;border:1px solid #999}.se-image-resource{max-width:400px;height:auto}[hidden]{display:none!important}.layer_publish__vA9PX{border:1px solid #999;padding:12px;margin:8px}.tag_item__Kq1pT{display:inline-block;margin:2px;padding:0 6px;background:#eef}</style>
${head}</head>
<body>${body}</body>
</html>`,
});

/** The Naver bar: the nickname and the sign-out link when signed in (hidden, as seen in #mainFrame), the sign-in link when not. */
function naverBar(user: string | null, hidden: boolean): string {
  return user
    ? `<div id="gnb"${hidden ? ' style="display:none"' : ''}><a id="gnb_name1" class="gnb_name" href="#">${escapeHtml(user)}</a> <a id="gnb_logout_button" href="https://nid.naver.com/nidlogin.logout">로그아웃</a></div>`
    : `<div id="gnb"><a id="gnb_login_button" href="https://nid.naver.com/nidlogin.login">로그인</a></div>`;
}

const mainFramePage = (title: string, src: string, id = 'mainFrame') =>
  page(title, `<iframe id="${id}" name="${id}" src="${escapeHtml(src)}" title="${escapeHtml(title)}" style="width:100%;height:1400px;border:0"></iframe>`);

function signIn(request: NaverRequest): NaverResponse | null {
  if (request.url.pathname !== '/nidlogin') return null;
  const as = request.url.searchParams.get('as') ?? '';
  const next = request.url.searchParams.get('next') ?? '/';
  return {
    status: 303,
    body: '',
    // One Naver account for every naver.com host (the uploader's and the article API's hosts read it too).
    headers: {
      location: next.startsWith('/') ? next : '/',
      'set-cookie': `${SESSION_COOKIE}=${encodeURIComponent(as)}; Path=/; Domain=naver.com; SameSite=Lax`,
    },
  };
}

const json = (value: unknown, status = 200, headers: Record<string, string> = {}): NaverResponse => ({
  status,
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
});

/** The editor's hosts answer the write pages' origins only (the uploader and the article API are cross-origin requests). */
function cors(request: NaverRequest): Record<string, string> {
  const origin = request.origin;
  const allowed = origin !== null && /^http:\/\/(blog|cafe)\.naver\.com(:\d+)?$/.test(origin);
  return allowed
    ? {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-headers': 'content-type, se-authorization, se-app-id',
        vary: 'origin',
      }
    : {};
}

/** The viewer's page of a published post (PostView.naver in #mainFrame). */
function postView(post: BlogPost, user: string | null): NaverResponse {
  const options = { view: 'viewer' as const, bodyPlaceholder: '', bodySize: 'fs15' };
  const tags = post.tags.map((tag) => `<a class="item pcol2 itemTagfont" href="#"><span class="ell">#${escapeHtml(tag)}</span></a>`).join(' ');
  return page(
    `${titleText(post.data.document)} : 네이버 블로그`,
    `${naverBar(user, true)}<div id="postViewArea"><div class="se-viewer se-theme-default">
<div class="se-component se-documentTitle"><div class="se-module se-module-text se-title-text"><p class="se-text-paragraph"><span>${escapeHtml(titleText(post.data.document))}</span></p></div></div>
<div class="se-main-container">${documentHtml(post.data.document, options, true)}</div>
</div><div class="post_tag wrap_tag" data-log-no="${escapeHtml(post.logNo)}">${tags}</div></div>`,
  );
}

function blogWritePage(request: NaverRequest, user: string): NaverResponse {
  const { url } = request;
  const blogId = url.searchParams.get('blogId') ?? '';
  const config = {
    blogId,
    user,
    key: 'blogpc001',
    port: request.port,
    // The switches (SOURCES.md): keys=trusted-only ignores synthetic key events; api=none|renamed|forged|throws.
    ignoreUntrustedKeys: url.searchParams.get('keys') === 'trusted-only',
    api: url.searchParams.get('api') ?? 'full',
    drafts: 0,
    categories: CATEGORIES,
  };
  return page(
    `${blogId} : 네이버 블로그`,
    `${naverBar(user, true)}
<div id="root" class="blog_editor"></div>
<script>window.__fixtureConfig = ${JSON.stringify(config).replace(/</g, '\\u003c')};</script>
<script src="/assets/naver-blog-write.js"></script>`,
  );
}

async function naverBlog(request: NaverRequest, state: NaverState): Promise<NaverResponse | null> {
  const { url, method } = request;
  const user = request.cookies[SESSION_COOKIE] || null;
  const blogId = url.searchParams.get('blogId') ?? '';
  if (url.pathname === '/PostWriteForm.naver') {
    // The real editor sends a signed-out visitor to the sign-in page; here, a page that says so.
    if (!user) return page('로그인이 필요합니다', `${naverBar(null, false)}<p>로그인이 필요합니다.</p>`);
    return blogWritePage(request, user);
  }
  if (url.pathname === '/PostView.naver') {
    const post = state.posts.find((item) => item.logNo === url.searchParams.get('logNo') && item.blogId === blogId);
    return post ? postView(post, user) : { status: 404, body: '존재하지 않는 게시물입니다.' };
  }
  if (url.pathname === '/RabbitWrite.naver' || url.pathname === '/RabbitTempPostWrite.naver') {
    if (method !== 'POST') return { status: 405, body: '' };
    if (!user) return json({ isSuccess: false, errorCode: 'no privilege' }, 403);
    const form = new URLSearchParams((await request.body()).toString('utf8'));
    let data: DocumentData;
    let population: { categoryNo?: string; tags?: string; openType?: string };
    try {
      data = JSON.parse(form.get('documentModel') ?? '') as DocumentData;
      population = JSON.parse(form.get('populationParams') ?? '{}') as typeof population;
    } catch {
      return json({ isSuccess: false, errorCode: 'invalid documentModel' }, 400);
    }
    const postBlogId = form.get('blogId') ?? '';
    if (postBlogId !== user) return json({ isSuccess: false, errorCode: 'no privilege' }, 403);
    if (url.pathname === '/RabbitTempPostWrite.naver') {
      state.drafts.push({ blogId: postBlogId, data, savedAt: Date.now() });
      return json({ isSuccess: true, result: { count: state.drafts.filter((draft) => draft.blogId === postBlogId).length } });
    }
    const logNo = String(224000000000 + state.posts.length + 1);
    state.posts.push({
      logNo,
      blogId: postBlogId,
      author: user,
      data,
      category: population.categoryNo ?? '',
      tags: (population.tags ?? '').split(',').filter(Boolean),
      open: population.openType ?? 'public',
    });
    state.autosave.delete(`${user}|blogpc001`);
    return json({ isSuccess: true, result: { logNo, redirectUrl: `/PostView.naver?blogId=${postBlogId}&Redirect=View&logNo=${logNo}&isAfterWrite=true` } });
  }
  if (url.pathname === '/se-fixture/autosave') {
    // The editor's autosave (its endpoint is not in the record: this route is the fixture's own).
    if (!user) return json({ isSuccess: false }, 403);
    const key = `${user}|${url.searchParams.get('key') ?? ''}`;
    if (method === 'GET') return state.autosave.has(key) ? json(state.autosave.get(key)) : { status: 204, body: '' };
    if (method === 'POST') {
      try {
        const data = JSON.parse((await request.body()).toString('utf8')) as DocumentData;
        if (contentText(data.document) === '' && titleText(data.document) === '') state.autosave.delete(key);
        else state.autosave.set(key, data);
      } catch {
        return json({ isSuccess: false }, 400);
      }
      return json({ isSuccess: true });
    }
    if (method === 'DELETE') {
      state.autosave.delete(key);
      return json({ isSuccess: true });
    }
  }
  // blog.naver.com/{id}?Redirect=Write and blog.naver.com/{id}/{logNo}: the page is in #mainFrame.
  const [, id, logNo] = url.pathname.split('/');
  if (id && url.searchParams.get('Redirect') === 'Write') {
    const passed = new URLSearchParams(url.searchParams);
    passed.delete('Redirect');
    passed.set('blogId', id);
    return mainFramePage(`${id} : 네이버 블로그`, `/PostWriteForm.naver?${passed.toString()}`);
  }
  if (id && logNo) return mainFramePage(`${id} : 네이버 블로그`, `/PostView.naver?blogId=${encodeURIComponent(id)}&logNo=${encodeURIComponent(logNo)}`);
  return null;
}

/** The photo hosts' https addresses as this fixture serves them (http, on its port). */
function servedHere(data: DocumentData, port: number): DocumentData {
  const copy = JSON.parse(JSON.stringify(data)) as DocumentData;
  for (const component of copy.document.components)
    if (component['@ctype'] === 'image')
      component.src = component.src.replace(/^https:\/\/(blogfiles|cafeptthumb-phinf)\.pstatic\.net\//, `http://$1.pstatic.net:${port}/`);
  return copy;
}

function articleView(article: CafeArticle, port: number): string {
  const options = { view: 'viewer' as const, bodyPlaceholder: '', bodySize: 'fs15' };
  article = { ...article, data: servedHere(article.data, port) };
  const tags = article.tags.map((tag) => `<a class="tag" href="#">#${escapeHtml(tag)}</a>`).join(' ');
  return `<div class="ArticleContentBox"><div class="article_header"><h3 class="title_text">${escapeHtml(article.subject)}</h3><span class="nickname">${escapeHtml(article.author)}</span></div>
<div class="article_viewer"><div class="se-viewer"><div class="se-main-container">${documentHtml(article.data.document, options, true)}</div></div></div><div class="ArticleTagList">${tags}</div></div>`;
}

function cafeWritePage(request: NaverRequest, user: string, cafeId: string): NaverResponse {
  const config = {
    cafeId,
    user,
    key: 'cafepc001',
    port: request.port,
    menuId: request.url.searchParams.get('menuId') ?? '',
    boards: BOARDS,
    ignoreUntrustedKeys: request.url.searchParams.get('keys') === 'trusted-only',
    api: request.url.searchParams.get('api') ?? 'full',
  };
  return page(
    '카페 글쓰기 : 네이버 카페',
    `${naverBar(user, false)}<div id="app"></div>
<script>window.__fixtureConfig = ${JSON.stringify(config).replace(/</g, '\\u003c')};</script>
<script src="/assets/naver-cafe-write.js"></script>`,
  );
}

async function naverCafe(request: NaverRequest, state: NaverState): Promise<NaverResponse | null> {
  const { url } = request;
  const user = request.cookies[SESSION_COOKIE] || null;
  const write = /^\/ca-fe\/cafes\/(\d+)(?:\/menus\/\d+)?\/articles\/write$/.exec(url.pathname);
  if (write) {
    if (!user) return page('네이버 카페', `${naverBar(null, false)}<p>카페 회원만 글을 쓸 수 있습니다.</p>`);
    return cafeWritePage(request, user, write[1] ?? '');
  }
  const read = /^\/ca-fe\/cafes\/(\d+)\/articles\/(\d+)$/.exec(url.pathname);
  if (read) {
    const article = state.articles.find((item) => item.cafeId === read[1] && item.articleId === Number(read[2]));
    return article
      ? page(`${article.subject} : 네이버 카페`, `${naverBar(user, false)}${articleView(article, request.port)}`)
      : { status: 404, body: '삭제되었거나 없는 게시글입니다.' };
  }
  if (url.pathname === '/ArticleRead.nhn') {
    const article = state.articles.find((item) => item.articleId === Number(url.searchParams.get('articleid')));
    return article ? page(`${article.subject} : 네이버 카페`, articleView(article, request.port)) : { status: 404, body: '삭제되었거나 없는 게시글입니다.' };
  }
  // cafe.naver.com/{cafe}/{articleId}: the article is in #cafe_main.
  const match = /^\/([a-z0-9]+)\/(\d+)$/.exec(url.pathname);
  if (match) {
    const frame = `<iframe id="cafe_main" name="cafe_main" src="/ArticleRead.nhn?clubid=10001&amp;articleid=${match[2]}" title="카페 메인" style="width:100%;height:600px;border:0"></iframe>`;
    return page('강변 카페 : 네이버 카페', `${naverBar(user, false)}${frame}`);
  }
  return null;
}

/** The Cafe's article API (apis.cafe.naver.com, VIR/CAF5's shape): the write page posts the model as contentJson. */
async function cafeApi(request: NaverRequest, state: NaverState): Promise<NaverResponse | null> {
  const match = /^\/editor\/v2\.0\/cafes\/(\d+)\/menus\/(\d+)\/articles$/.exec(request.url.pathname);
  if (!match) return null;
  const headers = cors(request);
  if (request.method === 'OPTIONS') return { status: 204, body: '', headers: { ...headers, 'access-control-allow-methods': 'POST' } };
  const user = request.cookies[SESSION_COOKIE] || null;
  if (!user) return json({ error: 'login required' }, 401, headers);
  let input: { article?: { subject?: unknown; contentJson?: unknown; tagList?: unknown } };
  let data: DocumentData;
  try {
    input = JSON.parse((await request.body()).toString('utf8')) as typeof input;
    data = JSON.parse(String(input.article?.contentJson ?? '')) as DocumentData;
  } catch {
    return json({ error: 'invalid article' }, 400, headers);
  }
  const articleId = state.articles.reduce((max, item) => Math.max(max, item.articleId), 0) + 1;
  state.articles.push({
    articleId,
    cafeId: match[1] ?? '',
    menuId: match[2] ?? '',
    author: user,
    subject: String(input.article?.subject ?? ''),
    data,
    tags: Array.isArray(input.article?.tagList) ? input.article.tagList.map(String) : [],
  });
  return json({ result: { articleId, cafeId: match[1] } }, 200, headers);
}

/** Width and height from a PNG, GIF or JPEG header (the upload answer carries them); null for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number; type: string } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), type: 'PNG' };
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8), type: 'GIF' };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let offset = 2; offset + 9 < bytes.length;) {
      if (bytes[offset] !== 0xff) return null;
      const marker = bytes[offset + 1] ?? 0;
      const length = bytes.readUInt16BE(offset + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5), type: 'JPEG' };
      }
      offset += 2 + length;
    }
  }
  return null;
}

/** The one part named `image` of a multipart body (the uploader's field). */
function multipartImage(body: Buffer, contentType: string): { fileName: string; type: string; bytes: Buffer } | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return null;
  const delimiter = Buffer.from(`--${marker}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) return null;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    if (/name="image"/.test(headers)) {
      return {
        fileName: /filename="([^"]*)"/.exec(headers)?.[1] ?? 'image',
        type: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream',
        bytes: part.subarray(split + 4),
      };
    }
    start = next;
  }
  return null;
}

const XML = { 'content-type': 'text/xml; charset=utf-8' };

/**
 * The photo uploader's hosts (SOURCES.md §6): a session key from platform.editor.naver.com, the
 * file posted as the multipart field `image` to {blog,cafe}.upphoto.naver.com, answered in XML
 * (`<item><url>…`); the photo is then served at the answer's url on the image domain, and only
 * there: its bare path answers 404 "존재하지 않는 이미지", as CSH found when `path` was used.
 */
async function photos(request: NaverRequest, state: NaverState): Promise<NaverResponse | null> {
  const { host, url, method } = request;
  const headers = cors(request);
  if (method === 'OPTIONS') return { status: 204, body: '', headers: { ...headers, 'access-control-allow-methods': 'GET, POST' } };
  if (host === 'platform.editor.naver.com') {
    if (!/^\/api\/(blogpc001|cafepc001)\/v1\/photo-uploader\/session-key$/.test(url.pathname)) return null;
    if (!request.cookies[SESSION_COOKIE]) return json({ isSuccess: false }, 401, headers);
    const sessionKey = randomUUID().replace(/-/g, '');
    state.sessionKeys.add(sessionKey);
    return json({ sessionKey, isSuccess: true }, 200, headers);
  }
  if (host === 'blog.upphoto.naver.com' || host === 'cafe.upphoto.naver.com') {
    const match = /^\/([0-9a-f]+)\/simpleUpload\/0$/.exec(url.pathname);
    if (!match || method !== 'POST') return null;
    if (!state.sessionKeys.has(match[1] ?? '')) return { status: 401, body: '<error>invalid session</error>', headers: { ...headers, ...XML } };
    const image = multipartImage(await request.body(), request.contentType);
    const size = image ? imageSize(image.bytes) : null;
    if (!image || !size) return { status: 400, body: '<error>not an image</error>', headers: { ...headers, ...XML } };
    state.uploads.push({ host, fileName: image.fileName, size: image.bytes.length, type: image.type });
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    const folder = `/MjAy${day}_${state.photos.size + 1}/${randomUUID().replace(/-/g, '').slice(0, 24)}.${size.type}`;
    const fileName = image.fileName.replace(/[^A-Za-z0-9._-]/g, (char) => encodeURIComponent(char));
    const served = `${folder}/${fileName}`;
    state.photos.set(served, { bytes: image.bytes, type: image.type });
    const answer = state.uploads.length >= state.photoAnswerFrom ? state.photoAnswer : 'good';
    if (answer === 'fail') return { status: 500, body: '<error>server error</error>', headers: { ...headers, ...XML } };
    const urlElement = {
      good: `<url>${escapeHtml(served)}</url>`,
      'no-url': '',
      'foreign-host': `<url>https://photos.evil.example${escapeHtml(served)}</url>`,
      oversized: `<url>${escapeHtml(served)}${'/x'.repeat(3000)}</url>`,
      'non-string': '<url type="number">20261201</url>',
    }[answer];
    const body = `<?xml version="1.0" encoding="UTF-8"?><item>${urlElement}<path>${escapeHtml(folder)}</path><fileName>${escapeHtml(fileName)}</fileName><width>${size.width}</width><height>${size.height}</height><fileSize>${image.bytes.length}</fileSize><imageType>${size.type}</imageType><thumbnail>${escapeHtml(served)}?type=s3</thumbnail></item>`;
    return { status: 200, body, headers: { ...headers, ...XML } };
  }
  if (host === 'blogfiles.pstatic.net' || host === 'cafeptthumb-phinf.pstatic.net') {
    const photo = state.photos.get(decodeURIComponent(url.pathname)) ?? state.photos.get(url.pathname);
    if (!photo) return { status: 404, body: '존재하지 않는 이미지', headers: { 'content-type': 'text/plain; charset=utf-8' } };
    return { status: 200, body: photo.bytes, headers: { 'content-type': photo.type } };
  }
  return null;
}

/** The answer for a request to one of Naver's hosts, or null (not a page the fixture has). */
export async function serveNaver(request: NaverRequest, state: NaverState): Promise<NaverResponse | null> {
  const { host } = request;
  // The pages' scripts are the demo server's bundles (/assets/), on every host.
  if (request.url.pathname.startsWith('/assets/')) return null;
  if (host === 'blog.naver.com' || host === 'cafe.naver.com') {
    const signedIn = signIn(request);
    if (signedIn) return signedIn;
    return host === 'blog.naver.com' ? naverBlog(request, state) : naverCafe(request, state);
  }
  if (host === 'apis.cafe.naver.com') return cafeApi(request, state);
  if ((NAVER_HOSTS as readonly string[]).includes(host)) return photos(request, state);
  return null;
}
