import { describe, expect, it } from 'vitest';
import { commitKey, isCommitKey } from './documentKey.ts';

describe('document keys', () => {
  it.each([
    { name: 'a key the worker minted', id: commitKey(12, 'c_abc'), minted: true },
    { name: "Chromium's documentId (32 hex digits)", id: '5D1A3F7C9E0B2D4F6A8C1E3B5D7F9A0C', minted: false },
    { name: "Firefox's documentId (a UUID)", id: '62ebecf3-f831-096b-7fe5-53c818fd3565', minted: false },
  ])('$name → minted: $minted', ({ id, minted }) => {
    expect(isCommitKey(id)).toBe(minted);
  });

  it('names the tab it was minted for', () => {
    expect(commitKey(12, 'c_abc')).toBe('nav:12:c_abc');
    expect(commitKey(12, 'x')).not.toBe(commitKey(13, 'x'));
  });
});
