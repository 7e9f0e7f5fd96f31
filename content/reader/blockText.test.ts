// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { blockText } from './blockText.ts';

function textOf(html: string): string {
  const root = document.createElement('div');
  root.innerHTML = html;
  return blockText(root);
}

describe('blockText: the text a person reads, one line per block', () => {
  it.each([
    ['an empty SmartEditor ONE paragraph (U+200B) is no line', '<p>봄 시장</p><p>\u200b</p>', '봄 시장'],
    ['zero-width characters inside words are dropped', '<p>co\u200bffee\ufeff</p>', 'coffee'],
    ['a word joiner between blocks leaves no blank line', '<p>one</p><p>\u2060</p><p>two</p>', 'one\n\ntwo'],
    ['ordinary paragraphs a blank line apart', '<p>one</p><p>two</p>', 'one\n\ntwo'],
  ])('%s', (_, html, text) => {
    expect(textOf(html)).toBe(text);
  });
});
