import { describe, expect, it } from 'vitest';
import { inputAuthor } from './personActivity.ts';

describe('a trusted input is the person’s only right after their own gesture', () => {
  it.each([
    { name: 'no key, composition, paste or drop ever → the page', gestureAt: 0, now: 10_000, author: 'page' },
    { name: 'a key just before → the person', gestureAt: 9_990, now: 10_000, author: 'person' },
    { name: 'a paste a moment before (slow page) → the person', gestureAt: 9_200, now: 10_000, author: 'person' },
    { name: 'the last key long ago (a page script’s execCommand now) → the page', gestureAt: 5_000, now: 10_000, author: 'page' },
    { name: 'exactly at the end of the window → the person', gestureAt: 9_000, now: 10_000, author: 'person' },
    { name: 'just past the window → the page', gestureAt: 8_999, now: 10_000, author: 'page' },
  ] as const)('$name', ({ gestureAt, now, author }) => {
    expect(inputAuthor(gestureAt, now)).toBe(author);
  });
});
