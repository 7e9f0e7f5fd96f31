/**
 * Editor.js: a block editor. Its model is a list of blocks (the JSON its `save()` returns), each
 * rendered as a `.ce-block` with a contenteditable of its own, inside `.codex-editor__redactor`.
 * Its paste handling makes blocks of pasted HTML (a heading a header block, a list a list
 * block); markup written inside one block's contenteditable is not a block, and its save keeps
 * only the inline markup that block's tool allows (the rest runs together as text).
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const editorjsDetection: FamilyDetection<'editorjs'> = {
  id: 'editorjs',
  find: { by: 'root', selector: '.codex-editor__redactor' },
  // No chrome list: its toolbars are left out of actions by the general rule (editorChrome.ts).
  read: 'blocks',
};

/** Block tools' elements: a header (h1–h6) and a list (List 2's ul/ol); a paragraph is `.ce-paragraph`. */
const LIST = '.cdx-list';

/** A block's text as its save keeps it: line breaks kept, every other tag run together. */
function inlineText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('br').forEach((br) => br.replaceWith('\n'));
  return copy.textContent ?? '';
}

/**
 * The text the editor's model holds, by its schema: one line per block, a list block one line
 * per item; inside a block, markup that is not a block of its own is its text, run together.
 */
function modelText(root: HTMLElement): string {
  return Array.from(root.querySelectorAll(':scope > .ce-block'))
    .map((block) => {
      const list = block.querySelector(LIST);
      if (list) return Array.from(list.querySelectorAll('.cdx-list__item-content')).map(inlineText).join('\n');
      const input = block.querySelector('[contenteditable="true"]');
      return input ? inlineText(input) : '';
    })
    .join('\n');
}

/** Block markup inside a paragraph or header block is no block of the model: its text stays, the tag does not. */
function semanticBlocks(root: HTMLElement): void {
  root.querySelectorAll('.ce-paragraph, .ce-header').forEach((input) => {
    input
      .querySelectorAll('h1, h2, h3, h4, h5, h6, p, ul, ol, li, blockquote, pre, div')
      .forEach((inner) => inner.replaceWith(...Array.from(inner.childNodes)));
  });
}

/**
 * Its bold and italic tools keep `<b>` and `<i>` (their sanitize configs): a pasted `<strong>` or
 * `<em>` would be text. Its paste keeps no `<br>` inside a block (the lines would run together):
 * each line of a paragraph becomes a paragraph block of its own.
 */
function pasteMarkup(body: HTMLElement): void {
  body.querySelectorAll('p').forEach((paragraph) => {
    if (!paragraph.querySelector('br')) return;
    const lines: Node[][] = [[]];
    for (const child of Array.from(paragraph.childNodes)) {
      if (child.nodeName === 'BR') lines.push([]);
      else lines[lines.length - 1]?.push(child);
    }
    paragraph.replaceWith(
      ...lines.map((nodes) => {
        const line = body.ownerDocument.createElement('p');
        line.append(...nodes);
        return line;
      }),
    );
  });
  for (const [from, to] of [
    ['strong', 'b'],
    ['em', 'i'],
  ] as const) {
    body.querySelectorAll(from).forEach((element) => {
      const replacement = body.ownerDocument.createElement(to);
      replacement.append(...Array.from(element.childNodes));
      element.replaceWith(replacement);
    });
  }
}

export const editorjs = /* @__PURE__ */ describeFamily(editorjsDetection, {
  text: 'rich',
  model: 'own',
  // Its paste handling makes blocks; typed text (execCommand) stays in the caret's block. Where a
  // block's tool turns paste handling off (pasteConfig false), the browser's own paste inserts the
  // HTML into that one block (insertHTML): what its model then keeps is checked by modelText.
  write: {
    text: { fill: ['paste'], append: ['paste', 'execCommand'] },
    html: { fill: ['paste', 'insertHTML'], append: ['paste', 'insertHTML'] },
    clear: ['keys'],
  },
  selectAll: 'blocks',
  // BlockManager.paste calls the tool's onPaste in requestIdleCallback, and binds a new block's keys
  // there too; its own paragraph tool's onPaste then sets the text in requestAnimationFrame (dist
  // editorjs.mjs, 2.31.7). Waiting for the idle period alone, a slow page (a cold first page, or
  // under load: reproduced with CDP CPU throttling ×8, with and without @editorjs/image) had its
  // headings and lists filled and every paragraph still empty: "holds other text than was written".
  finishes: 'idle-frame',
  modelText,
  toSemantic: semanticBlocks,
  pasteMarkup,
  // @editorjs/header: h1–h6 unless its `levels` config says fewer (the DOM does not tell); @editorjs/list: ordered and unordered.
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked:
    '@editorjs/editorjs 2.31.7 with @editorjs/header 2.8.9 and @editorjs/list 2.0.9, @editorjs/paragraph 2.11.7 (npm; modules/paste.ts, modules/blockSelection.ts, the tools’ sanitize configs); the editorjs page of e2e editors.spec, 2026-12-01',
});
