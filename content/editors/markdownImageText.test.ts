import { describe, expect, it } from 'vitest';
import { agreesWithDrawn, escapeAlt, imageMarkups, insertionIn, lineAfter, storedUrl, uploadState, withAlt } from './markdownImageText.ts';

const BASE = 'http://notes.localhost:4000/editor/codemirror';

describe('imageMarkups', () => {
  it.each([
    ['![Lake](http://a/1.png)', [{ alt: 'Lake', url: 'http://a/1.png' }]],
    ['![a \\] b](/u/1.png "title")', [{ alt: 'a ] b', url: '/u/1.png' }]],
    ['![Uploading lake.png…1]()', [{ alt: 'Uploading lake.png…1', url: '' }]],
    [
      '![one](x) and ![two](<y>)',
      [
        { alt: 'one', url: 'x' },
        { alt: 'two', url: 'y' },
      ],
    ],
    ['[not](an image) ![broken\n](x)', []],
    ['![t](http://a/1.png  "title"  )', [{ alt: 't', url: 'http://a/1.png' }]],
  ])('%s', (text, want) => {
    expect(imageMarkups(text).map(({ alt, url }) => ({ alt, url }))).toEqual(want);
  });
  // A page's own long runs of spaces (its source is the page's): read as markup or not, never by trying every split of the run.
  it('reads markup around long runs of spaces, and none in an unclosed one', () => {
    const spaces = ' '.repeat(30_000);
    expect(imageMarkups(`![a](${spaces}http://a/1.png${spaces})`).map(({ url }) => url)).toEqual(['http://a/1.png']);
    expect(imageMarkups(`![a](${spaces}`)).toEqual([]);
    expect(imageMarkups(`![a](x${spaces}"t${spaces}`)).toEqual([]);
  });
});

describe('storedUrl', () => {
  it.each([
    ['http://notes.localhost:4000/uploads/0.png', 'http://notes.localhost:4000/uploads/0.png'],
    ['/uploads/0.png', 'http://notes.localhost:4000/uploads/0.png'],
    ['//evil.example/x.png', null],
    ['data:image/png;base64,AAAA', null],
    ['blob:http://notes.localhost:4000/1', null],
    ['', null],
    ['uploads/0.png', null],
  ])('%s', (url, want) => expect(storedUrl(url, BASE)).toBe(want));
});

describe('insertionIn', () => {
  it.each([
    ['ab', 'aXb', { at: 1, inserted: 'X' }],
    ['', 'X', { at: 0, inserted: 'X' }],
    ['ab', 'ab', null],
    ['ab', 'aXc', null],
    ['abc', 'ab', null],
  ])('%s → %s', (before, after, want) => expect(insertionIn(before, after)).toEqual(want));
});

