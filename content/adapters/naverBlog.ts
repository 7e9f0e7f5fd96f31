/**
 * Naver Blog (blog.naver.com), written in SmartEditor ONE.
 *
 * Checked 2026-11-30 against public automation of the live site (there is no Naver account here,
 * so not against the site itself):
 * - Johnhyeon/naver-blog-mcp, src/naver_blog_mcp/selectors.py ("measured 2026-08-25"): the editor
 *   lives in the same-origin iframe #mainFrame of blog.naver.com/{id}?Redirect=Write; title
 *   [data-a11y-title="제목"] / .se-documentTitle; body components .se-component.se-text; the
 *   header's 발행 button[data-click-area="tpb.publish"] only opens the publish panel, whose
 *   button[data-testid="seOnePublishBtn"] publishes (the panel is not in the DOM until opened);
 *   저장 button[data-click-area="tpb.save"]; tags input#tag-input inside the panel. It also
 *   found the sign-in marks (a[href*="nidlogin.logout"], #gnb_logout_button) present but hidden
 *   even when signed in; the editor and its 발행 button are only served to the signed-in owner.
 * - Public scrapers of post pages (div.se-main-container for the body, .se-title-text / .pcol1
 *   for the title; #postViewArea on old posts).
 * Not checked: the account name on the editor page (.gnb_name / #gnb_name1, the Naver bar's
 * nickname as public Naver Cafe automation reads it), and the autosaved-draft prompt.
 */
import type { SiteAdapter } from '../siteAdapter.ts';
import { NAVER_BLOG } from './claims.ts';

export const naverBlogAdapter: SiteAdapter = {
  ...NAVER_BLOG,
  checked: '2026-11-30',
  frames: ['iframe#mainFrame'],
  signIn: {
    signedIn: ['button[data-click-area="tpb.publish"]', '.gnb_name', '#gnb_name1'],
    signedOut: ['#gnb_login_button', 'a[href*="nidlogin.login"]'],
    account: ['.gnb_name', '#gnb_name1'],
  },
  fields: [
    { name: 'title', label: '제목 (title)', selectors: ['[data-a11y-title="제목"]', '.se-documentTitle'] },
    // The whole document but its title: SmartEditor ONE keeps the body as a list of components.
    // Title and body share one document and one input buffer, so both are read, not written
    // (content/editables.ts): the buffer driver would select and type over the whole document.
    { name: 'body', label: '본문 (body)', selectors: ['.se-components-wrap'], draftIfNonEmpty: true },
    { name: 'tags', label: '태그 (tags)', selectors: ['input#tag-input'] },
  ],
  actions: [
    {
      name: 'publish_settings',
      kind: 'other',
      label: '발행 설정 열기 (opens the publish panel)',
      selectors: ['button[data-click-area="tpb.publish"]', 'button[class*="publish_btn"]'],
    },
    {
      name: 'publish',
      kind: 'publish',
      label: '발행 (publish)',
      selectors: ['button[data-testid="seOnePublishBtn"]', 'button[data-click-area="tpb*i.publish"]'],
    },
    { name: 'save_draft', kind: 'save_draft', label: '저장 (save draft)', selectors: ['button[data-click-area="tpb.save"]', 'button[class*="save_btn"]'] },
  ],
  readable: [
    { name: 'post.title', selectors: ['.se-title-text', '.pcol1'] },
    { name: 'post.body', selectors: ['.se-main-container', '#postViewArea'] },
  ],
  draft: { banners: [] },
};
