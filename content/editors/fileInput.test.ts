import { describe, expect, it } from 'vitest';
import { acceptsType } from './fileInput.ts';

describe('a file chooser’s accept= (HTML Living Standard: MIME types, type/* wildcards, extensions)', () => {
  const cases: Array<[string[], 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp', boolean]> = [
    [[], 'image/png', true],
    [['image/*'], 'image/webp', true],
    [['image/png'], 'image/png', true],
    [['image/png'], 'image/jpeg', false],
    [['.jpg', '.jpeg', 'image/jpeg'], 'image/jpeg', true],
    [['.jpg', '.jpeg', 'image/jpeg'], 'image/png', false],
    [['.jpeg'], 'image/jpeg', true],
    [['.gif'], 'image/gif', true],
    [['.pdf'], 'image/png', false],
    [['video/*'], 'image/png', false],
    [['application/pdf', '.webp'], 'image/webp', true],
  ];
  it.each(cases)('accept %j takes %s: %s', (accept, type, expected) => {
    expect(acceptsType(accept, type)).toBe(expected);
  });
});
