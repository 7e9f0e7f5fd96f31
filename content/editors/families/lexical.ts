/** Lexical: its own editor state, rendered into the root it marks `data-lexical-editor`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const lexicalDetection: FamilyDetection<'lexical'> = {
  id: 'lexical',
  find: { by: 'root', selector: '[data-lexical-editor="true"]' },
  read: 'blocks',
};

/** Lexical's code block is a block-level <code> (lines split by <br>): a <pre> in Tether's HTML. */
function codeBlocks(root: HTMLElement): void {
  Array.from(root.children).forEach((child) => {
    if (child.tagName !== 'CODE') return;
    const pre = root.ownerDocument.createElement('pre');
    pre.append(...Array.from(child.childNodes));
    pre.querySelectorAll('br').forEach((br) => br.replaceWith('\n'));
    child.replaceWith(pre);
  });
}

export const lexical = /* @__PURE__ */ describeFamily(lexicalDetection, {
  text: 'rich',
  model: 'own',
  // Rich text takes pasted HTML into its nodes; plain text (registerPlainText) takes text/plain.
  write: {
    text: { fill: ['paste', 'beforeinput'], append: ['paste', 'beforeinput'] },
    html: { fill: ['paste'], append: ['paste'] },
    clear: ['execCommand', 'paste'],
  },
  selectAll: 'text',
  toSemantic: codeBlocks,
  // With @lexical/rich-text's HeadingNode (h1–h6) and @lexical/list registered; plain text keeps none.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  // A pasted File with no text: @lexical/rich-text's PASTE_COMMAND dispatches DRAG_DROP_PASTE
  // with the files (defaultShouldHandlePasteAsFiles), which the site handles — Lexical has no
  // image node of its own; the playground's DragDropPastePlugin reads the file, a site's uploads
  // it — and inserts its ImageNode at the stored URL, with the file's name as alt. Tether then
  // takes that insertion back with Lexical's undo and pastes `<img src=stored alt>` (the site's
  // ImageNode imports <img>). An image insertion is never merged into the undo step before it
  // (@lexical/history merges only typing), so no wait for stillness.
  image: {
    via: 'paste-file',
    alt: 'repaste',
    checked:
      'lexical and @lexical/rich-text 0.52.0 (PASTE_COMMAND → DRAG_DROP_PASTE, @lexical/history createMergeActionGetter), lexical-playground ImageNode/DragDropPastePlugin; the lexical page of e2e images.spec with an ImageNode and a DRAG_DROP_PASTE handler uploading to the site, 2026-12-01',
  },
  checked: 'lexical 0.52.0 and @lexical/rich-text, list, code, html (npm; HeadingTagType); the lexical and lexical-plain pages of e2e editors.spec, 2026-12-01',
});
