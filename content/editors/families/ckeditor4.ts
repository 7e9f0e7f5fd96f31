/**
 * CKEditor 4 (classic): its iframe's body is its editable (`cke_editable`), kept by its own
 * editor (undo snapshots, a content filter on what is pasted); its status bar shows the element
 * path.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const ckeditor4Detection: FamilyDetection<'ckeditor4'> = {
  id: 'ckeditor4',
  find: { by: 'frame', body: '.cke_editable' },
  // No chrome list: its toolbar and element path are left out of actions by the general rule (editorChrome.ts).
  read: 'document',
};

export const ckeditor4 = /* @__PURE__ */ describeFamily(ckeditor4Detection, {
  text: 'rich',
  model: 'own',
  // Its clipboard plugin filters pasted HTML into what its content filter allows and records an undo step.
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    html: { fill: ['paste', 'insertHTML'], append: ['paste', 'insertHTML'] },
    clear: ['execCommand'],
  },
  selectAll: 'contents',
  fillers: ['[data-cke-filler]', '[data-cke-bogus]'],
  // The standard preset's format_tags: p;h1;h2;h3;pre (its content filter drops other levels).
  headings: ['h1', 'h2', 'h3'],
  lists: ['ul', 'ol'],
  checked: 'ckeditor4 4.22.1 (npm, the last open-source release; its config.js, the standard preset); the ckeditor4 page of e2e editors.spec, 2026-12-01',
});
