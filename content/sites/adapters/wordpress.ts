/**
 * WordPress's block editor (Gutenberg) on any self-hosted site: /wp-admin/post-new.php and
 * /wp-admin/post.php pages whose body has the class block-editor-page.
 *
 * Checked 2026-11-30 against Gutenberg's own source (WordPress/gutenberg, packages/editor):
 * - post-title/constants.js: the title is an h1 contenteditable with the classes
 *   "editor-post-title editor-post-title__input wp-block-post-title"; in the iframed editor it
 *   is inside iframe[name="editor-canvas"] (same-origin), as public e2e suites select it.
 * - post-publish-panel/toggle.js and post-publish-button: the header's "Publish…" is
 *   .editor-post-publish-panel__toggle (it only opens the pre-publish panel); the button that
 *   publishes is .editor-post-publish-button (both carry .editor-post-publish-button__button, so
 *   that class is not used). With the pre-publish panel turned off, the header button is the
 *   publishing one.
 * - post-saved-state: "Save draft" is .editor-post-save-draft.
 * - The body: the block list (.is-root-container / .block-editor-block-list__layout); each block
 *   is its own contenteditable, so Tether reads and writes the first text block.
 * - wp-admin pages are only served signed in (body.wp-admin); the admin bar's
 *   #wp-admin-bar-my-account .display-name names the account (hidden in full-screen mode, still
 *   in the DOM).
 * Not covered: wordpress.com's editor, which frames the block editor from another origin.
 */
import type { SiteAdapter } from '../../siteAdapter.ts';
import { WORDPRESS } from './claims.ts';

export const wordpressAdapter: SiteAdapter = {
  ...WORDPRESS,
  checked: '2026-11-30',
  markers: ['body.block-editor-page'],
  frames: ['iframe[name="editor-canvas"]'],
  signIn: {
    signedIn: ['body.wp-admin'],
    signedOut: [],
    account: ['#wp-admin-bar-my-account .display-name'],
  },
  fields: [
    { name: 'title', label: 'Title', selectors: ['.editor-post-title__input', 'h1.wp-block-post-title'] },
    { name: 'body', label: 'Post content', selectors: ['.is-root-container', '.block-editor-block-list__layout'], draftIfNonEmpty: true },
  ],
  actions: [
    { name: 'publish_settings', kind: 'other', label: 'Publish… (opens the pre-publish panel)', selectors: ['.editor-post-publish-panel__toggle'] },
    { name: 'publish', kind: 'publish', label: 'Publish', selectors: ['button.editor-post-publish-button'] },
    { name: 'save_draft', kind: 'save_draft', label: 'Save draft', selectors: ['.editor-post-save-draft'] },
  ],
  readable: [],
  draft: { banners: [] },
};
