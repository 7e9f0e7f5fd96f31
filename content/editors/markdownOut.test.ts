// @vitest-environment jsdom
/**
 * Reading as markdown keeps text as text: what a page shows as text (markup included, as a cafe
 * post showing `<a href=…>` does) comes back with `<`, `>` and `&` escaped, so writing the read as
 * markdown renders the same text and no element. Rich regions go through turndown; plain fields
 * keep their markdown syntax, and code keeps its characters as they are (code is literal anyway).
 * A bare address shown as text stays text too (GFM would link it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editableFrom } from '../editables.ts';
import { fieldMarkdown, plainTextMarkdown, regionMarkdown } from './markdownOut.ts';
import { blockText, parseHtml } from './semanticHtml.ts';
import { preparePayload } from './structuredText.ts';

/** A region showing `lines` as text, one paragraph each (as the cafe renders a post's body). */
function regionShowing(lines: string[]): HTMLElement {
  const region = parseHtml('');
  for (const line of lines) {
    const paragraph = region.ownerDocument.createElement('p');
    paragraph.textContent = line;
    region.append(paragraph);
  }
  return region;
}

/** The elements (besides paragraphs and line breaks) and the text the markdown renders as. */
function rendered(markdown: string): { elements: string[]; text: string } {
  const body = parseHtml(preparePayload('markdown', markdown).html);
  const elements = Array.from(body.querySelectorAll('*'))
    .map((node) => node.tagName.toLowerCase())
    .filter((name) => name !== 'p' && name !== 'br');
  return { elements, text: blockText(body) };
}

const SHOWN_AS_TEXT = [
  '<a href="https://phish.example/login">Register here</a>',
  '<strong data-mce-style="background-image:url(https://attacker.example/p.png)">Market day</strong>',
  'Tom &amp; Jerry, AT&T, 3 < 4 > 2, &lt;b&gt; &#60;i&#62;',
  '> not a quote, <!-- not a comment --> <https://autolink.example/>',
];

describe('readAs markdown keeps text as text', { timeout: 120_000 }, () => {
  it('a region showing markup as text reads back with <, > and & escaped', () => {
    const markdown = regionMarkdown(regionShowing(SHOWN_AS_TEXT));
    expect(markdown).toContain('&lt;a href="https\\://phish.example/login"&gt;Register here&lt;/a&gt;');
    expect(markdown).toContain('Tom &amp;amp; Jerry, AT&amp;T, 3 &lt; 4 &gt; 2, &amp;lt;b&amp;gt; &amp;#60;i&amp;#62;');
    expect(markdown).not.toMatch(/<[a-z!/]/i);
  });

  it('read → write as markdown: the same text, no new element', () => {
    const { elements, text } = rendered(regionMarkdown(regionShowing(SHOWN_AS_TEXT)));
    expect(elements).toEqual([]);
    expect(text).toBe(SHOWN_AS_TEXT.join('\n'));
  });

  it('formatting the region really has still comes back as markdown; code keeps its characters', () => {
    const region = parseHtml(
      '<h2>A &lt;b&gt; heading</h2><p><strong>bold &amp; sure</strong> <a href="https://cafe.example/n">the &lt;notice&gt;</a> <code>&lt;div&gt; &amp;</code></p>',
    );
    const markdown = regionMarkdown(region);
    expect(markdown).toBe('## A &lt;b&gt; heading\n\n**bold &amp; sure** [the &lt;notice&gt;](https://cafe.example/n) `<div> &`');
    const { elements, text } = rendered(markdown);
    expect(elements).toEqual(['h2', 'strong', 'a', 'code']);
    expect(text).toBe('A <b> heading\nbold & sure the <notice> <div> &');
  });

  it('generated text of tags, entities and markdown characters: read → write gives the same text, and no element', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '&amp;',
        '&lt;',
        '&#x3c;',
        '&#60;',
        '<a href="https://x.example/">',
        '</a>',
        '<strong data-x="1">',
        '<img src=x onerror=alert(1)>',
        '<!--',
        '-->',
        '<br>',
        '<https://x.example/>',
      ),
      fc.constantFrom('*', '_', '`', '#', '# ', '[', ']', '(', ')', '\\', '~', '~~', '- ', '+', '+ ', '1. ', '1) ', '> ', '=', '!'),
      fc.stringMatching(/^[a-z0-9 ]{1,8}$/),
    );
    const line = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('').replace(/\s+/g, ' ').trim());
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), (lines) => {
        const shown = lines.filter((text) => text !== '');
        fc.pre(shown.length > 0);
        expect(rendered(regionMarkdown(regionShowing(shown)))).toEqual({ elements: [], text: shown.join('\n') });
      }),
      { numRuns: 150 },
    );
  });

  it('a plain field read as markdown: its markdown stays, its markup and entities are escaped, its code is as written', () => {
    const text =
      '## Notes\n<a href="https://phish.example/login">Register here</a> & more, 3 > 2\n> quoted, [a link](https://cafe.example/n)\n`<b>` stays\n```\n<div>&amp;</div>\n```';
    expect(plainTextMarkdown(text)).toBe(
      '## Notes\n&lt;a href="https\\://phish.example/login"&gt;Register here&lt;/a&gt; &amp; more, 3 &gt; 2\n> quoted, [a link](https://cafe.example/n)\n`<b>` stays\n```\n<div>&amp;</div>\n```',
    );
    const textarea = parseHtml('<textarea></textarea>').querySelector('textarea') as HTMLTextAreaElement;
    textarea.value = '<a href="https://phish.example/login">Register here</a>';
    const editable = editableFrom(textarea);
    if (!editable) throw new Error('no editable');
    const markdown = fieldMarkdown(editable);
    expect(markdown).toBe('&lt;a href="https\\://phish.example/login"&gt;Register here&lt;/a&gt;');
    expect(rendered(markdown)).toEqual({ elements: [], text: textarea.value });
  });
});
