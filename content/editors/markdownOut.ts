/**
 * Reading a field or region as markdown (inspect `readAs: "markdown"`), so an agent reads a post's
 * headings, lists and links without paying for HTML. The editor's DOM is first reduced to the
 * allowlisted HTML (semanticHtml.ts), then converted with `turndown`. What the page shows as text
 * stays text: `<`, `>` and `&` come back as entities, so writing the read as markdown shows the
 * same characters and makes no element.
 */
import TurndownService from 'turndown';
import type { Editable } from '../editables.ts';
import { readEditable } from '../editables.ts';
import { familyOf } from './families/index.ts';
import { constructsIn, parseHtml, semanticHtml } from './semanticHtml.ts';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', strongDelimiter: '**' });
turndown.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** `<`, `>` and `&` as entities: markdown renders them as those characters, never as a tag or an entity. */
function escapeHtmlText(text: string): string {
  return text.replace(/[&<>]/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * A bare address in text stays text: GFM (marked, which writes markdown) links `https://…`,
 * `http://…`, `ftp://…` and `www.…` found in text, so a phishing address a page shows unlinked
 * would come back clickable. A backslash before `:` or `.` (punctuation, shown as itself) keeps
 * marked from seeing one. A link's own address (`](…)`, `]: …`) is markdown, and stays.
 */
function unlinkBareAddresses(markdown: string): string {
  return markdown.replace(/(?<!\]\(\s*|\]:\s*)\b(ftp|https?):\/\//gi, '$1\\://').replace(/(?<!\]\(\s*|\]:\s*)\bwww\./gi, 'www\\.');
}

/**
 * Text a page shows is text in the markdown: turndown (7.2) escapes markdown's syntax but not
 * HTML's, so a page showing `<a href=…>` as text read back as a live link once written as
 * markdown (issue 22). A text node is HTML-escaped first (an entity holds no markdown syntax),
 * then markdown-escaped as turndown does, and every `~` too, which turndown leaves (GFM reads
 * `~~` as strikethrough): each piece between tildes is escaped on its own, and a backslash before
 * punctuation where none was needed renders as the punctuation. Code is not escaped: markdown
 * keeps code's characters as they are.
 */
const turndownEscape = turndown.escape.bind(turndown);
/**
 * Turndown escapes `# `, `+ ` and `1. ` that start a text, not a `#`, `+` or `1.` that is all of it
 * (an empty heading or list item), nor `1)` (CommonMark's other ordered-list marker).
 */
const markdownEscape = (text: string): string =>
  turndownEscape(text)
    .replace(/^(#{1,6}|\+)$/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
turndown.escape = (text: string): string =>
  escapeHtmlText(text)
    .split('~')
    .map((piece) => unlinkBareAddresses(markdownEscape(piece)))
    .join('\\~');

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}

export function regionMarkdown(element: Element): string {
  return htmlToMarkdown(semanticHtml(element));
}

/**
 * Prose of a plain field: `<`, `&` and `>` escaped, but a `>` that starts a line (a blockquote, the
 * field's own markdown) stays; `>` alone never opens a tag. `atLineStart`: the text's first line
 * starts a line of the field.
 */
function escapeProse(text: string, atLineStart: boolean): string {
  const escaped = text
    .split('\n')
    .map((line, index) => {
      const marker = index > 0 || atLineStart ? (/^(?: {0,3}>)+ ?/.exec(line)?.[0] ?? '') : '';
      return marker + escapeHtmlText(line.slice(marker.length));
    })
    .join('\n');
  return unlinkBareAddresses(escaped);
}

/** Where a run of N backticks opens a code span, the next run of exactly N closes it (CommonMark). */
const CODE_SPAN = /(`+)[\s\S]*?(?<!`)\1(?!`)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A plain field's text as markdown: its markdown syntax stays (a field often holds markdown
 * already, and escaping its `##` or `>` would change what the person wrote), but `<`, `>` and `&`
 * are escaped, and bare addresses are kept from becoming links, so markup, an entity or an address
 * the field shows as text is text again once written as markdown. Inside code (fenced blocks, code spans) they are left as written: markdown keeps code literal.
 */
export function plainTextMarkdown(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let prose: string[] = [];
  const flush = () => {
    if (prose.length === 0) return;
    const joined = prose.join('\n');
    let last = 0;
    let escaped = '';
    for (const match of joined.matchAll(CODE_SPAN)) {
      escaped += escapeProse(joined.slice(last, match.index), last === 0 || joined[last - 1] === '\n') + match[0];
      last = match.index + match[0].length;
    }
    out.push(escaped + escapeProse(joined.slice(last), last === 0 || joined[last - 1] === '\n'));
    prose = [];
  };
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      out.push(line);
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    } else if (marker !== undefined) {
      flush();
      out.push(line);
      fence = marker;
    } else {
      prose.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/**
 * Plain-text fields hold their text (often markdown already) and come back as it, with `<`, `>`
 * and `&` escaped (plainTextMarkdown); so does an editor whose content has no structure at all (a
 * plain-text Lexical, say). Rich editors are converted.
 */
export function fieldMarkdown(editable: Editable): string {
  if (familyOf(editable).text === 'plain') return plainTextMarkdown(readEditable(editable));
  const html = semanticHtml(editable.element, { editor: true });
  return constructsIn(parseHtml(html)).some((name) => name !== 'br') ? htmlToMarkdown(html) : plainTextMarkdown(readEditable(editable));
}
