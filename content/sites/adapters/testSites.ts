/**
 * Adapters for the bundled demo sites (e2e/sites): a blog and a cafe (community board), each
 * with sign-in, an account name, a post editor, and autosaved drafts. Test fixtures: only the
 * test build carries them (vite.config.ts, content/sites/adapters/index.ts).
 */
import type { SiteAdapter } from '../../siteAdapter.ts';

export const testBlogAdapter: SiteAdapter = {
  // The same claim as claims.ts's TEST_BLOG, written out: a spread would keep this object in the
  // product build, where it must be dropped as dead code.
  id: 'test-blog',
  hosts: ['blog.localhost'],
  checked: '2026-11-30',
  signIn: {
    signedIn: ['.account-name'],
    signedOut: ['a.sign-in'],
    account: ['.account-name'],
  },
  fields: [
    { name: 'title', label: 'Post title', selectors: ['#post-title'] },
    {
      name: 'body',
      label: 'Post body',
      selectors: ['iframe#post-body-frame', '#post-body'],
      draftIfNonEmpty: true,
    },
    { name: 'category', label: 'Category', selectors: ['#post-category'] },
    { name: 'tags', label: 'Tags', selectors: ['#post-tags'] },
  ],
  actions: [
    { name: 'publish', kind: 'publish', label: 'Publish', selectors: ['#publish-button'] },
    { name: 'save_draft', kind: 'save_draft', label: 'Save draft', selectors: ['#save-draft-button'] },
  ],
  readable: [
    { name: 'post.title', selectors: ['.post-title'] },
    { name: 'post.body', selectors: ['.post-body'] },
  ],
  draft: { banners: ['.draft-banner'] },
};

export const testCafeAdapter: SiteAdapter = {
  id: 'test-cafe',
  hosts: ['cafe.localhost'],
  checked: '2026-11-30',
  signIn: {
    signedIn: ['.member-nick'],
    signedOut: ['a.login-link'],
    account: ['.member-nick'],
  },
  fields: [
    { name: 'title', label: 'Subject', selectors: ['#subject'] },
    { name: 'body', label: 'Content', selectors: ['#content'], draftIfNonEmpty: true },
    { name: 'board', label: 'Board', selectors: ['#board'] },
    { name: 'comment', label: 'Comment', selectors: ['#comment'] },
  ],
  actions: [
    { name: 'register', kind: 'submit', label: 'Register post', selectors: ['#register-button'] },
    { name: 'save_draft', kind: 'save_draft', label: 'Save temporarily', selectors: ['#temp-save-button'] },
    { name: 'post_comment', kind: 'submit', label: 'Post comment', selectors: ['#comment-button'] },
  ],
  readable: [
    { name: 'post.title', selectors: ['.article-title'] },
    { name: 'post.body', selectors: ['.article-content'] },
  ],
  draft: { banners: ['.temp-saved-notice'] },
};

export const testSiteAdapters: readonly SiteAdapter[] = [testBlogAdapter, testCafeAdapter];
