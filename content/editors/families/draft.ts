/** Draft.js: its own ContentState, rendered into `.public-DraftEditor-content`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const draftDetection: FamilyDetection<'draft'> = {
  id: 'draft',
  find: { by: 'root', selector: '.public-DraftEditor-content' },
  read: 'blocks',
};

export const draft = /* @__PURE__ */ describeFamily(draftDetection, {
  text: 'rich',
  model: 'own',
  // Everything goes in as a paste (Draft maps text/html into its blocks); a clear pastes an empty
  // paragraph, then presses Backspace over the selection if that left the text.
  write: { text: { fill: ['paste'], append: ['paste'] }, html: { fill: ['paste'], append: ['paste'] }, clear: ['paste', 'keys'] },
  selectAll: 'text',
  // DefaultDraftBlockRenderMap: header-one … header-six, unordered and ordered list items.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked: 'draft-js 0.11.7 (npm; lib/DefaultDraftBlockRenderMap.js); the draft page of e2e editors.spec, 2026-12-01',
});
