/**
 * Naver's SmartEditor ONE (Naver Blog, Naver Cafe). It does not edit a contenteditable: it renders
 * its document model as components (`.se-components-wrap` > `.se-component`, the title
 * `.se-documentTitle`, text in `p.se-text-paragraph`, an empty one showing a `.se-placeholder`)
 * and takes keystrokes in a hidden `input_buffer` iframe. Its text is read from the rendered
 * components, placeholders and its own UI left out; Naver Blog's title and body are two parts of
 * one document, each read as its own field.
 *
 * Written by its own driver (smartEditorOne/driver.ts, `smartEditorOneDriver`, joined to this
 * descriptor in families/index.ts: the driver carries zod for the worker's answers, and the
 * content script every page loads, which imports this file for its detection, must not): through the editor's own document model
 * (`document-service`: SmartEditor._editors.<key>, called in the page's main world, on fields a
 * Naver adapter marks and on the Naver adapters' hosts only), with one paste into the input
 * buffer (`buffer-paste`) as the fallback where that model is missing or shaped otherwise. What
 * the page answers is checked against the rendered document in the isolated world.
 *
 * Checked 2026-12-01 against the public record (e2e/sites/naver/SOURCES.md: CSH
 * spike/findings.md 2026-08-28, FDX, AIC's live dumps, HAN, NBP, JHN measured 2026-08-25…09-18)
 * and the suite's fixture of it (e2e/sites/naver/); never against the live editor.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

const DOCUMENT = '.se-components-wrap';
const TITLE = '.se-documentTitle';
const PARAGRAPH = 'p.se-text-paragraph';
const PLACEHOLDER = '.se-placeholder';

function paragraphText(paragraph: Element): string {
  const copy = paragraph.cloneNode(true) as Element;
  copy.querySelectorAll(PLACEHOLDER).forEach((placeholder) => placeholder.remove());
  return (copy.textContent ?? '').replace(/\u200b/g, '');
}

/**
 * One line per paragraph, placeholders left out: the title component reads as the title; the
 * document (or the editor around it) reads as the body, every component but the title. Null where
 * the element holds no SmartEditor ONE document.
 */
function smartEditorOneText(element: HTMLElement): string | null {
  if (element.closest(DOCUMENT) === null && element.querySelector(DOCUMENT) === null) return null;
  const inTitle = element.closest(TITLE) !== null;
  const paragraphs = Array.from(element.querySelectorAll(PARAGRAPH)).filter((paragraph) => inTitle || paragraph.closest(TITLE) === null);
  return paragraphs.map(paragraphText).join('\n');
}

export const smartEditorOneDetection: FamilyDetection<'smarteditor-one'> = {
  id: 'smarteditor-one',
  // The document is the body (on Naver Blog, every component but the title); the title component
  // is a part of it, read on its own.
  find: { by: 'buffer', frames: 'iframe[id^="input_buffer"]', document: DOCUMENT, scope: '.se-wrap', parts: DOCUMENT },
  chrome: ['.se-toolbar', '.se-popup-container'],
  placeholder: PLACEHOLDER,
  read: 'blocks',
  readText: smartEditorOneText,
};

/** Its links, lists and subheadings as Tether's HTML, so a body reads back as markdown with them. */
function toSemantic(root: HTMLElement): void {
  root.querySelectorAll('span.se-link[data-href]').forEach((span) => {
    const link = span.ownerDocument.createElement('a');
    link.setAttribute('href', span.getAttribute('data-href') ?? '');
    link.append(...Array.from(span.childNodes));
    span.replaceWith(link);
  });
  root.querySelectorAll(PARAGRAPH).forEach((paragraph) => {
    // 소제목: a paragraph all bold, in a size above body text (SUBHEADING_SIZE in smartEditorOne/seModel.ts).
    const nodes = Array.from(paragraph.querySelectorAll('.__se-node')).filter((node) => (node.textContent ?? '').replace(/\u200b/g, '') !== '');
    const size = (node: Element) => Number(/se-fs(\d+)/.exec(node.className)?.[1] ?? 15);
    if (nodes.length === 0 || !nodes.every((node) => node.querySelector('b, strong') !== null && size(node) > 15)) return;
    const level = Math.max(...nodes.map(size)) >= 24 ? 'h2' : 'h3';
    const heading = paragraph.ownerDocument.createElement(level);
    heading.textContent = paragraph.textContent;
    paragraph.replaceWith(heading);
  });
  root.querySelectorAll(`${PLACEHOLDER}, .se-popup-container`).forEach((element) => element.remove());
}

export const smartEditorOne = /* @__PURE__ */ describeFamily(smartEditorOneDetection, {
  text: 'rich',
  model: 'own',
  // The paths the driver takes, in order (deliver.ts runs none of them: the driver does).
  write: {
    text: { fill: ['document-service', 'buffer-paste'], append: ['document-service', 'buffer-paste'] },
    html: { fill: ['document-service', 'buffer-paste'], append: ['document-service', 'buffer-paste'] },
    clear: ['document-service'],
  },
  selectAll: 'text',
  toSemantic,
  // No heading in its model: markdown headings become its 소제목 style (bold + a bigger fontSizeCode).
  headings: ['h2', 'h3', 'h4'],
  lists: ['ul', 'ol'],
  checked:
    'the public record of SmartEditor ONE (e2e/sites/naver/SOURCES.md: CSH 2026-08-28, FDX, AIC dumps, HAN, NBP, JHN 2026-08/09) and its fixture (e2e/sites/naver/), 2026-12-01',
});
