/**
 * Trix: a custom element, `<trix-editor>`, itself the contenteditable; its own document model,
 * rendered into it, and serialized into the hidden input it names. Its block attributes: one
 * heading level (`heading1`, an h1), bullet and number lists, quote, code (pre).
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const trixDetection: FamilyDetection<'trix'> = {
  id: 'trix',
  find: { by: 'root', selector: 'trix-editor' },
  // No chrome list: <trix-toolbar> is left out of actions by the general rule (editorChrome.ts).
  read: 'blocks',
};

/** Its only heading is an h1: Tether's top heading (h2) when read back. */
function semanticHeadings(root: HTMLElement): void {
  const inTrix = root.matches('trix-editor') ? 'h1' : 'trix-editor h1';
  root.querySelectorAll(inTrix).forEach((heading) => {
    const replacement = root.ownerDocument.createElement('h2');
    replacement.append(...Array.from(heading.childNodes));
    heading.replaceWith(replacement);
  });
}

/**
 * Its block is a `<div>` (its parser gives a `<p>`'s margins blank lines of their own) and its
 * strike a `<del>` (config/text_attributes.js; an `<s>` would be text).
 */
function pasteMarkup(body: HTMLElement): void {
  for (const [from, to] of [
    ['p', 'div'],
    ['s', 'del'],
  ] as const) {
    body.querySelectorAll(from).forEach((element) => {
      const replacement = body.ownerDocument.createElement(to);
      replacement.append(...Array.from(element.childNodes));
      element.replaceWith(replacement);
    });
  }
}

export const trix = /* @__PURE__ */ describeFamily(trixDetection, {
  text: 'rich',
  model: 'own',
  // Its Level 2 input controller takes a paste's HTML from beforeinput (insertFromPaste; its paste
  // handler only works around browser bugs for plain text and files) and typing from insertText.
  write: {
    text: { fill: ['beforeinput', 'execCommand'], append: ['execCommand', 'beforeinput'] },
    html: { fill: ['beforeinput'], append: ['beforeinput'] },
    clear: ['execCommand'],
  },
  selectAll: 'text',
  // Its input controller renders what it took in requestAnimationFrame (scheduleRender).
  finishes: 'frame',
  toSemantic: semanticHeadings,
  pasteMarkup,
  // config/block_attributes.js: heading1 (h1) is its only heading; bullet and number lists.
  headings: ['h1'],
  lists: ['ul', 'ol'],
  checked:
    'trix 2.1.19 (npm; src/trix/config/block_attributes.js, models/html_parser.js, controllers/level_2_input_controller.js); the trix page of e2e editors.spec, 2026-12-01',
});
