/**
 * Editors render the same structure in their own markup: Quill marks bullet lists with
 * `data-list`, Draft.js styles spans, Lexical puts code blocks in `<code>` and formats in theme
 * classes. `semanticHtml` turns an editor's DOM into the small allowlisted HTML Tether speaks (to
 * report what an editor kept, to read a region as markdown, to restore a field on rollback), and
 * `constructCounts` / `blockText` read that HTML.
 */
import DOMPurify from 'dompurify';
import { ALL_FAMILIES } from './families/index.ts';
import { CONSTRUCTS, type Construct } from '../pageTypes.ts';

export { CONSTRUCTS, type Construct } from '../pageTypes.ts';

export const ALLOWED_TAGS = ['p', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 's', 'strike', 'del', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'br'];

/**
 * The one sanitizer configuration, for every call (an act's HTML and markdown, and the semantic
 * HTML inspect and rollback read): the allowlisted tags, and on them only `href`, only on links,
 * only http(s). DOMPurify otherwise keeps every `data-*` and `aria-*` attribute even with an
 * attribute allowlist (ALLOW_DATA_ATTR / ALLOW_ARIA_ATTR default on, DOMPurify 3.x), and editors
 * give them meaning: TinyMCE 8 turns `data-mce-style` into a real `style` when it saves (seen in
 * a real TinyMCE 8.x, issue 22).
 */
export function purify(html: string, tags: readonly string[] = ALLOWED_TAGS): string {
  const clean = DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...tags],
    ALLOWED_ATTR: ['href'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^https?:/i,
    KEEP_CONTENT: true,
  });
  // DOMPurify leaves `is=""` where it removed an `is` (the serializer would write the old value
  // back otherwise). An element made afresh has neither.
  if (!/\sis=/i.test(clean)) return clean;
  const body = parseHtml(clean);
  body.querySelectorAll('[is]').forEach((element) => rename(element, element.tagName.toLowerCase()));
  return body.innerHTML;
}

// An `href` anywhere but on a link means nothing Tether writes, and editors may make something of it.
DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
  if (data.attrName === 'href' && node.nodeName !== 'A') data.keepAttr = false;
});

const CONSTRUCT_SELECTORS: Record<Construct, string> = {
  h2: 'h2',
  h3: 'h3',
  h4: 'h4',
  strong: 'strong, b',
  em: 'em, i',
  s: 's, strike, del',
  code: 'code',
  pre: 'pre',
  a: 'a[href]',
  ul: 'ul',
  ol: 'ol',
  blockquote: 'blockquote',
  br: 'br',
};

const BLOCKS = new Set([
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'blockquote',
  'pre',
  'table',
  'tr',
  'section',
  'article',
  'header',
  'footer',
]);

function hasText(node: Node | null): boolean {
  return node !== null && (node.textContent ?? '').replace(/[\u200b\ufeff\u2060]/g, '').trim() !== '';
}

/** A `<br>` that breaks a line between text, not the filler an editor keeps in an empty block. */
function isLineBreak(br: Element): boolean {
  let before: Node | null = br.previousSibling;
  while (before && !hasText(before) && before.nodeName !== 'BR') before = before.previousSibling;
  let after: Node | null = br.nextSibling;
  while (after && !hasText(after)) after = after.nextSibling;
  return before !== null && after !== null;
}

export function constructCounts(root: ParentNode): Record<Construct, number> {
  const counts = {} as Record<Construct, number>;
  for (const name of CONSTRUCTS) {
    let found = Array.from(root.querySelectorAll(CONSTRUCT_SELECTORS[name]));
    if (name === 'code') found = found.filter((element) => !element.closest('pre'));
    if (name === 'br') found = found.filter(isLineBreak);
    counts[name] = found.length;
  }
  return counts;
}

export function constructsIn(root: ParentNode): Construct[] {
  const counts = constructCounts(root);
  return CONSTRUCTS.filter((name) => counts[name] > 0);
}