describe('uploadState', () => {
  const before = 'First paragraph.\n\nSecond paragraph.';
  const at = 'First paragraph.'.length;
  const put = (inserted: string) => before.slice(0, at) + inserted + before.slice(at);
  it('waits while nothing went in', () => expect(uploadState(before, before, BASE)).toEqual({ state: 'waiting' }));
  it('sees the placeholder as uploading', () =>
    expect(uploadState(before, put('\n\n![Uploading lake.png…1]()'), BASE, at)).toMatchObject({ state: 'uploading', at }));
  it('sees the stored image, with the line breaks around it', () =>
    expect(uploadState(before, put('\n\n![lake](http://notes.localhost:4000/uploads/0.png)'), BASE, at)).toMatchObject({
      state: 'stored',
      // Of the ways to read it (the line breaks repeat the ones after it), the one at the caret.
      at,
      inserted: '\n\n![lake](http://notes.localhost:4000/uploads/0.png)',
      src: 'http://notes.localhost:4000/uploads/0.png',
      markup: { alt: 'lake' },
    }));
  it('reads the insertion where its ends repeat the text beside it (another image after the same paragraph)', () => {
    const held = 'We started early.\n\n![Harbor](/uploads/3.png)\n\nSee you.';
    const caret = 'We started early.'.length;
    const now = `${held.slice(0, caret)}\n\n![ridge](/uploads/4.png)${held.slice(caret)}`;
    expect(uploadState(held, now, BASE, caret)).toMatchObject({
      state: 'stored',
      at: caret,
      inserted: '\n\n![ridge](/uploads/4.png)',
      markup: { alt: 'ridge' },
    });
  });
  it.each([
    ['a data: embed', put('\n\n![x](data:image/png;base64,AA)'), 'uploading'],
    ['text beside the markup', put(' see ![x](/uploads/0.png)'), 'other'],
    ['two images', put('![x](/uploads/0.png)![y](/uploads/1.png)'), 'other'],
    ['a link, not an image', put('[x](/uploads/0.png)'), 'other'],
    ['the text around it changed', 'First.\n\n![x](/uploads/0.png)', 'other'],
  ])('%s', (_, now, state) => expect(uploadState(before, now, BASE, at).state).toBe(state));
  it('an image that went in away from the caret is not the paste’s (a site writing at a later selection, or a page moving it)', () => {
    expect(uploadState(before, `![x](/uploads/0.png)\n\n${before}`, BASE, at)).toEqual({
      state: 'other',
      why: 'the image went in at another place than where it was pasted',
    });
    expect(uploadState(before, `${before}\n\n![x](/uploads/0.png)`, BASE, at).state).toBe('other');
  });
});

describe('withAlt and escapeAlt', () => {
  it('sets only the alt, keeping the address and line breaks', () => {
    const inserted = '\n\n![lake](/uploads/0.png)\n\n';
    const [markup] = imageMarkups(inserted);
    expect(withAlt(inserted, markup ?? { start: 0, end: 0, alt: '', url: '', form: 'markdown' }, 'The [big] lake\\')).toBe(
      '\n\n![The \\[big\\] lake\\\\](/uploads/0.png)\n\n',
    );
  });
  it('keeps an alt on one line', () => expect(escapeAlt('two\nlines')).toBe('two lines'));
});

describe('lineAfter', () => {
  const lines = ['## Ridge walk', '', 'We started early.', '', '- We started late', 'See you'];
  it.each([
    ['Ridge walk', { line: 0 }],
    ['## Ridge', { line: 0 }],
    ['We started early', { line: 2 }],
    ['See you', { line: 5 }],
  ])('%s', (after, want) => expect(lineAfter(lines, after)).toEqual(want));
  it('names a missing or ambiguous paragraph', () => {
    expect(lineAfter(lines, 'Nowhere')).toEqual({ problem: 'no paragraph starts with “Nowhere”' });
    expect(lineAfter(lines, 'We started')).toEqual({ problem: '2 paragraphs start with “We started”: give more of its words' });
  });
});

describe('agreesWithDrawn (the page’s word on CodeMirror’s text, checked against the lines it drew)', () => {
  const text = ['# Title', '', 'one', 'two', '', 'three', 'four'].join('\n');
  it.each([
    ['all of it drawn', [['# Title', '', 'one', 'two', '', 'three', 'four']], true],
    ['its start and its end, a gap between', [['# Title', ''], ['four']], true],
    [
      'runs in order, each consecutive',
      [
        ['one', 'two'],
        ['three', 'four'],
      ],
      true,
    ],
    ['a drawn line the text lacks', [['# Title', 'added']], false],
    ['runs out of order', [['three'], ['one']], false],
    ['a run not consecutive in the text', [['one', 'three']], false],
    ['nothing drawn', [], false],
    ['a long line drawn in part, its start agreeing', [['one', { prefix: 'tw' }], ['four']], true],
    ['a line drawn in part, its start not the text’s', [['one', { prefix: 'xx' }]], false],
  ])('%s', (_, runs, want) => expect(agreesWithDrawn(text, runs)).toBe(want));
});

