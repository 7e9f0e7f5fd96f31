/**
 * Where each site adapter applies: its id, hosts and paths, and nothing else. Every page carries
 * this list, to know whether it should ask for the site adapters (content-sites.js); the adapters
 * themselves (selectors, labels) stay out of pages they do not claim.
 */
import type { SiteClaim } from '../../siteAdapter.ts';

/** Set by the build (vite.config.ts): true only in the test build, never in the product. */
declare const __TETHER_TEST_SITES__: boolean;

export const NAVER_BLOG: SiteClaim = { id: 'naver-blog', hosts: ['blog.naver.com'] };
export const NAVER_CAFE: SiteClaim = { id: 'naver-cafe', hosts: ['cafe.naver.com'] };
export const TISTORY: SiteClaim = { id: 'tistory', hosts: ['.tistory.com'], paths: ['/manage/newpost', '/manage/post'] };
/** Self-hosted anywhere: the adapter also needs its marker on the page (body.block-editor-page). */
export const WORDPRESS: SiteClaim = { id: 'wordpress', hosts: ['*'], paths: ['/wp-admin/post-new.php', '/wp-admin/post.php'] };
/** The demo sites (e2e/sites): test build only. */
export const TEST_BLOG: SiteClaim = { id: 'test-blog', hosts: ['blog.localhost'] };
export const TEST_CAFE: SiteClaim = { id: 'test-cafe', hosts: ['cafe.localhost'] };

export const SITE_CLAIMS: readonly SiteClaim[] = [NAVER_BLOG, NAVER_CAFE, TISTORY, WORDPRESS, ...(__TETHER_TEST_SITES__ ? [TEST_BLOG, TEST_CAFE] : [])];
