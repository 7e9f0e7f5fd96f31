/**
 * What a write step carries (the allowlisted HTML of structuredText.ts, from text, markdown or
 * HTML) as SmartEditor ONE blocks (seModel.ts): paragraphs with bold, italic, strike-through and
 * links, headings as the editor's subheading style, list items as list paragraphs, a blockquote
 * as a quotation. What the editor's model has no place for is said, by the name the agent wrote
 * it in: inline code and code blocks (their text stays, as paragraphs), line breaks inside a
 * paragraph (each line becomes a paragraph of its own).
 */
import type { Payload } from '../../pageTypes.ts';
import type { Block, Inline } from './seModel.ts';

export interface Converted {
  blocks: Block[];
  /** Constructs of the payload with no place in the model (HTML names, as the agent wrote them). */
  unplaced: string[];
}

type Marks = Omit<Inline, 'text'>;

/** Plain text: one paragraph per line. */
function textBlocks(text: string): Block[] {
  return text.split(/\r\n?|\n/).map((line) => ({ kind: 'paragraph', inlines: line === '' ? [] : [{ text: line }] }));
}

/** The markup in an inert document of its own (semanticHtml.ts has one too; importing it here would make a cycle through the family registry). */
function parseHtml(html: string): HTMLElement {
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = html;
  return doc.body;
}

export function blocksOf(payload: Payload): Converted {
  if (payload.format === 'text') return { blocks: textBlocks(payload.text), unplaced: [] };
  const unplaced = new Set<string>();
  const blocks: Block[] = [];

  /** The runs of one block's inline content; a <br> ends a line (a new paragraph). */
  const lines = (element: Element, marks: Marks = {}): Inline[][] => {
    const out: Inline[][] = [[]];
    const walk = (node: Node, current: Marks) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.nodeValue ?? '';
        if (text !== '') (out[out.length - 1] as Inline[]).push({ text, ...current });
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const name = node.nodeName.toLowerCase();
      if (name === 'br') {
        unplaced.add('br');
        out.push([]);
        return;
      }
      const next: Marks = { ...current };
      if (name === 'strong' || name === 'b') next.bold = true;
      if (name === 'em' || name === 'i') next.italic = true;
      if (name === 's' || name === 'del' || name === 'strike') next.strike = true;
      if (name === 'code') unplaced.add('code');
      if (name === 'a') {
        const href = (node as Element).getAttribute('href') ?? '';
        if (/^https?:/i.test(href)) next.link = href;
      }
      if (['ul', 'ol', 'p', 'blockquote', 'pre', 'h2', 'h3', 'h4'].includes(name)) return; // block content inside inline content: handled by its block
      node.childNodes.forEach((child) => walk(child, next));
    };
    element.childNodes.forEach((child) => walk(child, marks));
    return out;
  };

  const paragraphs = (element: Element, options: { heading?: 2 | 3 | 4; list?: { type: 'bullet' | 'decimal'; level: number } } = {}) => {
    for (const inlines of lines(element)) blocks.push({ kind: 'paragraph', inlines, ...options });
  };

  const list = (element: Element, level: number) => {
    const type = element.nodeName === 'OL' ? 'decimal' : 'bullet';
    for (const item of Array.from(element.children)) {
      if (item.nodeName !== 'LI') continue;
      // An item's own text (its paragraphs, if a loose list has them), then its nested lists one level in.
      const own = Array.from(item.children).filter((child) => child.nodeName === 'P');
      if (own.length > 0) own.forEach((child) => paragraphs(child, { list: { type, level } }));
      else paragraphs(item, { list: { type, level } });
      Array.from(item.children)
        .filter((child) => child.nodeName === 'UL' || child.nodeName === 'OL')
        .forEach((child) => list(child, level + 1));
    }
  };

  const walk = (parent: Element) => {
    parent.childNodes.forEach((node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        if ((node.nodeValue ?? '').trim() !== '') blocks.push({ kind: 'paragraph', inlines: [{ text: node.nodeValue ?? '' }] });
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const element = node as Element;
      switch (element.nodeName) {
        case 'H2':
        case 'H3':
        case 'H4':
          paragraphs(element, { heading: Number(element.nodeName[1]) as 2 | 3 | 4 });
          return;
        case 'UL':
        case 'OL':
          list(element, 0);
          return;
        case 'BLOCKQUOTE': {
          // A quotation holds paragraphs: what else a quote held is its text.
          const inner = Array.from(element.children).filter((child) => child.nodeName !== 'BLOCKQUOTE');
          const quoted = inner.length > 0 ? inner.flatMap((child) => lines(child)) : lines(element);
          if (inner.some((child) => child.nodeName !== 'P')) unplaced.add('blockquote content');
          blocks.push({ kind: 'quotation', paragraphs: quoted });
          return;
        }
        case 'PRE':
          // No code component the record shows the model of: its lines are paragraphs.
          unplaced.add('pre');
          for (const line of (element.textContent ?? '').replace(/\n$/, '').split('\n'))
            blocks.push({ kind: 'paragraph', inlines: line ? [{ text: line }] : [] });
          return;
        case 'P':
          paragraphs(element);
          return;
        default:
          walk(element);
      }
    });
  };
  walk(parseHtml(payload.html));
  return { blocks, unplaced: [...unplaced] };
}
