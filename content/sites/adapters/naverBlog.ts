/**
 * Naver Blog (blog.naver.com), written in SmartEditor ONE.
 *
 * Checked 2026-12-01 against public automation of the live site (there is no Naver account here,
 * so not against the site itself; the sources and their ratings: e2e/sites/naver/SOURCES.md):
 * - The editor lives in the same-origin iframe #mainFrame (PostWriteForm.naver) of
 *   blog.naver.com/{id}?Redirect=Write, its object at SmartEditor._editors.blogpc001 (CSH
 *   spike/findings.md 2026-08-28, FDX, SNS, AIC, CPL). Title and body are parts of one document:
 *   the title component .se-documentTitle ([data-a11y-title="제목"]), the body every other
 *   component in .se-components-wrap (JHN measured; NBP). They are written through the editor's
 *   own model (content/editors/families/smarteditor-one.ts).
 * - The header's 발행 button[data-click-area="tpb.publish"] only opens the publish layer (not in
 *   the DOM until then), whose button[data-testid="seOnePublishBtn"] publishes; 저장
 *   button[data-click-area="tpb.save"] (JHN measured, AIM, FDX, 5+ others). In the layer: the
 *   category button[data-click-area="tpb*i.category"] (aria-label 카테고리 목록 버튼) opens a
 *   [role="menu"] of label[for] options (AIM, JHN); tags are input#tag-input, where Enter commits
 *   a tag as a chip beside it inside [class*="tag_textarea"] (AIM, JHN, FDX).
 * - The temporary-save prompt, after the editor loads: .se-popup-container
 *   (.se-popup-alert-confirm) "작성 중인 글이 있습니다." / "이어서 작성하시겠습니까?", with
 *   button.se-popup-button-cancel (취소: start afresh, the draft stays saved) and the confirm
 *   button (확인: load it) (AIM's matcher, FDX, CSH, HAN, C3).
 * - Signed in: the sign-in marks (a[href*="nidlogin.logout"], #gnb_logout_button) are present
 *   but hidden even when signed in; the editor and its 발행 button are only served to the owner
 *   (JHN). Not checked: the account name on the editor page (.gnb_name / #gnb_name1, the Naver
 *   bar's nickname as public Naver Cafe automation reads it).
 * - Post pages: div.se-main-container for the body, .se-title-text / .pcol1 for the title;
 *   #postViewArea on old posts (public scrapers).
 */
import type { SiteAdapter } from '../../siteAdapter.ts';
import { NAVER_BLOG } from './claims.ts';

export const naverBlogAdapter: SiteAdapter = {
  ...NAVER_BLOG,
  checked: '2026-12-01',
  frames: ['iframe#mainFrame'],
  signIn: {
    signedIn: ['button[data-click-area="tpb.publish"]', '.gnb_name', '#gnb_name1'],
    signedOut: ['#gnb_login_button', 'a[href*="nidlogin.login"]'],
    account: ['.gnb_name', '#gnb_name1'],
  },
  fields: [
    { name: 'title', label: '제목 (title)', selectors: ['.se-documentTitle', '[data-a11y-title="제목"]'], smartEditor: { key: 'blogpc001', part: 'title' } },
    // The whole document but its title: SmartEditor ONE keeps the body as a list of components.
    { name: 'body', label: '본문 (body)', selectors: ['.se-components-wrap'], draftIfNonEmpty: true, smartEditor: { key: 'blogpc001', part: 'body' } },
    {
      name: 'category',
      label: '카테고리 (category)',
      selectors: ['button[data-click-area="tpb*i.category"]', 'button[aria-label="카테고리 목록 버튼"]'],
      control: { kind: 'listbox', options: '[class*="layer_publish"] [role="menu"] label[for]' },
    },
    {
      name: 'tags',
      label: '태그 (tags)',
      selectors: ['input#tag-input'],
      control: { kind: 'chips', container: '[class*="tag_textarea"]', chip: '[class*="tag_textarea"] > :not(input)' },
    },
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
    {
      name: 'continue_draft',
      kind: 'other',
      label: '확인: 작성 중인 글 이어서 쓰기 (loads the autosaved draft)',
      selectors: ['.se-popup-alert-confirm .se-popup-button-confirm'],
    },
    {
      name: 'start_fresh',
      kind: 'other',
      label: '취소: 새로 쓰기 (the autosaved draft stays saved)',
      selectors: ['.se-popup-alert-confirm .se-popup-button-cancel'],
    },
  ],
  readable: [
    { name: 'post.title', selectors: ['.se-title-text', '.pcol1'] },
    { name: 'post.body', selectors: ['.se-main-container', '#postViewArea'] },
  ],
  // The temporary-save prompt offers to continue an autosaved draft: a draft in progress.
  draft: { banners: ['.se-popup-alert-confirm'] },
};
