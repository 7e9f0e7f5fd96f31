// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import { headingFor, mapHeadings } from './headingLevels.ts';

describe('headings at the levels an editor keeps', () => {
  test.each([
    ['h2', ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], 'h2'],
    ['h4', ['h2', 'h3', 'h4'], 'h4'],
    ['h2', ['h1'], 'h1'],
    ['h3', ['h1'], 'h1'],
    ['h4', ['h1'], 'h1'],
    ['h4', ['h1', 'h2', 'h3'], 'h3'],
    ['h2', ['h1', 'h2', 'h3'], 'h2'],
    ['h2', ['h3', 'h4'], 'h3'],
    ['h3', ['h2', 'h4'], 'h2'],
    ['h2', [], null],
  ] as const)('%s in an editor keeping %j: %s', (level, keeps, expected) => {
    expect(headingFor(level, keeps)).toBe(expected);
  });

  test('rewrites the markup: an h1-only editor gets h1 for every level, an editor with none gets paragraphs', () => {
    const body = document.createElement('body');
    body.innerHTML = '<h2>A <strong>b</strong></h2><p>x</p><h3>C</h3><h4>D</h4>';
    mapHeadings(body, ['h1']);
    expect(body.innerHTML).toBe('<h1>A <strong>b</strong></h1><p>x</p><h1>C</h1><h1>D</h1>');
    mapHeadings(body, []);
    expect(body.innerHTML).toBe('<p>A <strong>b</strong></p><p>x</p><p>C</p><p>D</p>');
  });
});
