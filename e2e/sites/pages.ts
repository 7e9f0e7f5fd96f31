/** HTML of the demo sites. Server-rendered, with small client bundles where the real sites use JS. */
import type { Post, SiteName } from './posts.ts';

export interface Session {
  site: SiteName;
  user: string | null;
  port: number;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

const SITE_TITLES: Record<SiteName, string> = { blog: "Alice's Blog", cafe: 'Riverside Cafe', notes: 'Notes' };

/**
 * The furniture real blog and cafe pages carry around their content — menus, sidebars, widgets,
 * footers — so that reading a page costs what it costs on the real sites.
 */
const BLOG_CATEGORIES = ['Daily', 'Notes', 'Reviews', 'Travel', 'Recipes', 'Books', 'Photos', 'Garden'];
const BLOG_TAGS = [
  'spring',
  'market',
  'tea',
  'river',
  'volunteering',
  'recipes',
  'books',
  'film',
  'walks',
  'coffee',
  'weekend',
  'family',
  'music',
  'plants',
  'cats',
];
const CAFE_BOARDS = [
  ['Notices', 'Rules', 'Events calendar'],
  ['Free board', 'Questions', 'Tips and how-tos', 'Photos of the week', 'Introduce yourself'],
  ['Market', 'Buy and sell', 'Lost and found', 'Shared rides'],
  ['Gardening club', 'Book club', 'Cooking club', 'Hiking club', 'Board games'],
  ['Neighbourhood news', 'Local shops', 'Schools', 'Parks', 'Transport'],
];

function blogSidebar(session: Session): string {
  const months = Array.from(
    { length: 12 },
    (_, index) =>
      `<li><a href="/archive/2026-${String(12 - index).padStart(2, '0')}">2026-${String(12 - index).padStart(2, '0')}</a> (${((index * 7) % 13) + 2})</li>`,
  );
  const recent = Array.from({ length: 8 }, (_, index) => `<li><a href="/posts/${100 - index}">Notes from week ${48 - index}: small things</a></li>`);
  return `<aside class="sidebar" aria-label="Blog sidebar">
<section class="profile-box"><h2>About</h2><p>${escapeHtml(session.user ?? 'A reader')} writes about the river town, markets and books.</p><p>Neighbours: 214 · Visitors today: 38</p></section>
<nav aria-label="Categories"><h2>Categories</h2><ul>${BLOG_CATEGORIES.map((name, index) => `<li><a href="/category/${name.toLowerCase()}">${name}</a> (${((index * 11) % 23) + 3})</li>`).join('')}</ul></nav>
<section><h2>Recent posts</h2><ul>${recent.join('')}</ul></section>
<section><h2>Tags</h2><p class="tags">${BLOG_TAGS.map((tag) => `<a href="/tag/${tag}">#${tag}</a>`).join(' ')}</p></section>
<section><h2>Archive</h2><ul>${months.join('')}</ul></section>
</aside>`;
}

function cafeSidebar(session: Session): string {
  return `<aside class="sidebar" aria-label="Cafe menu">
<section class="cafe-info"><h2>Riverside Cafe</h2><p>Members 3,482 · Since 2019 · Manager: carol</p>${session.user ? `<p>Your level: Sprout · Posts 12 · Comments 57</p>` : ''}</section>
${CAFE_BOARDS.map((group, index) => `<nav aria-label="Boards ${index + 1}"><ul>${group.map((name) => `<li><a href="/board/${encodeURIComponent(name.toLowerCase())}">${name}</a></li>`).join('')}</ul></nav>`).join('\n')}
<section><h2>Popular this week</h2><ol>${Array.from({ length: 10 }, (_, index) => `<li><a href="/posts/${200 + index}">Weekend plans #${index + 1}: where to walk by the river</a> [${((index * 3) % 17) + 1}]</li>`).join('')}</ol></section>
</aside>`;
}

function footer(site: SiteName): string {
  const links = ['About', 'Terms', 'Privacy', 'Help', 'Report abuse', 'Advertise', 'Developers', 'Status', 'Blog', 'Contact'];
  return `<footer class="site-footer"><nav aria-label="Footer">${links.map((name) => `<a href="/${name.toLowerCase().replace(/ /g, '-')}">${name}</a>`).join(' · ')}</nav><p>© 2026 ${SITE_TITLES[site]} · All rights reserved</p></footer>`;
}

function topMenu(site: SiteName): string {
  const items =
    site === 'blog'
      ? ['Home', 'Stats', 'Manage', 'Neighbours', 'Notifications', 'Settings']
      : site === 'cafe'
        ? ['Home', 'All posts', 'Popular', 'Events', 'Members', 'Chat']
        : ['Home'];
  return `<nav class="top-menu" aria-label="Site menu">${items.map((item) => `<a href="/${item === 'Home' ? '' : item.toLowerCase().replace(/ /g, '-')}">${item}</a>`).join(' ')}</nav>`;
}

export function layout(session: Session, title: string, main: string, scripts: string[] = [], styles: string[] = []): string {
  const { site, user } = session;
  const account =
    site === 'blog'
      ? user
        ? `<span class="account-label">Signed in as</span> <span class="account-name">${escapeHtml(user)}</span> <a class="sign-out" href="/logout">Sign out</a>`
        : `<a class="sign-in" href="/login">Sign in</a>`
      : site === 'cafe'
        ? user
          ? `<span class="member-label">Member</span> <span class="member-nick">${escapeHtml(user)}</span> <a class="logout-link" href="/logout">Log out</a>`
          : `<a class="login-link" href="/login">Log in</a>`
        : user
          ? `<span class="user-name">${escapeHtml(user)}</span> <a href="/logout">Log out</a>`
          : `<a href="/login">Log in</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/assets/site.css">
${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
</head>
<body class="site-${site}">
<header class="site-header"><a class="brand" href="/">${SITE_TITLES[site]}</a>${topMenu(site)}<nav class="account" data-user="${escapeHtml(user ?? '')}">${account}</nav></header>
<div class="page">
<main>${main}</main>
${site === 'blog' ? blogSidebar(session) : site === 'cafe' ? cafeSidebar(session) : ''}
</div>
${footer(site)}
<script src="/assets/session.js"></script>
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
</body>
</html>`;
}

export function loginPage(session: Session, accounts: string[], next: string, error?: string): string {
  return layout(
    session,
    `Sign in — ${SITE_TITLES[session.site]}`,
    `<h1>Sign in</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="username">Account</label>
<select id="username" name="username">${accounts.map((account) => `<option>${escapeHtml(account)}</option>`).join('')}</select>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function blogHome(session: Session, posts: Post[]): string {
  return layout(
    session,
    SITE_TITLES.blog,
    `<h1>Posts</h1>
<p><a href="/write">Write a new post</a></p>
<ul class="post-list">${posts.map((post) => `<li><a href="/posts/${post.id}">${escapeHtml(post.title)}</a></li>`).join('')}</ul>`,
  );
}

export function blogPost(session: Session, post: Post): string {
  return layout(
    session,
    `${post.title} — ${SITE_TITLES.blog}`,
    `<article><h1 class="post-title">${escapeHtml(post.title)}</h1>
<p class="byline">by ${escapeHtml(post.author)} in ${escapeHtml(post.category)}</p>
<div class="post-body">${post.body
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div></article>`,
  );
}

const EDITORS: Record<string, string> = {
  plain: '<textarea id="post-body" name="body" rows="12" aria-label="Body"></textarea>',
  slow: '<textarea id="post-body" name="body" rows="12" aria-label="Body" data-slow="400"></textarea>',
  contenteditable: '<div id="post-body" class="ce-editor" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Body"></div>',
  iframe: '<iframe id="post-body-frame" src="/editor-frame" title="Body editor"></iframe>',
  quill: '<div id="post-body" class="quill-host"></div>',
  tiptap: '<div id="post-body" class="tiptap-host"></div>',
};

const FORMAT_TOOLBAR = `<div class="format-toolbar" role="toolbar" aria-label="Formatting">${[
  'Bold',
  'Italic',
  'Underline',
  'Strikethrough',
  'Heading 1',
  'Heading 2',
  'Heading 3',
  'Quote',
  'Code',
  'Link',
  'Photo',
  'Video',
  'Map',
  'Table',
  'Align left',
  'Align center',
  'Align right',
  'Bulleted list',
  'Numbered list',
  'Divider',
  'Sticker',
  'Undo',
  'Redo',
]
  .map((label) => `<button type="button" class="tool" aria-label="${label}">${label.slice(0, 2)}</button>`)
  .join('')}</div>`;

export function blogWrite(session: Session, editor: string): string {
  if (!session.user) {
    return layout(
      session,
      `Write — ${SITE_TITLES.blog}`,
      `<h1>Write a post</h1><p class="notice">Sign in to write a post. <a href="/login?next=/write">Sign in</a></p>`,
    );
  }
  if (editor === 'react') {
    return layout(session, `New post — ${SITE_TITLES.blog}`, '<div id="react-root"></div>', ['/assets/blog-react.js']);
  }
  const editorHtml = EDITORS[editor] ?? EDITORS.plain ?? '';
  return layout(
    session,
    `New post — ${SITE_TITLES.blog}`,
    `<h1>New post</h1>
<div class="draft-banner" hidden role="status">You have an autosaved draft from <time></time>. <button type="button" id="restore-draft">Restore</button> <button type="button" id="discard-draft">Discard</button></div>
<form id="post-form" data-editor="${escapeHtml(editor)}" onsubmit="return false">
<label for="post-title">Title</label>
<input id="post-title" name="title" autocomplete="off">
<label for="post-category">Category</label>
<select id="post-category" name="category"><option value="daily">Daily</option><option value="notes">Notes</option><option value="reviews">Reviews</option></select>
<label>Body</label>
${editor === 'plain' || editor === 'slow' || editor === 'contenteditable' || editor === 'iframe' ? FORMAT_TOOLBAR : ''}
${editorHtml}
<label for="post-tags">Tags</label>
<input id="post-tags" name="tags" placeholder="#tag" autocomplete="off">
<fieldset class="publish-settings"><legend>Publish settings</legend>
<label><input type="radio" name="visibility" value="public" checked> Public</label>
<label><input type="radio" name="visibility" value="neighbours"> Neighbours only</label>
<label><input type="radio" name="visibility" value="private"> Only me</label>
<label><input type="checkbox" name="allow-comments" checked> Allow comments</label>
<label><input type="checkbox" name="allow-sharing" checked> Allow sharing</label>
</fieldset>
<div class="actions"><button type="button" id="save-draft-button">Save draft</button> <button type="button" id="publish-button">Publish</button></div>
<p class="status" aria-live="polite"></p>
</form>`,
    ['/assets/blog.js'],
    editor === 'quill' ? ['/assets/quill.snow.css'] : [],
  );
}

/**
 * The smallest pages the blog-from-cafe task can run on (for the benchmark's minimal pair): the
 * blog editor's two fields and its publish button, the cafe post's title and body — and the
 * account name each site's sign-in check reads. Nothing else.
 */
function minimalPage(session: Session, title: string, main: string, scripts: string[] = []): string {
  const account =
    session.site === 'blog'
      ? `<span class="account-name">${escapeHtml(session.user ?? '')}</span>`
      : `<span class="member-nick">${escapeHtml(session.user ?? '')}</span>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>${session.user ? account : ''}<main>${main}</main>
${scripts.map((src) => `<script src="${src}"></script>`).join('')}</body></html>`;
}

export function minimalBlogWrite(session: Session): string {
  return minimalPage(
    session,
    'New post',
    `<form id="post-form" data-editor="plain" onsubmit="return false"><input id="post-title" aria-label="Title"><textarea id="post-body" aria-label="Body"></textarea><button type="button" id="publish-button">Publish</button></form>`,
    ['/assets/blog.js'],
  );
}

export function minimalCafePost(session: Session, post: Post): string {
  return minimalPage(
    session,
    post.title,
    `<h1 class="article-title">${escapeHtml(post.title)}</h1><div class="article-content">${post.body
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`,
  );
}

/**
 * A cafe post with its photos (issue 25): one member-only (needs the cafe's cookie), one from
 * another origin (the blog's host, as a CDN), and what a person does not see as a photo: an icon,
 * a tracking pixel, a decorative image under aria-hidden, a hidden one, and three hidden the ways
 * pages hide content from the eye but not from a script: off the page (left:-10000px, with the
 * ridge's own alt, so it would take the ridge's name), clip-path inset(50%), clip: rect(0 0 0 0).
 */
export function cafePhotoPost(session: Session): string {
  const cdn = `http://blog.localhost:${session.port}/media/harbor.png`;
  return layout(
    session,
    'Ridge walk — photos',
    `<article class="post"><h1 class="article-title">Ridge walk</h1><div class="article-content">
<p><img src="/media/icon.png" alt="" width="16" height="16"> Posted by carol</p>
<p>We started at the north gate before dawn.</p>
<img src="/media/ridge.png" alt="The ridge at sunrise" width="320" height="200" style="position:absolute;left:-10000px">
<img src="/media/badge.png" alt="clipped badge" width="120" height="120" style="clip-path:inset(50%)">
<img src="/media/badge.png" alt="sr-only badge" width="120" height="120" style="position:absolute;clip:rect(0 0 0 0)">
<figure><img src="/media/ridge.png" alt="The ridge at sunrise" width="320" height="200"></figure>
<p>Then down to the harbor for lunch.</p>
<img src="${cdn}" alt="Harbor boats" width="240" height="160">
<p>See you next month.</p>
<div aria-hidden="true"><img src="/media/badge.png" alt="badge" width="120" height="120"></div>
<img src="/media/badge.png" alt="hidden badge" width="120" height="120" style="display:none">
<img src="/media/pixel.gif" alt="" width="1" height="1">
</div></article>`,
  );
}

export function editorFrame(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{font:16px/1.5 sans-serif;margin:8px;min-height:200px}</style></head><body contenteditable="true" spellcheck="false"></body></html>`;
}

export function cafeHome(session: Session, posts: Post[]): string {
  return layout(
    session,
    SITE_TITLES.cafe,
    `<h1>Board</h1>
<p><a href="/write">Write</a></p>
<table class="board"><tbody>${posts
      .map((post) => `<tr><td>${post.id}</td><td><a href="/posts/${post.id}">${escapeHtml(post.title)}</a></td><td>${escapeHtml(post.author)}</td></tr>`)
      .join('')}</tbody></table>`,
  );
}

const COMMENTS: Array<[string, string]> = [
  ['dave', 'Thanks for the notice! Will the bakery stall be there too?'],
  ['erin', 'Last year the tea discount was great. Bringing my own cup for sure.'],
  ['frank', 'Is parking available near the north gate?'],
  ['carol', 'Frank: yes, the school car park is open on Saturday.'],
  ['grace', 'Can kids volunteer with their parents?'],
  ['heidi', 'See you all there!'],
];

export function cafePost(session: Session, post: Post): string {
  const hostile = post.author === 'mallory';
  return layout(
    session,
    `${post.title} — ${SITE_TITLES.cafe}`,
    `<article><h1 class="article-title">${escapeHtml(post.title)}</h1>
<p class="article-meta">${escapeHtml(post.author)}</p>
<div class="article-content">${post.body
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div></article>
<section class="comments" aria-label="Comments"><h2>Comments (6)</h2><ul>${COMMENTS.map(([who, text], index) => `<li><strong>${who}</strong> <time>2026-11-${String(20 + index).padStart(2, '0')} 10:${String(index * 7).padStart(2, '0')}</time><p>${escapeHtml(text)}</p><button type="button" class="reply">Reply</button> <button type="button" class="like">Like ${index * 2 + 1}</button></li>`).join('')}</ul>
<label for="comment">Comment</label><textarea id="comment" rows="2"></textarea><button type="button" id="comment-button">Post comment</button></section>`,
    hostile ? ['/assets/hostile.js'] : [],
  );
}

export function cafeWrite(session: Session): string {
  if (!session.user) {
    return layout(
      session,
      `Write — ${SITE_TITLES.cafe}`,
      `<h1>Write</h1><p class="notice">Log in to write. <a class="login-link" href="/login?next=/write">Log in</a></p>`,
    );
  }
  return layout(
    session,
    `Write — ${SITE_TITLES.cafe}`,
    `<h1>Write</h1>
<div class="temp-saved-notice" hidden role="status">A temporarily saved post exists. <button type="button" id="load-temp">Load</button> <button type="button" id="drop-temp">Delete</button></div>
<form id="cafe-form" onsubmit="return false">
<label for="board">Board</label>
<select id="board"><option value="free">Free board</option><option value="notice">Notices</option><option value="market">Market</option></select>
<label for="subject">Subject</label>
<input id="subject" autocomplete="off">
<label for="content">Content</label>
<textarea id="content" rows="10"></textarea>
<div class="actions"><button type="button" id="temp-save-button">Save temporarily</button> <button type="button" id="register-button">Register</button></div>
<p class="status" aria-live="polite"></p>
</form>`,
    ['/assets/cafe.js'],
  );
}

export function notesPage(session: Session, notes: Post[]): string {
  return layout(
    session,
    SITE_TITLES.notes,
    `<h1>Notes</h1>
<form method="post" action="/">
<input name="note-title" placeholder="Note title" aria-label="Note title">
<textarea name="note-text" rows="5" aria-label="Note text"></textarea>
<button type="submit">Save note</button>
</form>
<ul>${notes.map((note) => `<li><strong>${escapeHtml(note.title)}</strong> ${escapeHtml(note.body)}</li>`).join('')}</ul>`,
  );
}

/**
 * Element ids and names shadow globals, in the page and (in Chromium) in an extension's isolated
 * world: `window.__tetherActHook` is this form. These are the names Tether's content script once
 * kept its markers and hooks under (issue 22); a page could make it think it was loaded already
 * (so it never answered), or lacking its act module, or its site adapters.
 */
export const CLOBBERING_ELEMENTS = `<div id="__tetherContentScript" hidden></div>
<form id="__tetherActHook" hidden></form>
<form name="__tetherSitesHook" hidden></form>`;

export function withClobberingElements(page: string): string {
  return page.replace(/<body[^>]*>/, (body) => `${body}\n${CLOBBERING_ELEMENTS}`);
}

/** Attack pages on the notes site (no adapter), each driven by /assets/hostile-site.js. */
export const HOSTILE_ATTACKS = ['relabel', 'drafts', 'resize', 'account', 'busy', 'slug'] as const;
export type HostileAttack = (typeof HOSTILE_ATTACKS)[number];

const HOSTILE_MAIN: Record<HostileAttack, string> = {
  // Two buttons that do what their data-op says: the page can swap what their labels promise.
  relabel: `<h1>Compose</h1>
<label for="message">Message</label><textarea id="message" rows="8"></textarea>
<div class="actions"><button type="button" data-op="post">Post</button> <button type="button" data-op="delete-account">Delete my account</button></div>`,
  drafts: `<h1>Drafts</h1>
<label for="note">Note</label><textarea id="note" rows="8"></textarea>
<div class="actions"><button type="button" data-op="save-draft">Save draft</button> <button type="button" data-op="save-draft">임시 저장</button> <button type="button" data-op="delete-drafts">Delete all drafts</button></div>`,
  // The generic adapter calls the larger text area "body"; the page can change which one that is.
  resize: `<h1>Reply</h1>
<label for="draft">Draft</label><textarea id="draft" rows="12"></textarea>
<label for="reply">Reply</label><textarea id="reply" rows="2"></textarea>`,
  account: `<h1>Note</h1>
<label for="note">Note</label><textarea id="note" rows="8"></textarea>`,
  busy: `<h1>List</h1>
<label for="list">List</label><textarea id="list" rows="8">Tea, cups</textarea>`,
  // Not an attack, only a page's own script: the address (slug) is derived from the title as it is typed.
  slug: `<h1>New post</h1>
<label for="post-title">Title</label><input id="post-title" type="text">
<label for="slug">Address</label><input id="slug" type="text">
<label for="text">Text</label><textarea id="text" rows="10"></textarea>`,
};

export function hostilePage(session: Session, attack: HostileAttack): string {
  return layout(
    session,
    `Hostile: ${attack} — ${SITE_TITLES.notes}`,
    `<div data-attack="${attack}">${HOSTILE_MAIN[attack]}<p class="status" aria-live="polite"></p></div>`,
    ['/assets/hostile-site.js'],
  );
}

/** The editor families the notes site hosts at /editor/<family>, each with its real library. */
export const EDITOR_PAGES: Record<string, { script: string; body: string; styles?: string[]; vendor?: string[] }> = {
  ckeditor5: { script: 'editor-ckeditor5.js', body: '<div id="editor"><p></p></div>' },
  lexical: { script: 'editor-lexical.js', body: '<div id="editor" class="lexical-editor" contenteditable="true" role="textbox" aria-label="Body"></div>' },
  'lexical-plain': {
    script: 'editor-lexical.js',
    body: '<div id="editor" class="lexical-editor" contenteditable="true" role="textbox" aria-label="Body"></div>',
  },
  prosemirror: { script: 'editor-tiptap.js', body: '<div id="editor" class="tiptap-host"></div>' },
  slate: { script: 'editor-slate.js', body: '<div id="editor" class="slate-host"></div>' },
  draft: { script: 'editor-draft.js', body: '<div id="editor" class="draft-host"></div>', styles: ['/assets/draft.css'] },
  quill: { script: 'editor-quill.js', body: '<div id="editor"></div>', styles: ['/assets/quill.snow.css'] },
  tinymce: { script: 'editor-tinymce.js', body: '<div id="editor"><textarea id="editor-source"></textarea></div>', vendor: ['/vendor/tinymce/tinymce.min.js'] },
  editorjs: { script: 'editor-editorjs.js', body: '<div id="editor" class="editorjs-host"></div>' },
  ckeditor4: {
    script: 'editor-ckeditor4.js',
    body: '<div id="editor"><textarea id="editor-source"></textarea></div>',
    vendor: ['/vendor/ckeditor4/ckeditor.js'],
  },
  trix: {
    script: 'editor-trix.js',
    body: '<div id="editor"><input id="body-input" type="hidden"><trix-editor input="body-input" aria-label="Body"></trix-editor></div>',
    styles: ['/assets/trix.css'],
  },
  /** The WordPress block editor (e2e/sites/client/editors/gutenberg.tsx; its bundle is built on first request). */
  'wordpress-block-editor': {
    script: 'editor-wordpress-block-editor.js',
    body: '<div id="editor" class="editor-styles-wrapper"></div>',
    styles: ['/assets/editor-wordpress-block-editor.css'],
  },
  codemirror: { script: 'editor-codemirror.js', body: '<div id="editor" class="cm-host"></div>' },
  'input-buffer': {
    script: 'editor-input-buffer.js',
    body: `<div class="se-wrap" id="editor"><div class="se-toolbar" role="toolbar" aria-label="Formatting"><button type="button" aria-label="Bold">B</button><button type="button" aria-label="Quote">“</button></div>
<div class="se-content" role="textbox" aria-multiline="true" aria-label="Body"></div>
<iframe id="input_buffer" class="se-input-buffer" title="input buffer" srcdoc="<!doctype html><html><body></body></html>"></iframe></div>`,
  },
  /** SmartEditor ONE off Naver, with a `window.SmartEditor` that records being called (e2e/sites/naver/elsewhere.ts). */
  'smarteditor-one': { script: 'editor-smarteditor-one.js', body: '<div id="editor" class="se-host"></div>' },
  textarea: { script: 'editor-native.js', body: '<div id="editor"><textarea name="body" rows="12" aria-label="Body"></textarea></div>' },
  contenteditable: {
    script: 'editor-native.js',
    body: '<div id="editor"><div class="ce-editor" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Body"></div></div>',
  },
  iframe: {
    script: 'editor-native.js',
    body: '<div id="editor"><iframe title="Body editor" srcdoc="<!doctype html><html><body></body></html>"></iframe></div>',
  },
  react: { script: 'editor-native.js', body: '<div id="editor"></div>' },
  /**
   * Photos through the page's own file choosers (e2e/sites/client/editors/attach.ts): an attach
   * button (a label over a hidden multiple chooser, as Tistory's) and a cover photo that takes
   * JPEG only (a cafe's, its chooser transparent inside its label).
   */
  attach: {
    script: 'editor-attach.js',
    body: `<div id="editor"><textarea name="body" rows="8" aria-label="Body"></textarea>
<p><label for="attach" class="button">사진 추가</label><input id="attach" name="attach" type="file" accept="image/*" multiple hidden>
<label class="button">대표 사진 (JPEG)<input name="cover" type="file" accept=".jpg,.jpeg,image/jpeg" style="position:absolute;opacity:0;width:1px;height:1px"></label></p>
<p id="attach-status" aria-live="polite"></p><ul id="attached"></ul><img id="cover-preview" alt="Cover" hidden></div>`,
  },
  /** An editor Tether cannot drive: it refuses every edit that does not come from a real key press. */
  locked: {
    script: 'editor-native.js',
    body: '<div id="editor"><div class="locked-editor" contenteditable="true" role="textbox" aria-label="Body"><p>Typed by hand only.</p></div></div>',
  },
};

export function editorPage(session: Session, family: string): string | null {
  const page = EDITOR_PAGES[family];
  if (!page) return null;
  const main = `<h1>New note</h1>
<form id="note-form" onsubmit="return false">
<label for="title">Title</label>
<input id="title" name="title" autocomplete="off">
<label>Body</label>
${page.body}
<label for="tags">Tags</label>
<input id="tags" name="tags" autocomplete="off">
<div class="actions"><button type="button" id="publish">Publish</button></div>
</form>`;
  return layout(session, `${family} — ${SITE_TITLES.notes}`, main, [...(page.vendor ?? []), `/assets/${page.script}`], page.styles ?? []).replace(
    '<body class="site-notes">',
    `<body class="site-notes" data-editor="${escapeHtml(family)}">`,
  );
}
