/**
 * SmartEditor ONE's document as the page renders it, read in Tether's own (isolated) world: the
 * check on everything the editor's model says. The markup is the public record's (README
 * "Editors"; e2e/sites/naver/SOURCES.md §4): components in `.se-components-wrap`, the title
 * `.se-documentTitle`, text in `p.se-text-paragraph`, placeholders `.se-placeholder`, links the
 * editor's own `span.se-link[data-href]` (no `<a>` in the editor: NBP measured, JHN), list
 * paragraphs in `ul`/`ol` (`.se-text-list`), quotations `.se-component.se-quotation`.
 */
import type { ModelCounts } from './seModel.ts';
import { MODEL_NAMES } from './seModel.ts';

export const DOCUMENT = '.se-components-wrap';
export const TITLE = '.se-documentTitle';
const PARAGRAPH = 'p.se-text-paragraph';
const PLACEHOLDER = '.se-placeholder';

/** The rendered document an element belongs to (a part of it, or the editor around it). */
export function documentRoot(element: Element): HTMLElement | null {
  return element.closest<HTMLElement>(DOCUMENT) ?? element.querySelector<HTMLElement>(DOCUMENT);
}

function paragraphText(paragraph: Element): string {
  const walker = paragraph.ownerDocument.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(PLACEHOLDER)) text += node.nodeValue ?? '';
  }
  return text.replace(/\u200b/g, '');
}

function parts(root: HTMLElement, part: 'title' | 'body'): Element[] {
  return Array.from(root.querySelectorAll(PARAGRAPH)).filter((paragraph) => (paragraph.closest(TITLE) !== null) === (part === 'title'));
}

/** The title's or the body's text as the page shows it, one line per paragraph. */
export function renderedText(root: HTMLElement, part: 'title' | 'body'): string {
  return parts(root, part).map(paragraphText).join('\n');
}

/**
 * What the rendered body shows of the constructs the record tells how the editor renders: links,
 * list paragraphs, quotations. Styles (bold, sizes) are the model's word alone: how the live
 * editor renders them is not in the record well enough to check.
 */
export function renderedCounts(root: HTMLElement): Partial<ModelCounts> {
  const body = Array.from(root.children).filter((component) => !component.matches(TITLE));
  const within = (selector: string) => body.reduce((sum, component) => sum + component.querySelectorAll(selector).length, 0);
  const listed = (tag: 'ul' | 'ol') =>
    body.reduce(
      (sum, component) =>
        sum + Array.from(component.querySelectorAll(PARAGRAPH)).filter((paragraph) => paragraph.closest('ul, ol')?.tagName.toLowerCase() === tag).length,
      0,
    );
  return {
    [MODEL_NAMES.link]: within('.se-link[data-href]'),
    [MODEL_NAMES.bullet]: listed('ul'),
    [MODEL_NAMES.decimal]: listed('ol'),
    [MODEL_NAMES.quotation]: body.filter((component) => component.matches('.se-quotation')).length,
  };
}

/** Where a click puts the caret in the input buffer's field: the title's paragraph, or the body's last. */
export function caretTarget(root: HTMLElement, part: 'title' | 'body'): HTMLElement | null {
  const found = parts(root, part);
  return (found[found.length - 1] as HTMLElement | undefined) ?? null;
}
