/**
 * How much of a long text one answer carries, and where the next one starts. Every text inspect
 * returns (a field, a region, the article, the comments) goes through `pieceOf`: a text longer
 * than the limit is cut, and the answer says so (`truncated: {returned, total, next}`, in UTF-16
 * code units, JavaScript's string length); `from: next` reads on, and the pieces put end to end
 * are the whole text.
 *
 * A cut never splits a word: it falls before the last whitespace within the last 1,000 characters
 * up to the limit (the next piece starts with it); where there is none (Chinese, Japanese, a long address), at the last word
 * boundary there (Intl.Segmenter, Unicode's word boundaries, never inside a character or an emoji
 * sequence); failing that, at the last character boundary (never between a surrogate pair's
 * halves).
 */

/** How a text was cut: `from` where this piece starts (when not at 0), `next` where the next one starts (when more remains). */
export interface Truncation {
  from?: number;
  returned: number;
  total: number;
  next?: number;
}

export interface TextPiece {
  text: string;
  /** Only when the piece is not the whole text. */
  truncated?: Truncation;
}

/** The characters inspect returns of one text at most. */
export const TEXT_LIMIT = 50_000;

const LOOK_BACK = 1000;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The last boundary at or before `end` and after `floor` that `granularity` finds, or 0. */
function lastBoundary(text: string, floor: number, end: number, granularity: 'word' | 'grapheme'): number {
  let found = 0;
  // A few characters past the limit decide whether the limit itself is a boundary.
  for (const { index } of new Intl.Segmenter(undefined, { granularity }).segment(text.slice(floor, end + 32))) {
    if (floor + index > end) break;
    if (index > 0) found = floor + index;
  }
  return found;
}

/** Where to end a piece that would otherwise end at `end` (mid-text). */
function cutAt(text: string, start: number, end: number): number {
  const floor = Math.max(start, end - LOOK_BACK);
  for (let at = end; at > floor; at -= 1) if (/\s/.test(text.charAt(at))) return at;
  return lastBoundary(text, floor, end, 'word') || lastBoundary(text, floor, end, 'grapheme') || (isHigh(text.charCodeAt(end - 1)) ? end - 1 : end);
}

/** The piece of `whole` from `from` (a `next` of an earlier answer), at most `limit` characters. */
export function pieceOf(whole: string, from = 0, limit = TEXT_LIMIT): TextPiece {
  const total = whole.length;
  let start = Math.min(Math.max(0, from), total);
  // A start between a surrogate pair's halves starts at its first half.
  if (start > 0 && isLow(whole.charCodeAt(start)) && isHigh(whole.charCodeAt(start - 1))) start -= 1;
  const end = start + limit < total ? cutAt(whole, start, start + limit) : total;
  const text = whole.slice(start, end);
  if (start === 0 && end === total) return { text };
  const truncated: Truncation = { returned: end - start, total };
  if (start > 0) truncated.from = start;
  if (end < total) truncated.next = end;
  return { text, truncated };
}
