/**
 * Tistory's post editor ({blog}.tistory.com/manage/newpost/, /manage/post/{id}).
 *
 * Checked 2026-11-30 against public automation of the live editor (no Tistory account here):
 * public Selenium/Playwright posting scripts type the title into textarea#post-title-inp, the
 * body into the TinyMCE iframe #editor-tistory_ifr (body#tinymce), tags into input#tagText,
 * pick the category from #category-btn, press #publish-layer-btn (완료) to open the publish
 * layer and #publish-btn (공개 발행) in it to publish; the editor is only served to the signed-in
 * owner (/manage sends others to the login page).
 * Not checked: the account shown on the page (none is read: the binding has no account), the
 * temporary-save button, and the "saved post" prompt (a native confirm() dialog, not markup).
 */
import type { SiteAdapter } from '../../siteAdapter.ts';
import { TISTORY } from './claims.ts';

export const tistoryAdapter: SiteAdapter = {
  ...TISTORY,
  checked: '2026-11-30',
  signIn: {
    signedIn: ['#publish-layer-btn'],
    signedOut: [],
    account: [],
  },
  fields: [
    { name: 'title', label: '제목 (title)', selectors: ['textarea#post-title-inp', '#post-title-inp'] },
    { name: 'body', label: '본문 (body)', selectors: ['iframe#editor-tistory_ifr'], draftIfNonEmpty: true },
    { name: 'tags', label: '태그 (tags)', selectors: ['input#tagText'] },
  ],
  actions: [
    { name: 'publish_settings', kind: 'other', label: '완료 (opens the publish layer)', selectors: ['#publish-layer-btn'] },
    { name: 'publish', kind: 'publish', label: '발행 (publish)', selectors: ['#publish-btn'] },
  ],
  readable: [],
  draft: { banners: [] },
};
