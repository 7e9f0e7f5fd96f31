import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pieceOf, type TextPiece } from './textPiece.ts';

/** Every piece of `whole`, reading on from each answer's `next` as an agent would. */
function readAll(whole: string, limit: number): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (;;) {
    const piece = pieceOf(whole, from, limit);
    pieces.push(piece);
    const next = piece.truncated?.next;
    if (next === undefined) return pieces;
    expect(next).toBeGreaterThan(from);
    from = next;
  }
}

const splitsPair = (text: string, at: number) => /[\ud800-\udbff]/.test(text.charAt(at - 1)) && /[\udc00-\udfff]/.test(text.charAt(at));
const wordChar = (char: string) => /[\p{L}\p{N}\p{Extended_Pictographic}]|\u200d|\ufe0f/u.test(char);

describe('pieceOf', () => {
  it('returns a text within the limit whole, saying nothing', () => {
    expect(pieceOf('Weekly notes', 0, 50)).toEqual({ text: 'Weekly notes' });
  });

  it('cuts before the last whitespace, never inside a word, and says where the next piece starts', () => {
    const whole = 'spring market by the river';
    expect(pieceOf(whole, 0, 15)).toEqual({ text: 'spring market', truncated: { returned: 13, total: 26, next: 13 } });
    expect(pieceOf(whole, 13, 15)).toEqual({ text: ' by the river', truncated: { from: 13, returned: 13, total: 26 } });
  });

  it('an emoji straddling the limit in Korean text stays whole, in the next piece with its word', () => {
    const whole = `강변 시장🌸장터 열립니다`;
    // The limit falls between the emoji's two halves (index 5 is its high surrogate).
    expect(splitsPair(whole, 6)).toBe(true);
    const first = pieceOf(whole, 0, 6);
    expect(first.text).toBe('강변');
    expect(pieceOf(whole, first.truncated?.next ?? 0, 20).text).toBe(' 시장🌸장터 열립니다');
  });

  it('without whitespace near the limit (Japanese) cuts at a word boundary', () => {
    const whole = '春の市場は土曜日の午前十時に川辺で開かれます';
    const pieces = readAll(whole, 8);
    expect(pieces.map((piece) => piece.text).join('')).toBe(whole);
    const words = new Set(Array.from(new Intl.Segmenter('ja', { granularity: 'word' }).segment(whole), ({ index }) => index));
    for (const piece of pieces) if (piece.truncated?.next !== undefined) expect(words.has(piece.truncated.next)).toBe(true);
  });

  it('a family emoji (one ZWJ sequence) is never cut apart', () => {
    const family = '👩‍👩‍👧‍👦';
    const whole = family.repeat(6);
    for (const piece of readAll(whole, 13)) expect(piece.text.length % family.length).toBe(0);
  });

  it('a word beside an emoji: the cut falls between them, not inside either', () => {
    const whole = `${'a'.repeat(30)}😀${'b'.repeat(30)}`;
    expect(readAll(whole, 31).map((piece) => piece.text)).toEqual(['a'.repeat(30), '😀', 'b'.repeat(30)]);
  });

  it('one word longer than the limit is cut at the limit, at a character boundary (an accent stays with its letter)', () => {
    expect(readAll('x'.repeat(100), 31).map((piece) => piece.text.length)).toEqual([31, 31, 31, 7]);
    expect(readAll('e\u0301'.repeat(40), 31).map((piece) => piece.text.length)).toEqual([30, 30, 20]);
  });

  it('a start between a surrogate pair’s halves starts at its first half; a start past the end is an empty last piece', () => {
    expect(pieceOf('ab😀cd', 3, 10)).toEqual({ text: '😀cd', truncated: { from: 2, returned: 4, total: 6 } });
    expect(pieceOf('abc', 10, 10)).toEqual({ text: '', truncated: { from: 3, returned: 0, total: 3 } });
  });

  it('any text, any limit: the pieces end to end are the whole text, none longer than the limit, none splitting a pair or a word where a space was near', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\n', '봄', '시장', '😀', '👩‍👧', '春', 'é', '\u0301');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }), fc.integer({ min: 2, max: 40 }), (units, limit) => {
        const whole = units.join('');
        const pieces = readAll(whole, limit);
        expect(pieces.map((piece) => piece.text).join('')).toBe(whole);
        for (const piece of pieces) {
          expect(piece.text.length).toBeLessThanOrEqual(limit);
          const next = piece.truncated?.next;
          if (next === undefined) continue;
          expect(splitsPair(whole, next)).toBe(false);
          const from = piece.truncated?.from ?? 0;
          if (/\s/.test(whole.slice(from + 1, from + limit + 1))) expect(wordChar(whole.charAt(next - 1)) && wordChar(whole.charAt(next))).toBe(false);
        }
      }),
    );
  });
});
