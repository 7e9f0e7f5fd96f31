/**
 * The WordPress block editor (Gutenberg, @wordpress/block-editor): its model is the block list
 * in its `core/block-editor` data store; React renders each block from it, a rich-text block as
 * a contenteditable of its own (`data-type="core/paragraph"`, `core/heading` …), inside the root
 * layout `.is-root-container` of WritingFlow's `.block-editor-writing-flow`. Its RichText paste handler (`pasteHandler` of @wordpress/blocks'
 * raw handling) turns pasted HTML into blocks: a heading a core/heading, a list a core/list of
 * core/list-item, a quote a core/quote. What a block shows is what the store holds (rendered
 * from it), so the DOM read per block is the model's text.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const wordpressBlockEditorDetection: FamilyDetection<'wordpress-block-editor'> = {
  id: 'wordpress-block-editor',
  // WritingFlow's element, around the root layout (`.is-root-container`): it turns contenteditable
  // itself while blocks are multi-selected, so it, not the layout, is the field.
  find: { by: 'root', selector: '.block-editor-writing-flow' },
  // Its popovers (block toolbar, inserter) open in popover slots; WritingFlow's "Editor canvas"
  // stop (a role=button focus stop before the blocks, for keyboard users) is no action either.
  chrome: ['.popover-slot', '.block-editor-writing-flow__canvas-stop'],
  placeholder: '[data-rich-text-placeholder]',
  read: 'blocks',
  // One line per top-level block (a list or quote one per inner line), without the U+FEFF an empty block holds.
  readText: (root) =>
    Array.from(root.querySelector('.is-root-container')?.children ?? [], (block) => (block as HTMLElement).innerText ?? '')
      .join('\n')
      .replace(/\ufeff/g, ''),
};

export const wordpressBlockEditor = /* @__PURE__ */ describeFamily(wordpressBlockEditorDetection, {
  text: 'rich',
  model: 'own',
  // A fill or clear goes to its store in the main world (the family's `storeFill`,
  // content/editors/wordpress/store.ts): its own pasteHandler makes the blocks, replaceBlocks puts
  // them in place of every block (one undo level), as its paste over every block does. A paste
  // cannot be aimed there: over a post of one block that is not focused, the selection Tether
  // places does not hold (its RichText puts the caret back at the end) and the paste landed after
  // the old text (observed 2026-12-01). An append is its clipboard handler's paste at the end.
  write: {
    text: { fill: ['block-store'], append: ['paste'] },
    html: { fill: ['block-store'], append: ['paste'] },
    clear: ['block-store'],
  },
  // Its own select-all, as a person makes it (writing-flow use-select-all.js: a second Ctrl+A
  // selects every block). No write uses it now (a fill goes to the store); kept as what it is.
  selectAll: 'blocks',
  // An append of structure is refused before anything is written (observed): its paste at a caret
  // splits that block and merges the first pasted block into it (__unstableSplitSelection), so a
  // heading appended after a paragraph became that paragraph's text (the read-back saw it and the
  // write was rolled back). Neither a synthetic Enter nor execCommand('insertParagraph') made a
  // new block first. A fill of the whole body keeps every block (its select-all of blocks).
  appendRefused: (constructs) => {
    const blocks = constructs.filter((name) => /^(h[1-6]|ul|ol|blockquote|pre)$/.test(name));
    return blocks.length === 0
      ? null
      : `The WordPress block editor does not keep ${blocks.join(', ')} appended at the end of a post: its paste merges the first pasted block into the last paragraph. Nothing was written. Fill the whole body instead (the text it has now, then what to add), or append plain paragraphs.`;
  },
  // core/heading: levels 1–6 (its `level` attribute); core/list: ordered or not.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked:
    '@wordpress/block-editor 18.0.0 (replaceBlocks, writing-flow use-clipboard-handler.js), block-library 11.1.0, blocks 16.1.0 (raw-handling pasteHandler), data 10.56.0, format-library 5.56.0, rich-text 7.56.0 (npm); the wordpress-block-editor page of e2e editors.spec and wordpress.spec, 2026-12-01',
});
