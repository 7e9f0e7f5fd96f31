/**
 * Naver Cafe (cafe.naver.com): the article editor (SmartEditor ONE under a title textarea) and
 * article pages.
 *
 * Checked 2026-12-01 against public automation and copies of the live site (no Naver account
 * here; the sources and their ratings: e2e/sites/naver/SOURCES.md):
 * - The write page, cafe.naver.com/ca-fe/cafes/{id}/articles/write (top level; some scripts also
 *   try #cafe_main): the title is a plain textarea.textarea_input ("제목을 입력해 주세요."); the
 *   body is SmartEditor ONE, its object at SmartEditor._editors.cafepc001 (CAF5, CAF6, CAF2), its
 *   document the body alone (.se-components-wrap), written through the editor's own model
 *   (content/editors/families/smarteditor-one.ts); the board is a FormSelectBox button
 *   (".FormSelectButton button.button", "게시판을 선택해 주세요.") opening ul.option_list of
 *   button.option (CAF2, a copy of the markup); 등록 is
 *   <a role="button" class="BaseButton BaseButton--skinGreen"><span class="BaseButton__txt">등록</span></a>
 *   in .WritingHeader (the same green class marks the board's 글쓰기 link, so 등록 is looked for
 *   only in the write header), 임시등록 button.btn_temp_save; tags .tag_input_box input.tag_input
 *   (a copy of the markup; how a tag is committed is not in the record: Enter, as on the blog).
 * - Public scrapers switch into the same-origin iframe #cafe_main for articles and read
 *   div.se-main-container / div.se-component-content; public posting bots wait for .gnb_name
 *   (the Naver bar's nickname) to know they are signed in.
 * Not checked: the sign-in link when signed out (#gnb_login_button, as on other Naver pages),
 * the comment box, and whether the Cafe editor shows the blog's temporary-save prompt.
 */
import type { SiteAdapter } from '../../siteAdapter.ts';
import { NAVER_CAFE } from './claims.ts';

export const naverCafeAdapter: SiteAdapter = {
  ...NAVER_CAFE,
  checked: '2026-12-01',
  frames: ['iframe#cafe_main'],
  signIn: {
    signedIn: ['.gnb_name', '#gnb_name1'],
    signedOut: ['#gnb_login_button', 'a[href*="nidlogin.login"]'],
    account: ['.gnb_name', '#gnb_name1'],
  },
  fields: [
    { name: 'title', label: '제목 (title)', selectors: ['textarea.textarea_input', '.ArticleWritingTitle textarea', '.ArticleWriteTitle textarea'] },
    // The whole SmartEditor ONE document is the body here (the title is the textarea above it).
    {
      name: 'body',
      label: '본문 (body)',
      selectors: ['.se-components-wrap', '.se-content'],
      draftIfNonEmpty: true,
      smartEditor: { key: 'cafepc001', part: 'body' },
    },
    {
      name: 'board',
      label: '게시판 (board)',
      selectors: ['.FormSelectBox .FormSelectButton button.button'],
      control: { kind: 'listbox', options: '.FormSelectBox ul.option_list button.option' },
    },
    {
      name: 'tags',
      label: '태그 (tags)',
      selectors: ['.tag_input_box input.tag_input', 'input.tag_input'],
      control: { kind: 'chips', container: '.tag_input_box', chip: '.tag_input_box .tag_item' },
    },
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
  readable: [
    { name: 'post.title', selectors: ['.ArticleContentBox .title_text'] },
    { name: 'post.body', selectors: ['.se-main-container', 'div.se-component-content'] },
  ],
  draft: { banners: [] },
};
