// @vitest-environment happy-dom
/**
 * An image step's check that every image the field held is still there (image.ts `missing`): a
 * paste onto a selected photo replaces it (CKEditor 5's inline widget, seen 2026-12-01), and
 * that is no image "put in".
 */
import { describe, expect, it } from 'vitest';
import { missing } from './image.ts';

describe('missing', () => {
  it('names the addresses that went, as many times as they went', () => {
    expect(missing(['a', 'b'], ['a', 'b', 'c'])).toEqual([]);
    expect(missing(['a', 'b'], ['b', 'c'])).toEqual(['a']);
    // The same photo twice, once taken out: one is missing.
    expect(missing(['a', 'a'], ['a', 'c'])).toEqual(['a']);
    expect(missing([], ['c'])).toEqual([]);
    expect(missing(['a'], [])).toEqual(['a']);
  });
});
