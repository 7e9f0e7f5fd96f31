import { describe, expect, it } from 'vitest';
import { fieldHash } from '../../shared/page/fieldText.ts';
import { fieldExpectation, holdsExpected, type ExpectationSources, type FieldExpectation } from './fieldExpectation.ts';

const INSPECTED = fieldHash('as inspected');

describe('what a step expects a field to hold (precedence)', () => {
  it.each<[string, ExpectationSources, FieldExpectation | null]>([
    [
      'an earlier step of the plan wins over everything',
      { planned: 'step 1 wrote this', expect: { text: 'given', hash: 'v1:x' }, inspected: INSPECTED },
      { text: 'step 1 wrote this', hash: fieldHash('step 1 wrote this') },
    ],
    ['an earlier step that cleared the field: expects empty', { planned: '', inspected: INSPECTED }, { text: '', hash: fieldHash('') }],
    [
      'expect.text over expect.hash and the inspect',
      { expect: { text: 'given', hash: 'v1:x' }, inspected: INSPECTED },
      { text: 'given', hash: fieldHash('given') },
    ],
    ['expect.text that is empty: the field must be empty', { expect: { text: '' }, inspected: INSPECTED }, { text: '', hash: fieldHash('') }],
    ['expect.hash over the inspect', { expect: { hash: 'v1:x' }, inspected: INSPECTED }, { text: null, hash: 'v1:x' }],
    ['the last inspect, when the step says nothing', { expect: {}, inspected: INSPECTED }, { text: null, hash: INSPECTED }],
    ['nothing at all → null (the plan must say)', {}, null],
    ['an empty expect and no inspect → null', { expect: {} }, null],
  ])('%s', (_name, sources, expected) => {
    expect(fieldExpectation(sources)).toEqual(expected);
  });
});

describe('the rule: the field holds what was expected (else field_changed)', () => {
  it.each<[string, string, FieldExpectation | null, boolean]>([
    ['same text', 'Hello', fieldExpectation({ expect: { text: 'Hello' } }), true],
    ['other text', 'Hello, edited', fieldExpectation({ expect: { text: 'Hello' } }), false],
    [
      'same text, other line breaks and trailing spaces (how editors read differ)',
      'Hello  \r\n\r\nworld',
      fieldExpectation({ expect: { text: 'Hello\nworld' } }),
      true,
    ],
    ['same text but a non-breaking space', 'Hello\u00a0world', fieldExpectation({ expect: { text: 'Hello world' } }), true],
    ['a word changed inside', 'Hello word', fieldExpectation({ expect: { text: 'Hello world' } }), false],
    ['empty, expected empty', '', fieldExpectation({ expect: { text: '' } }), true],
    ['typed into an empty field', 'x', fieldExpectation({ expect: { text: '' } }), false],
    ['the hash the inspect saw, unchanged', 'as inspected', fieldExpectation({ inspected: INSPECTED }), true],
    ['the hash the inspect saw, changed since', 'as inspected, then edited', fieldExpectation({ inspected: INSPECTED }), false],
    ['a given hash that does not match', 'as inspected', fieldExpectation({ expect: { hash: 'v1:0' } }), false],
    ['what an earlier step wrote, still there', 'step 1 wrote this', fieldExpectation({ planned: 'step 1 wrote this' }), true],
    ['what an earlier step wrote, changed by the page meanwhile', 'step 1 wrote this!', fieldExpectation({ planned: 'step 1 wrote this' }), false],
  ])('%s', (_name, current, expected, holds) => {
    if (expected === null) throw new Error('every case has an expectation');
    expect(holdsExpected(current, expected)).toBe(holds);
  });
});
