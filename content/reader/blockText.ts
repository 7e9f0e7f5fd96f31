/**
 * The text of a tree as a reader sees it, lines and paragraphs kept, without controls: what
 * `innerText` gives a rendered element, for trees that are not rendered (the reader view's
 * article lives in a copy of the document) or whose controls' words are noise (Reply / Like /
 * Report under every comment). Walked with an explicit stack: a deep tree cannot overflow it.
 */

/** Elements whose words are not the text: controls, scripts, media, and what is hidden. */
const SKIPPED = new Set([
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'FORM',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'CANVAS',
  'SVG',
  'svg',
  'VIDEO',
  'AUDIO',
]);
/** Blocks a blank line sets apart (as innerText does around paragraphs). */
const PARAGRAPHS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'TABLE', 'FIGURE', 'HR']);
/** Blocks on lines of their own. */
const LINES = new Set([
  'DIV',
  'LI',
  'DL',
  'DT',
  'DD',
  'TR',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'NAV',
  'MAIN',
  'ADDRESS',
  'DETAILS',
  'SUMMARY',
  'FIGCAPTION',
  'CAPTION',
]);

/** Attribute reads only where there are attributes: a comment section has tens of thousands of elements. */
function skipped(element: Element): boolean {
  if (SKIPPED.has(element.tagName)) return true;
  if (!element.hasAttributes()) return false;
  return (
    element.hasAttribute('hidden') ||
    element.getAttribute('role') === 'button' ||
    element.getAttribute('aria-hidden') === 'true' ||
    /display\s*:\s*none/i.test(element.getAttribute('style') ?? '')
  );
}

/** Comments read best a blank line apart, each one's lines together. */
export const COMMENT_PARAGRAPHS: ReadonlySet<string> = new Set(['LI', 'ARTICLE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/**
 * The text of `root`, one line per block, a blank line around `paragraphs` (as innerText puts
 * around <p>, headings, lists), controls and hidden parts left out.
 */
export function blockText(root: Node, paragraphs: ReadonlySet<string> = PARAGRAPHS): string {
  const out: string[] = [];
  /** Newlines owed before the next text: the most any block boundary since the last text asked for. */
  let owed = 0;
  let lineStart = true;
  let inPre = 0;
  const endLine = (newlines: string) => {
    const last = out.length - 1;
    if (last >= 0) out[last] = (out[last] ?? '').replace(/[ \t]+$/, '');
    out.push(newlines);
    lineStart = true;
  };
  const write = (text: string) => {
    if (owed > 0 && out.length > 0) endLine('\n'.repeat(owed));
    owed = 0;
    const chunk = lineStart || out[out.length - 1]?.endsWith(' ') ? text.replace(/^ /, '') : text;
    if (chunk === '') return;
    out.push(chunk);
    lineStart = chunk.endsWith('\n');
  };
  // [node, leaving]: a block's end is visited after its children, to owe its break.
  const stack: Array<[Node, boolean]> = [[root, false]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, leaving] = entry;
    if (node.nodeType === Node.TEXT_NODE) {
      // Zero-width characters are no text a person reads (SmartEditor ONE fills an empty paragraph with U+200B).
      const text = (node.nodeValue ?? '').replace(/[\u200b\u2060\ufeff]/g, '');
      if (text === '') continue;
      if (inPre > 0) write(text);
      else {
        const collapsed = text.replace(/[ \t\n\r\f]+/g, ' ');
        // Whitespace between blocks is no text; between words it is one space.
        if (collapsed !== ' ' || (owed === 0 && !lineStart)) write(collapsed);
      }
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) continue;
    const tag = node.nodeType === Node.ELEMENT_NODE ? (node as Element).tagName : '';
    const lines = paragraphs.has(tag) ? 2 : LINES.has(tag) || PARAGRAPHS.has(tag) ? 1 : 0;
    if (leaving) {
      if (tag === 'PRE') inPre -= 1;
      owed = Math.max(owed, lines);
      continue;
    }
    if (tag !== '' && node !== root && skipped(node as Element)) continue;
    if (tag === 'BR') {
      if (out.length > 0) endLine('\n');
      continue;
    }
    if ((tag === 'TD' || tag === 'TH') && (node as Element).previousElementSibling && !lineStart) out.push('\t');
    if (tag === 'PRE') inPre += 1;
    owed = Math.max(owed, lines);
    stack.push([node, true]);
    for (let child = node.lastChild; child; child = child.previousSibling) stack.push([child, false]);
  }
  return out
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