/** The text HTML renders as, one block per line (what an editor's text reads back as). */
export function blockText(root: Node): string {
  const lines: string[] = [''];
  const push = (text: string) => {
    lines[lines.length - 1] += text;
  };
  const walk = (node: Node, pre: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const data = (node.nodeValue ?? '').replace(/[\u200b\ufeff\u2060]/g, '');
      if (pre) data.split('\n').forEach((part, index) => (index > 0 ? lines.push(part) : push(part)));
      else push(data.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    const name = node.nodeName.toLowerCase();
    if (name === 'br') {
      lines.push('');
      return;
    }
    const block = BLOCKS.has(name);
    if (block) lines.push('');
    node.childNodes.forEach((child) => walk(child, pre || name === 'pre'));
    if (block) lines.push('');
  };
  walk(root, false);
  return lines
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function rename(element: Element, tag: string): Element {
  const replacement = element.ownerDocument.createElement(tag);
  const href = element.getAttribute('href');
  if (href !== null && tag === 'a') replacement.setAttribute('href', href);
  replacement.append(...Array.from(element.childNodes));
  element.replaceWith(replacement);
  return replacement;
}

function wrapContents(element: Element, tag: string): void {
  const wrapper = element.ownerDocument.createElement(tag);
  wrapper.append(...Array.from(element.childNodes));
  element.append(wrapper);
}

/** Inline formats editors express with styles or theme classes instead of tags. */
function inlineFormats(element: HTMLElement): string[] {
  const style = element.getAttribute('style') ?? '';
  const className = typeof element.className === 'string' ? element.className : '';
  const formats: string[] = [];
  if (/font-weight:\s*(bold|[6-9]00)/i.test(style) || /(^|[-_\s])bold($|[-_\s])/i.test(className)) formats.push('strong');
  if (/font-style:\s*italic/i.test(style) || /(^|[-_\s])italic($|[-_\s])/i.test(className)) formats.push('em');
  if (/line-through/i.test(style) || /strikethrough|line-through/i.test(className)) formats.push('s');
  if (/font-family:[^;]*monospace/i.test(style) || /(^|[-_\s])(text-)?code($|[-_\s])/i.test(className)) formats.push('code');
  return formats;
}

/** What no family's content is: non-editable widgets, and every family's fillers and placeholder. */
const NOT_CONTENT = [
  '[contenteditable="false"]:not(a)',
  ...ALL_FAMILIES.flatMap((family) => [...(family.fillers ?? []), ...(family.placeholder ? [family.placeholder] : [])]),
].join(', ');

/** Rewrites editors' quirks in a detached copy of their DOM (a region may hold any editor). */
function normalizeQuirks(root: HTMLElement): void {
  root.querySelectorAll(NOT_CONTENT).forEach((element) => element.remove());
  // Each family's own markup for a structure (Quill's lists, Lexical's code blocks), as its descriptor says.
  for (const family of ALL_FAMILIES) family.toSemantic?.(root);
  // Editors that build blocks from divs (Draft.js, CodeMirror's lines): a div of inline content is a
  // paragraph, unless it sits in a block that already is one (Draft's heading > div).
  Array.from(root.querySelectorAll('div'))
    .reverse()
    .forEach((div) => {
      if (Array.from(div.children).some((child) => BLOCKS.has(child.tagName.toLowerCase()))) return;
      if (div.parentElement?.closest('p, h1, h2, h3, h4, h5, h6, li, pre')) div.replaceWith(...Array.from(div.childNodes));
      else rename(div, 'p');
    });
  root.querySelectorAll<HTMLElement>('span, p, li, code, strong, em, h2, h3, h4').forEach((element) => {
    for (const format of inlineFormats(element)) {
      if (!element.closest(format === 'code' ? 'code, pre' : format === 'strong' ? 'strong, b' : format === 'em' ? 'em, i' : 's, del, strike'))
        wrapContents(element, format);
    }
  });
}

/** Editors render text with `white-space: pre-wrap`: a newline inside a block's text is a line break. */
function literalNewlines(root: HTMLElement): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    if (!/\S\n+\S/.test(text.data) || text.parentElement?.closest('pre')) continue;
    const parts = text.data.split(/\n/);
    text.replaceWith(...parts.flatMap((part, index) => (index === 0 ? [part] : [root.ownerDocument.createElement('br'), part])));
  }
}

/**
 * Allowlisted HTML of an editor's content (`editor: true`: its text is pre-wrapped, so newlines are
 * line breaks) or of any region of a page, formatting kept as tags.
 */
export function semanticHtml(root: Element, options: { underline?: boolean; editor?: boolean } = {}): string {
  const copy = root.cloneNode(true) as HTMLElement;
  normalizeQuirks(copy);
  if (options.editor) literalNewlines(copy);
  return purify(copy.innerHTML, options.underline ? [...ALLOWED_TAGS, 'u'] : ALLOWED_TAGS);
}

export function parseHtml(html: string): HTMLElement {
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = html;
  return doc.body;
}
