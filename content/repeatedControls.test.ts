import { describe, expect, it } from 'vitest';
import { repeatKey } from './repeatedControls.ts';

describe('repeated controls: labels that are one control repeated (a Reply under every comment)', () => {
  it.each([
    ['Reply', 'reply', true],
    ['Like 3', 'Like 12', true],
    ['좋아요 3', '좋아요 120', true],
    ['  Report\n', 'report', true],
    ['Reply (2)', 'Reply (15)', true],
    ['Reply', 'Replies', false],
    ['Publish', 'Save draft', false],
    ['Page 1', 'Page 2', true],
  ])('%j and %j: the same control? %s', (one, other, same) => {
    expect(repeatKey(one) === repeatKey(other)).toBe(same);
  });

  it('a label of digits alone still has a key; no label has none', () => {
    expect(repeatKey('12')).toBe('#');
    expect(repeatKey('  ')).toBe('');
  });
});
