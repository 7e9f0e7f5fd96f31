/**
 * What a write step delivers, in every form an editor may take it: `text/plain` (the text, or the
 * markdown source, for plain-text fields) and `text/html` (allowlisted markup for rich editors).
 * Markdown is converted with `marked`; HTML from the agent and from markdown is sanitized with
 * DOMPurify to the allowlist (paragraphs, h2–h4, bold, italic, strike, http(s) links, lists,
 * blockquote, code, line breaks), with no attribute but a link's http(s) `href` (semanticHtml.ts's
 * `purify`, the one configuration). What the sanitizer removes is reported as dropped; nothing in
 * it ever runs (it is parsed in an inert document, and what is kept cannot execute).
 */
import DOMPurify, { type RemovedAttribute, type RemovedElement } from 'dompurify';
import { Marked } from 'marked';
import type { TextFormat } from '../../shared/agent/planSchema.ts';
import { ALLOWED_TAGS, blockText, constructsIn, parseHtml, purify } from './semanticHtml.ts';
import type { Payload } from '../pageTypes.ts';

export type { Payload } from '../pageTypes.ts';

/** Converted HTML may be longer than its markdown; past this the step is refused. */
export const MAX_HTML = 400_000;

export class TooLarge extends Error {}

const markdown = new Marked({ gfm: true, breaks: false, async: false });

/** Wrappers pasted HTML is full of; removing them loses nothing worth reporting. */
const UNREPORTED = new Set([
  'div',
  'span',
  'body',
  'html',
  'head',
  'meta',
  'font',
  'section',
  'article',
  'main',
  'header',
  'footer',
  '#text',
  '#comment',
  'h1',
  'h5',
  'h6',
]);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text as paragraphs; spaces HTML would collapse (leading, trailing, runs) are kept as &nbsp;. */
function paragraphs(text: string): string {
  return text
    .split(/\r\n?|\n/)
    .map((line) => {
      if (line === '') return '<p><br></p>';
      const spaced = escapeHtml(line).replace(/ {2}/g, ' &nbsp;').replace(/^ /, '&nbsp;').replace(/ $/, '&nbsp;');
      return `<p>${spaced}</p>`;
    })
    .join('');
}

function describeRemoval(entry: RemovedElement | RemovedAttribute): string | null {
  if ('element' in entry) {
    const name = entry.element.nodeName.toLowerCase();
    return UNREPORTED.has(name) ? null : name;
  }
  const attribute = entry.attribute;
  if (!attribute) return null;
  const name = attribute.name.toLowerCase();
  if (name.startsWith('on')) return name;
  if (name === 'href' || name === 'src') {
    const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(attribute.value)?.[1]?.toLowerCase();
    return scheme && scheme !== 'http' && scheme !== 'https' ? `${scheme}: URL` : 'non-http link';
  }
  return null;
}

/** Sanitizes to the allowlist; h1 becomes h2 and h5/h6 become h4 (a post's title is its own field). */
export function sanitize(html: string): { html: string; removed: string[] } {
  const clean = purify(html, [...ALLOWED_TAGS, 'h1', 'h5', 'h6']);
  const removed = [...new Set(DOMPurify.removed.map(describeRemoval).filter((item): item is string => item !== null))];
  const body = parseHtml(clean);
  body.querySelectorAll('h1').forEach((heading) => renameTo(heading, 'h2'));
  // One spelling per construct, the one every editor's paste handling knows.
  body.querySelectorAll('del, strike').forEach((element) => renameTo(element, 's'));
  body.querySelectorAll('b').forEach((element) => renameTo(element, 'strong'));
  body.querySelectorAll('i').forEach((element) => renameTo(element, 'em'));
  body.querySelectorAll('h5, h6').forEach((heading) => renameTo(heading, 'h4'));
  // A link whose address was removed is its text.
  body.querySelectorAll('a:not([href])').forEach((link) => link.replaceWith(...Array.from(link.childNodes)));
  collapseWhitespace(body);
  return { html: body.innerHTML, removed };
}

const BLOCK_CONTAINERS = new Set(['BODY', 'UL', 'OL', 'BLOCKQUOTE', 'LI']);
const BLOCK_TAGS = new Set(['P', 'H2', 'H3', 'H4', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'PRE']);

/**
 * Whitespace as the browser renders it: runs collapse to one space, and the line breaks between
 * blocks are not text. An editor whose paste handling keeps raw newlines (Slate's HTML example
 * does) then gets the same text a person sees.
 */
function collapseWhitespace(body: HTMLElement): void {
  const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    if (text.parentElement?.closest('pre')) continue;
    const parent = text.parentElement;
    const betweenBlocks =
      parent !== null &&
      BLOCK_CONTAINERS.has(parent.tagName) &&
      [text.previousSibling, text.nextSibling].every((sibling) => sibling === null || BLOCK_TAGS.has(sibling.nodeName));
    if (betweenBlocks && text.data.trim() === '') text.remove();
    else text.data = text.data.replace(/\s+/g, ' ');
  }
}

function renameTo(element: Element, tag: string): void {
  const replacement = element.ownerDocument.createElement(tag);
  replacement.append(...Array.from(element.childNodes));
  element.replaceWith(replacement);
}

export function preparePayload(format: TextFormat, text: string): Payload {
  if (format === 'text') {
    return { format, text, html: paragraphs(text), htmlText: text, constructs: [], removed: [] };
  }
  const raw = format === 'markdown' ? (markdown.parse(text) as string) : text;
  if (raw.length > MAX_HTML) throw new TooLarge();
  const { html, removed } = sanitize(raw);
  const rendered = blockText(parseHtml(html));
  const constructs = constructsIn(parseHtml(html));
  const payload: Payload = { format, text: format === 'markdown' ? text : rendered, html, htmlText: rendered, constructs, removed };
  if (format === 'markdown' && constructs.length === 0) payload.pasteText = rendered.split('\n').join('\n\n');
  return payload;
}
