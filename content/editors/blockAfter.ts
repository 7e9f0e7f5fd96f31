/** The block an image step's `after` names (image.ts; the WordPress block editor's media upload, wordpress/media.ts). */
import { lineWords } from './markdownImageText.ts';

// A markdown editor's source lines too (CodeMirror's `.cm-line`: a heading's line starts with its `## `); Trix's paragraph
// is a <div> of its own root (its default block, config/block_attributes.js); Editor.js's a div.ce-paragraph.
const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, pre, figcaption, .cm-line, trix-editor > div, .ce-paragraph';
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const startsWith = (block: Element, wanted: string) =>
  flat(block.textContent ?? '').startsWith(wanted) || (block.classList.contains('cm-line') && lineWords(block.textContent ?? '').startsWith(wanted));

/** The block an `after` names: the one whose text starts with it (innermost), or why there is none. */
export function blockAfter(root: HTMLElement, after: string): { block: Element } | { problem: string } {
  const wanted = flat(after);
  const matching = Array.from(root.querySelectorAll(BLOCKS)).filter((block) => startsWith(block, wanted));
  const innermost = matching.filter((block) => !matching.some((other) => other !== block && block.contains(other)));
  if (innermost.length === 1 && innermost[0]) return { block: innermost[0] };
  if (innermost.length === 0) return { problem: `no paragraph starts with “${wanted.slice(0, 80)}”` };
  return { problem: `${innermost.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words` };
}

/** A CodeMirror editor that has drawn only part of its document (gaps instead of the rest): its lines are not all there to name. */
export function partlyDrawn(root: HTMLElement): boolean {
  return root.classList.contains('cm-content') && Array.from(root.children).some((child) => !child.classList.contains('cm-line'));
}
