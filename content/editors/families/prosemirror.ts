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
  // A pasted File (no text, no HTML) goes to the site's FileHandler `onPaste` (TipTap's
  // extension-file-handler: handlePaste hands it the clipboard's files), which uploads it and
  // inserts an Image node at the site's address. That node comes without an alt, so Tether takes
  // it back with the editor's undo and pastes `<img src=stored alt>` (the Image node parses alt).
  image: {
    via: 'paste-file',
    alt: 'repaste',
    // prosemirror-history (StarterKit's UndoRedo): changes within newGroupDelay (500 ms) are one undo step.
    quietMs: 500,
    checked:
      '@tiptap/extension-file-handler and -image 3.35.0 (FileHandlePlugin handlePaste, Image parseHTML img[src] with alt), @tiptap/extensions UndoRedo newGroupDelay 500; the prosemirror page of e2e images.spec with FileHandler onPaste/onDrop uploading to the site, 2026-12-01',
  },
  checked: 'prosemirror-view 1.44.0, @tiptap/core and starter-kit 3.35.0 (npm; extension-heading levels); the prosemirror page of e2e editors.spec, 2026-12-01',
});
