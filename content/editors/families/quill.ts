/** Quill 2: its own Delta, rendered into `.ql-editor`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const quillDetection: FamilyDetection<'quill'> = {
  id: 'quill',
  find: { by: 'root', selector: '.ql-editor' },
  chrome: ['.ql-toolbar'],
  read: 'blocks',
};

/**
 * Quill 2 renders every list as one <ol> and tells the kinds apart by data-list on each item, and
 * a code block as a container of line divs: both become the HTML a person's paste would carry.
 */
function semanticLists(root: HTMLElement): void {
  root.querySelectorAll('ol').forEach((list) => {
    const items = Array.from(list.children);
    if (!items.some((item) => item.hasAttribute('data-list'))) return;
    const runs: Element[] = [];
    for (const item of items) {
      const tag = item.getAttribute('data-list') === 'bullet' ? 'ul' : 'ol';
      let run = runs[runs.length - 1];
      if (!run || run.tagName.toLowerCase() !== tag) {
        run = list.ownerDocument.createElement(tag);
        runs.push(run);
      }
      run.append(item);
    }
    list.replaceWith(...runs);
  });
  root.querySelectorAll('.ql-code-block-container').forEach((container) => {
    const pre = container.ownerDocument.createElement('pre');
    pre.textContent = Array.from(container.querySelectorAll('.ql-code-block'))
      .map((line) => line.textContent ?? '')
      .join('\n');
    container.replaceWith(pre);
  });
}

export const quill = /* @__PURE__ */ describeFamily(quillDetection, {
  text: 'rich',
  model: 'own',
  // Appended text is typed (it continues the caret's block, spaces exact); a fill replaces blocks.
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['execCommand', 'paste'] },
    html: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    clear: ['execCommand'],
  },
  selectAll: 'text',
  // Its UI inside the content (the list markers' and code blocks' widgets).
  fillers: ['.ql-ui'],
  toSemantic: semanticLists,
  // formats/header.js: H1–H6; formats/list.js: ordered and bullet.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  // A pasted File (no text, no HTML) goes to the uploader module (modules/clipboard.js
  // onCapturePaste → uploader.upload → the site's `handler(range, files)`), which uploads it and
  // inserts the image at the site's address. That handler knows nothing of an alt, so Tether takes
  // the alt-less image back with Quill's undo and pastes `<img src=stored alt>` (its Image blot
  // keeps alt, formats/image.js).
  image: {
    via: 'paste-file',
    alt: 'repaste',
    // modules/history.js: changes within `delay` (1000 ms) are one undo step.
    quietMs: 1000,
    checked:
      'quill 2.0.3 (modules/uploader.js handler, modules/clipboard.js onCapturePaste, formats/image.js alt); the quill page of e2e images.spec with modules.uploader.handler uploading to the site, 2026-12-01',
  },
  checked: 'quill 2.0.3 (npm; formats/header.js, formats/list.js, getSemanticHTML); the quill page of e2e editors.spec (snow theme), 2026-12-01',
});