describe('the forms sites write for a pasted image', () => {
  const before = 'First paragraph.\n\nSecond paragraph.';
  const at = 'First paragraph.'.length;
  const put = (inserted: string) => before.slice(0, at) + inserted + before.slice(at);
  const github = '<img width="320" height="200" alt="ridge" src="http://notes.localhost:4000/uploads/0.png" />';
  const discourse = '![ridge|320x200](upload://a1B2c3.png)';

  it('GitHub’s <img>, exactly as its comment box writes it, is the stored copy; its alt set, width and height kept', () => {
    const state = uploadState(before, put(`\n\n${github}`), BASE, at);
    expect(state).toMatchObject({ state: 'stored', src: 'http://notes.localhost:4000/uploads/0.png', markup: { form: 'html', alt: 'ridge' } });
    if (state.state !== 'stored') return;
    expect(withAlt(state.inserted, state.markup, 'The "big" <lake> & co')).toBe(
      '\n\n<img width="320" height="200" alt="The &quot;big&quot; &lt;lake&gt; &amp; co" src="http://notes.localhost:4000/uploads/0.png" />',
    );
    expect(imageMarkups(withAlt(state.inserted, state.markup, 'The "big" <lake> & co'))[0]?.alt).toBe('The "big" <lake> & co');
  });

  it('Discourse’s upload:// short URL is the stored copy; the alt replaces its name, its |WxH kept', () => {
    const state = uploadState(before, put(`\n${discourse}\n`), BASE, at);
    expect(state).toMatchObject({ state: 'stored', src: 'upload://a1B2c3.png', markup: { form: 'discourse', alt: 'ridge', size: '320x200' } });
    if (state.state !== 'stored') return;
    expect(withAlt(state.inserted, state.markup, 'The [ridge]')).toBe('\n![The \\[ridge\\]|320x200](upload://a1B2c3.png)\n');
  });

  it.each([
    ['Discourse’s placeholder (a link, not an image yet)', '\n[Uploading: ridge.png…]()\n', 'other'],
    ['GitHub’s placeholder', '![Uploading ridge.png…]()', 'uploading'],
    ['an <img> at data:', '<img width="1" height="1" alt="x" src="data:image/png;base64,AAAA" />', 'uploading'],
    ['an <img> at blob:', '<img width="1" height="1" alt="x" src="blob:http://notes.localhost:4000/1" />', 'uploading'],
    ['markdown at data:', '![x](data:image/png;base64,AAAA)', 'uploading'],
    ['an <img> in another shape (no width, height)', '<img alt="x" src="http://notes.localhost:4000/uploads/0.png">', 'other'],
    ['an <img> with more attributes', '<img width="1" height="1" alt="x" src="http://notes.localhost:4000/uploads/0.png" onerror="x" />', 'other'],
    ['upload:// without Discourse’s |WxH', '![x](upload://a1B2c3.png)', 'uploading'],
    ['upload:// that is no short URL', '![x|1x1](upload://../../etc)', 'uploading'],
    ['an <img> and text beside it', `${github} and words`, 'other'],
  ])('%s', (_, inserted, want) => expect(uploadState(before, put(inserted), BASE, at).state).toBe(want));

  it('a data: or blob: address is said to be the page’s own bytes, never a stored copy', () => {
    expect(uploadState(before, put('![x](blob:http://notes.localhost:4000/1)'), BASE, at)).toMatchObject({ state: 'uploading', local: true });
    expect(uploadState(before, put('![Uploading x…]()'), BASE, at)).toMatchObject({ state: 'uploading', local: false });
    expect(storedUrl('upload://a1B2c3.png', BASE)).toBeNull();
    expect(storedUrl('upload://a1B2c3.png', BASE, 'discourse')).toBe('upload://a1B2c3.png');
  });
});
