/** A frame whose document is edited (designMode or an editable body) by no library Tether knows: the browser's editing. */
import { BROWSER_EDITING } from './contenteditable.ts';
import { describeFamily, type FamilyDetection } from './family.ts';

export const designmodeDetection: FamilyDetection<'designmode'> = {
  id: 'designmode',
  find: { by: 'frame' },
  read: 'document',
};

export const designmode = /* @__PURE__ */ describeFamily(designmodeDetection, {
  text: 'rich',
  model: 'dom',
  write: BROWSER_EDITING,
  selectAll: 'contents',
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked: 'HTML Editing APIs (designMode, execCommand); the iframe page of e2e editors.spec; Chromium 150/156, 2026-12-01',
});
