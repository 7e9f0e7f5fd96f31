import { describe, expect, it } from 'vitest';
import { checkFieldBinding, pinDrift, type ClickPin, type SeenElement } from './elementBinding.ts';

describe('a field name keeps meaning the element the handle saw', () => {
  it.each([
    { name: 'the same element → same', bound: 'el_a', now: 'el_a', verdict: 'same' },
    { name: 'another element under the same name → other_element', bound: 'el_a', now: 'el_b', verdict: 'other_element' },
    { name: 'never seen through this handle → unknown (refused)', bound: undefined, now: 'el_a', verdict: 'unknown' },
    { name: 'an empty id → unknown (refused)', bound: '', now: 'el_a', verdict: 'unknown' },
  ] as const)('$name', ({ bound, now, verdict }) => {
    expect(checkFieldBinding(bound, now)).toBe(verdict);
  });
});

describe('a click goes only to the element approved at the dry run', () => {
  const pin: ClickPin = { step: 1, element: 'el_post', label: 'Post', fingerprint: 'v1:abc' };
  const same: SeenElement = { element: 'el_post', label: 'Post', fingerprint: 'v1:abc' };
  it.each([
    { name: 'nothing moved → go', now: same, drift: [] },
    { name: 'whitespace around the label → go', now: { ...same, label: '  Post\n' }, drift: [] },
    { name: 'the name now means another button → element', now: { ...same, element: 'el_delete' }, drift: ['element'] },
    { name: 'the button was relabelled → label', now: { ...same, label: 'Delete my account' }, drift: ['label'] },
    { name: 'its target or kind changed → fingerprint', now: { ...same, fingerprint: 'v1:def' }, drift: ['fingerprint'] },
    {
      name: 'labels swapped between buttons → element (and fingerprint if it differs)',
      now: { element: 'el_delete', label: 'Post', fingerprint: 'v1:zzz' },
      drift: ['element', 'fingerprint'],
    },
    { name: 'a case change is a relabel', now: { ...same, label: 'POST' }, drift: ['label'] },
  ] as const)('$name', ({ now, drift }) => {
    expect(pinDrift(pin, now)).toEqual(drift);
  });

  it('no pin (identity unknown) → refused', () => {
    expect(pinDrift(undefined, same)).toEqual(['unpinned']);
  });
});
