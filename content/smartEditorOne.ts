/**
 * Reading Naver's SmartEditor ONE (Naver Blog, Naver Cafe) as its real markup renders it. It
 * does not edit a contenteditable: it renders the document as plain elements
 * (`.se-components-wrap` > `.se-component`, text in `p.se-text-paragraph`, an empty paragraph
 * showing a `.se-placeholder` span, the editor's own UI inside `.se-content` too) and takes
 * keystrokes in a hidden input iframe (the input-buffer family, content/editorFamily.ts). This
 * reads a field's text from the rendered components, placeholders and UI left out, so lengths,
 * hashes and drafts are right; writing is the input-buffer driver's.
 *
 * Markup as seen in public automation of the live editor: Johnhyeon/naver-blog-mcp
 * (src/naver_blog_mcp/selectors.py, "measured 2026-08-25"), a public copy of the Naver Cafe
 * write page (data-a11y-title="본문" on `.se-component.se-text`), and a public posting script's
 * note that `.se-content`'s innerText holds toolbar words; checked 2026-11-30.
 */
const DOCUMENT = '.se-components-wrap';
const TITLE = '.se-documentTitle, [data-a11y-title="제목"]';
const PARAGRAPH = 'p.se-text-paragraph';
const PLACEHOLDER = '.se-placeholder';

/** The element is a component of SmartEditor ONE's document, or the list of them. */
export function isSmartEditorOnePart(element: Element): boolean {
  return element.closest(DOCUMENT) !== null;
}

/** The element holds SmartEditor ONE's real document (a part of it, or the editor around it). */
export function readsAsSmartEditorOne(element: Element): boolean {
  return isSmartEditorOnePart(element) || element.querySelector(DOCUMENT) !== null;
}

function paragraphText(paragraph: Element): string {
  const walker = paragraph.ownerDocument.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(PLACEHOLDER)) text += node.nodeValue ?? '';
  }
  return text.replace(/\u200b/g, '');
}

/**
 * One line per paragraph, placeholders left out. The title component reads as the title; the
 * document (or the editor around it) reads as the body: every component but the title.
 */
export function smartEditorOneText(element: Element): string {
  const inTitle = element.closest(TITLE) !== null;
  const paragraphs = Array.from(element.querySelectorAll(PARAGRAPH)).filter((paragraph) => inTitle || paragraph.closest(TITLE) === null);
  return paragraphs.map(paragraphText).join('\n');
}
