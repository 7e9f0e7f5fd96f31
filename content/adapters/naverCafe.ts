/**
 * Naver Cafe (cafe.naver.com): the article editor (SmartEditor ONE under a title textarea) and
 * article pages.
 *
 * Checked 2026-11-30 against public automation and copies of the live site (no Naver account
 * here):
 * - A public Naver Cafe Playwright client's selector registry ("새 에디터: textarea.textarea_input
 *   (제목), .se-content (본문)"; the 등록 button is <a role="button" class="BaseButton
 *   BaseButton--skinGreen"><span class="BaseButton__txt">등록</span></a>).
 * - A public copy of the write page's markup: .WritingHeader .tool_area holds button.btn_temp_save
 *   (임시등록) and the green 등록 link; .tag_input_box input.tag_input; the body component
 *   .se-component.se-text[data-a11y-title="본문"]. The same green class marks the board's 글쓰기
 *   link, so 등록 is looked for only in the write header.
 * - Public scrapers switch into the same-origin iframe #cafe_main for articles and read
 *   div.se-main-container / div.se-component-content; public posting bots wait for .gnb_name
 *   (the Naver bar's nickname) to know they are signed in.
 * Not checked: the sign-in link when signed out (#gnb_login_button, as on other Naver pages),
 * the comment box, and the autosaved-draft prompt.
 */
import type { SiteAdapter } from '../siteAdapter.ts';
import { NAVER_CAFE } from './claims.ts';

export const naverCafeAdapter: SiteAdapter = {
  ...NAVER_CAFE,
  checked: '2026-11-30',
  frames: ['iframe#cafe_main'],
  signIn: {
    signedIn: ['.gnb_name', '#gnb_name1'],
    signedOut: ['#gnb_login_button', 'a[href*="nidlogin.login"]'],
    account: ['.gnb_name', '#gnb_name1'],
  },
  fields: [
    { name: 'title', label: '제목 (title)', selectors: ['textarea.textarea_input', '.ArticleWritingTitle textarea', '.ArticleWriteTitle textarea'] },
    // The whole SmartEditor ONE document is the body here (the title is the textarea above it),
    // so it is written through the editor's input buffer like any input-buffer editor.
    { name: 'body', label: '본문 (body)', selectors: ['.se-content', '.se-components-wrap'], draftIfNonEmpty: true },
    { name: 'tags', label: '태그 (tags)', selectors: ['.tag_input_box input.tag_input', 'input.tag_input'] },
  ],
  actions: [
    {
      name: 'register',
      kind: 'publish',
      label: '등록 (register the post)',
      selectors: ['.WritingHeader a.BaseButton--skinGreen', '.WritingHeader button.BaseButton--skinGreen'],
    },
    { name: 'save_draft', kind: 'save_draft', label: '임시등록 (save draft)', selectors: ['.WritingHeader button.btn_temp_save', 'button.btn_temp_save'] },
  ],
  readable: [{ name: 'post.body', selectors: ['.se-main-container', 'div.se-component-content'] }],
  draft: { banners: [] },
};
