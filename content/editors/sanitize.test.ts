// @vitest-environment jsdom
/**
 * Only `href` (http/https, on links) reaches the HTML an editor is handed: whatever attribute an
 * agent's HTML, markdown's raw HTML or an editor's DOM carries — `data-*` (TinyMCE turns
 * `data-mce-style` into a real `style`), `aria-*`, `style`, `class`, `id`, handlers — it is gone,
 * on every allowlisted tag, in every sanitize call (the act's payload and the semantic HTML that
 * inspect and rollback read). Attribute names are generated (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALLOWED_TAGS, parseHtml, semanticHtml } from './semanticHtml.ts';
import { preparePayload } from './structuredText.ts';

const VOID = new Set(['br']);

/** Names editors and frameworks give meaning to, and generated ones of every shape an HTML parser keeps. */
const attributeName = fc.oneof(
  fc.constantFrom(
    'style',
    'class',
    'id',
    'name',
    'title',
    'lang',
    'dir',
    'src',
    'srcset',
    'xmlns',
    'is',
    'slot',
    'part',
    'target',
    'rel',
    'tabindex',
    'contenteditable',
    'draggable',
    'hidden',
    'popover',
    'formaction',
    'onclick',
    'onerror',
    'data-mce-style',
    'data-mce-href',
    'data-mce-src',
    'data-bind',
    'data-bs-toggle',
    'data-bs-title',
    'data-list',
    'data-lexical-text',
    'data-slate-node',
    'aria-hidden',
    'aria-label',
    'aria-describedby',
    'role',
    'xlink:href',
    'href',
  ),
  fc.stringMatching(/^[a-z][a-z0-9_.-]{0,12}$/).map((rest) => `data-${rest}`),
  fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/).map((rest) => `aria-${rest}`),
  fc.stringMatching(/^[a-z][a-z0-9_:.-]{0,15}$/),
);

const attributeValue = fc.oneof(
  fc.constantFrom(
    'background-image:url(https://attacker.example/p.png);box-shadow:0 0 0 100vmax #fff',
    'html: $root.x',
    'tooltip',
    '<img src=x onerror=alert(1)>',
    'true',
    'https://attacker.example/',
    'javascript:alert(1)',
  ),
  fc.string({ maxLength: 20 }),
);

const attributes = fc.uniqueArray(fc.tuple(attributeName, attributeValue), { minLength: 1, maxLength: 4, selector: ([name]) => name.toLowerCase() });
const tag = fc.constantFrom(...ALLOWED_TAGS, 'h1', 'h5', 'h6');

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function element(name: string, attrs: Array<[string, string]>): string {
  const written = attrs.map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('');
  if (VOID.has(name)) return `<p>before<${name}${written}>after</p>`;
  const open = `<${name}${written}>Hello</${name}>`;
  return name === 'li' ? `<ul>${open}</ul>` : open;
}

/** Every attribute left in the HTML, as `tag[name=value]`, except an http(s) href on a link. */
function attributesLeft(html: string): string[] {
  const left: string[] = [];
  parseHtml(html)
    .querySelectorAll('*')
    .forEach((node) => {
      for (const attribute of Array.from(node.attributes)) {
        const allowed = node.tagName === 'A' && attribute.name === 'href' && /^https?:/i.test(attribute.value);
        if (!allowed) left.push(`${node.tagName.toLowerCase()}[${attribute.name}=${attribute.value}]`);
      }
    });
  return left;
}

// Generated cases in jsdom take seconds on a loaded machine.
describe('only href survives the sanitizer', { timeout: 120_000 }, () => {
  it('HTML from the agent: no attribute but an http(s) href reaches the editor, whatever its name', () => {
    fc.assert(
      fc.property(tag, attributes, (name, attrs) => {
        const payload = preparePayload('html', element(name, attrs));
        expect(attributesLeft(payload.html)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('raw HTML inside markdown: the same', () => {
    fc.assert(
      fc.property(tag, attributes, (name, attrs) => {
        const payload = preparePayload(
          'markdown',
          `Intro text\n\n${element(name, attrs)}\n\nand <strong ${attrs.map(([key]) => `${key}="1"`).join(' ')}>b</strong>`,
        );
        expect(attributesLeft(payload.html)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('an editor’s DOM reduced to semantic HTML (inspect’s markdown, rollback): the same', () => {
    fc.assert(
      fc.property(tag, attributes, (name, attrs) => {
        const root = parseHtml(element(name, attrs));
        expect(attributesLeft(semanticHtml(root))).toEqual([]);
        expect(attributesLeft(semanticHtml(root, { underline: true, editor: true }))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('the attacks as seen: data-bind, data-bs-*, aria-hidden and data-mce-style are gone, the text and the link stay', () => {
    const attack = preparePayload(
      'html',
      '<p data-bind="html: $root.x" data-bs-toggle="tooltip" data-bs-title="&lt;img src=x onerror=alert(1)&gt;" aria-hidden="true">Hello <strong data-mce-style="background-image:url(https://attacker.example/p.png);box-shadow:0 0 0 100vmax #fff">b</strong> <a href="https://cafe.example/notice" data-mce-href="javascript:alert(1)" class="x" style="color:red">notice</a></p>',
    );
    expect(attack.html).toBe('<p>Hello <strong>b</strong> <a href="https://cafe.example/notice">notice</a></p>');
    expect(preparePayload('markdown', 'a <strong data-x="1">b</strong>').html).toBe('<p>a <strong>b</strong></p>');
  });

  it('href counts only on a link, and only http(s)', () => {
    expect(preparePayload('html', '<p href="https://a.example/">x</p><strong href="https://a.example/">y</strong>').html).toBe('<p>x</p><strong>y</strong>');
    expect(preparePayload('html', '<a href="javascript:alert(1)">x</a> <a href="data:text/html,x">y</a> <a href="HTTPS://a.example/">z</a>').html).toBe(
      'x y <a href="HTTPS://a.example/">z</a>',
    );
  });
});
