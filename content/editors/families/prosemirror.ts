/** ProseMirror (and TipTap on it): its own document, rendered into `.ProseMirror`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const prosemirrorDetection: FamilyDetection<'prosemirror'> = {
  id: 'prosemirror',
  find: { by: 'root', selector: '.ProseMirror' },
  read: 'blocks',
};

export const prosemirror = /* @__PURE__ */ describeFamily(prosemirrorDetection, {
  text: 'rich',
  model: 'own',
  // Appended text is typed (it continues the caret's block, spaces exact); a fill replaces blocks.
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['execCommand', 'paste'] },
    html: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    clear: ['execCommand'],
  },
  // Its select-all (Mod-a) selects the document itself, so what is pasted replaces it block for
  // block; a text range would keep the first block's type (a heading stays one).
  selectAll: 'keys',
  // The schema decides; TipTap's StarterKit (Heading levels 1–6, bullet and ordered lists) is the common one.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked: 'prosemirror-view 1.44.0, @tiptap/core and starter-kit 3.35.0 (npm; extension-heading levels); the prosemirror page of e2e editors.spec, 2026-12-01',
});
