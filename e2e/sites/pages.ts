/** HTML of the demo sites. Server-rendered, with small client bundles where the real sites use JS. */
import type { Post, SiteName } from './server.ts';

export interface Session {
  site: SiteName;
  user: string | null;
  port: number;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

const SITE_TITLES: Record<SiteName, string> = { blog: "Alice's Blog", cafe: 'Riverside Cafe', notes: 'Notes' };

function layout(session: Session, title: string, main: string, scripts: string[] = [], styles: string[] = []): string {
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
<header class="site-header"><a class="brand" href="/">${SITE_TITLES[site]}</a><nav class="account" data-user="${escapeHtml(user ?? '')}">${account}</nav></header>
<main>${main}</main>
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
<div class="post-body">${post.body.split('\n').map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div></article>`,
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

export function blogWrite(session: Session, editor: string): string {
  if (!session.user) {
    return layout(session, `Write — ${SITE_TITLES.blog}`, `<h1>Write a post</h1><p class="notice">Sign in to write a post. <a href="/login?next=/write">Sign in</a></p>`);
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
${editorHtml}
<div class="actions"><button type="button" id="save-draft-button">Save draft</button> <button type="button" id="publish-button">Publish</button></div>
<p class="status" aria-live="polite"></p>
</form>`,
    ['/assets/blog.js'],
    editor === 'quill' ? ['/assets/quill.snow.css'] : [],
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

export function cafePost(session: Session, post: Post): string {
  const hostile = post.author === 'mallory';
  return layout(
    session,
    `${post.title} — ${SITE_TITLES.cafe}`,
    `<article><h1 class="article-title">${escapeHtml(post.title)}</h1>
<p class="article-meta">${escapeHtml(post.author)}</p>
<div class="article-content">${post.body.split('\n').map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div></article>
<section class="comments"><label for="comment">Comment</label><textarea id="comment" rows="2"></textarea><button type="button" id="comment-button">Post comment</button></section>`,
    hostile ? ['/assets/hostile.js'] : [],
  );
}

export function cafeWrite(session: Session): string {
  if (!session.user) {
    return layout(session, `Write — ${SITE_TITLES.cafe}`, `<h1>Write</h1><p class="notice">Log in to write. <a class="login-link" href="/login?next=/write">Log in</a></p>`);
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
