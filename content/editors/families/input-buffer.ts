/**
 * Editors that render a document nobody types into and take keystrokes in a hidden input iframe:
 * the pattern of Naver's SmartEditor ONE (Naver Blog, Naver Cafe) and its `input_buffer` frame.
 *
 * SmartEditor ONE does not edit a contenteditable: it renders the document as plain elements
 * (`.se-components-wrap` > `.se-component`, text in `p.se-text-paragraph`, an empty paragraph
 * showing a `.se-placeholder` span, the editor's own UI inside `.se-content` too). Its text is
 * read from the rendered components, placeholders and UI left out, so lengths, hashes and drafts
 * are right; writing goes through the buffer (deliver.ts's buffer-* paths).
 *
 * Markup as seen in public automation of the live editor: Johnhyeon/naver-blog-mcp
 * (src/naver_blog_mcp/selectors.py, "measured 2026-08-25"), a public copy of the Naver Cafe
 * write page (data-a11y-title="본문" on `.se-component.se-text`), and a public posting script's
 * note that `.se-content`'s innerText holds toolbar words; checked 2026-11-30.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

const DOCUMENT = '.se-components-wrap';
const TITLE = '.se-documentTitle, [data-a11y-title="제목"]';
const PARAGRAPH = 'p.se-text-paragraph';
const PLACEHOLDER = '.se-placeholder';

function paragraphText(paragraph: Element): string {
  const walker = paragraph.ownerDocument.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(PLACEHOLDER)) text += node.nodeValue ?? '';
  }
  return text.replace(/\u200b/g, '');
}

/**
 * SmartEditor ONE's text, one line per paragraph, placeholders left out: the title component
 * reads as the title; the document (or the editor around it) reads as the body, every component
 * but the title. Null where the element holds no SmartEditor ONE document.
 */
function smartEditorOneText(element: HTMLElement): string | null {
  if (element.closest(DOCUMENT) === null && element.querySelector(DOCUMENT) === null) return null;
  const inTitle = element.closest(TITLE) !== null;
  const paragraphs = Array.from(element.querySelectorAll(PARAGRAPH)).filter((paragraph) => inTitle || paragraph.closest(TITLE) === null);
  return paragraphs.map(paragraphText).join('\n');
}

export const inputBufferDetection: FamilyDetection<'input-buffer'> = {
  id: 'input-buffer',
  // A component of the document (Naver Blog's title, or its body beside the title) is read from the
  // rendered document, but has no input buffer to type into: the buffer driver selects the whole
  // document before it writes, which would type over the other component, so a write there is
  // refused naming the family, and the page is left as it was.
  find: { by: 'buffer', frames: 'iframe[id^="input_buffer"], iframe.se-input-buffer', document: '.se-content', scope: '.se-wrap', parts: DOCUMENT },
  chrome: ['.se-toolbar'],
  placeholder: PLACEHOLDER,
  read: 'blocks',
  readText: smartEditorOneText,
};

export const inputBuffer = /* @__PURE__ */ describeFamily(inputBufferDetection, {
  text: 'rich',
  model: 'own',
  // The editor keeps its caret in its own model: keys move it (Ctrl+A, Ctrl+End) as the person's would.
  write: {
    text: { fill: ['buffer-paste', 'buffer-insertText'], append: ['buffer-paste', 'buffer-insertText'] },
    html: { fill: ['buffer-paste'], append: ['buffer-paste'] },
    clear: ['buffer-keys'],
  },
  selectAll: 'keys',
  // Not checked on SmartEditor ONE itself (no live site here); the suite's input-buffer page keeps h2–h4.
  headings: ['h2', 'h3', 'h4'],
  lists: ['ul', 'ol'],
  checked:
    'SmartEditor ONE markup from public automation (see above), 2026-11-30; the input-buffer page of e2e editors.spec and the Naver Blog/Cafe fixtures, 2026-12-01',
});
