/**
 * Reading a field or region as markdown (inspect `readAs: "markdown"`), so an agent reads a post's
 * headings, lists and links without paying for HTML. The editor's DOM is first reduced to the
 * allowlisted HTML (semanticHtml.ts), then converted with `turndown`.
 */
import TurndownService from 'turndown';
import type { Editable } from '../editables.ts';
import { readEditable } from '../editables.ts';
import { familyOf } from './families/index.ts';
import { constructsIn, parseHtml, semanticHtml } from './semanticHtml.ts';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', strongDelimiter: '**' });
turndown.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}

export function regionMarkdown(element: Element): string {
  return htmlToMarkdown(semanticHtml(element));
}

/**
 * Plain-text fields hold their text (often markdown already) and are returned as they are; so is
 * an editor whose content has no structure at all (a plain-text Lexical, say): escaping its `##`
 * would change what the person wrote. Rich editors are converted.
 */
export function fieldMarkdown(editable: Editable): string {
  if (familyOf(editable).text === 'plain') return readEditable(editable);
  const html = semanticHtml(editable.element, { editor: true });
  return constructsIn(parseHtml(html)).some((name) => name !== 'br') ? htmlToMarkdown(html) : readEditable(editable);
}
