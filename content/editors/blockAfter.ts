/** The block an image step's `after` names (image.ts; the WordPress block editor's media upload, wordpress/media.ts). */

const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, pre, figcaption';
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The block an `after` names: the one whose text starts with it (innermost), or why there is none. */
export function blockAfter(root: HTMLElement, after: string): { block: Element } | { problem: string } {
  const wanted = flat(after);
  const matching = Array.from(root.querySelectorAll(BLOCKS)).filter((block) => flat(block.textContent ?? '').startsWith(wanted));
  const innermost = matching.filter((block) => !matching.some((other) => other !== block && block.contains(other)));
  if (innermost.length === 1 && innermost[0]) return { block: innermost[0] };
  if (innermost.length === 0) return { problem: `no paragraph starts with “${wanted.slice(0, 80)}”` };
  return { problem: `${innermost.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words` };
}
