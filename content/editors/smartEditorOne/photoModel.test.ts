import { describe, expect, it } from 'vitest';
import { captionText, checkUpload, imageComponents, MAX_PHOTO_URL, photoComponent, placePhoto, withoutPhoto } from './photoModel.ts';
import { bodyText, parseDocumentData, type JsonObject } from './seModel.ts';

let n = 0;
const random = () => `id-${(n += 1)}`;
const fallback = { width: 800, height: 600, fileSize: 1234 };

/** The answer as CSH recorded it (spike/findings.md §4): {code: "SUCCESS", response: {…}}. */
const answer = (response: Record<string, unknown>, code: unknown = 'SUCCESS') =>
  JSON.stringify({
    code,
    response: {
      url: '/MjAyNjEyMDFfMSAg/MDAxNzgz.abc.PNG/lake.png',
      path: '/MjAyNjEyMDFfMSAg/MDAxNzgz.abc.PNG',
      fileName: 'lake.png',
      width: 1200,
      height: 800,
      fileSize: 5000,
      domain: 'https://blogfiles.pstatic.net',
      ...response,
    },
  });

describe('the uploader’s answer is the page’s word: only a photo on Naver’s photo hosts becomes a component', () => {
  it('a well-formed answer: the url is the path (not the answer’s path: CSH’s 404), on the answer’s photo host', () => {
    expect(checkUpload(answer({}), false, fallback)).toEqual({
      photo: {
        url: '/MjAyNjEyMDFfMSAg/MDAxNzgz.abc.PNG/lake.png',
        domain: 'https://blogfiles.pstatic.net',
        fileName: 'lake.png',
        width: 1200,
        height: 800,
        fileSize: 5000,
      },
    });
    expect(checkUpload(answer({ domain: 'https://cafeptthumb-phinf.pstatic.net' }), false, fallback)).toMatchObject({
      photo: { domain: 'https://cafeptthumb-phinf.pstatic.net' },
    });
    // An absolute url on the same photo host is its path.
    expect(checkUpload(answer({ url: 'https://blogfiles.pstatic.net/a/b/lake.png' }), false, fallback)).toMatchObject({ photo: { url: '/a/b/lake.png' } });
    // No size in the answer: the one read from the bytes.
    expect(checkUpload(answer({ width: 'wide', height: -1, fileSize: null }), false, fallback)).toMatchObject({
      photo: { width: 800, height: 600, fileSize: 1234 },
    });
  });

  it.each([
    ['no url', answer({ url: undefined }), /no url/],
    ['an empty url', answer({ url: '' }), /no url/],
    ['a number for a url', answer({ url: 12345 }), /not a string \(number\)/],
    ['an object for a url', answer({ url: { toString: 'x' } }), /not a string \(object\)/],
    ['an array for a url', answer({ url: ['/a/b.png'] }), /not a string \(array\)/],
    ['an oversized url', answer({ url: `/${'a'.repeat(MAX_PHOTO_URL)}.png` }), /over 1024 characters/],
    ['a url on another host', answer({ url: 'https://evil.example/lake.png' }), /on evil\.example, not on Naver’s photo host/],
    ['a protocol-relative url elsewhere', answer({ url: '//evil.example/lake.png' }), /on evil\.example/],
    ['a url on the other photo host', answer({ url: 'https://cafeptthumb-phinf.pstatic.net/a/lake.png' }), /not on Naver’s photo host/],
    ['a javascript: url', answer({ url: 'javascript:alert(1)' }), /not on Naver’s photo host/],
    ['a path with a query', answer({ url: '/a/lake.png?x=1' }), /not a photo’s path/],
    ['a path climbing out', answer({ url: '/a/../../lake.png' }), /not a photo’s path/],
    ['a domain elsewhere', answer({ domain: 'https://evil.example' }), /not one of Naver’s photo hosts/],
    ['a look-alike domain', answer({ domain: 'https://blogfiles.pstatic.net.evil.example' }), /not one of Naver’s photo hosts/],
    ['a domain over http in the product', answer({ domain: 'http://blogfiles.pstatic.net' }), /not one of Naver’s photo hosts/],
    ['a domain with a port in the product', answer({ domain: 'https://blogfiles.pstatic.net:8443' }), /not one of Naver’s photo hosts/],
    ['a domain with a path', answer({ domain: 'https://blogfiles.pstatic.net/x' }), /not one of Naver’s photo hosts/],
    ['no domain', answer({ domain: undefined }), /no photo host/],
    ['a failure code', answer({}, 'FAIL'), /answered FAIL/],
    ['no response', JSON.stringify({ code: 'SUCCESS' }), /no response/],
    ['null', 'null', /no answer/],
    ['not JSON', '<item><url>/a.png</url></item>', /not JSON/],
  ])('%s → refused', (_name, text, problem) => {
    const checked = checkUpload(text, false, fallback);
    expect('problem' in checked ? checked.problem : '').toMatch(problem);
  });

  it('the test build takes the fixture’s photo hosts over http on a port, and nothing else more', () => {
    expect(checkUpload(answer({ domain: 'http://blogfiles.pstatic.net:4173' }), true, fallback)).toMatchObject({
      photo: { domain: 'http://blogfiles.pstatic.net:4173' },
    });
    expect(checkUpload(answer({ domain: 'http://127.0.0.1:4173' }), true, fallback)).toMatchObject({ problem: expect.stringMatching(/not one of/) });
  });
});

function parsed(value: unknown) {
  const data = parseDocumentData(JSON.stringify(value));
  if (!data) throw new Error('not a document');
  return data;
}
const doc = (components: JsonObject[]) => parsed({ document: { version: '2.10.2', id: 'D', components }, documentId: '' });
const p = (value: string): JsonObject => ({ id: random(), nodes: [{ id: random(), value, '@ctype': 'textNode' }], '@ctype': 'paragraph' });
const title = { id: 'T', layout: 'default', title: [p('제목')], '@ctype': 'documentTitle' };
const text = (...values: string[]): JsonObject => ({ id: random(), layout: 'default', value: values.map(p), '@ctype': 'text' });
const photo = { url: '/a/b/lake.png', domain: 'https://blogfiles.pstatic.net', fileName: 'lake.png', width: 1386, height: 924, fileSize: 10 };

describe('the image component and where it goes', () => {
  it('is built as CSH maps it: path = url, src = domain + url + ?type=w1, at most 693 wide, the ratio kept, the alt as its caption', () => {
    const image = photoComponent(photo, '강변', true, random);
    expect(image).toMatchObject({
      src: 'https://blogfiles.pstatic.net/a/b/lake.png?type=w1',
      path: '/a/b/lake.png',
      domain: 'https://blogfiles.pstatic.net',
      width: 693,
      height: 462,
      originalWidth: 1386,
      represent: true,
      internalResource: true,
      contentMode: 'fit',
      origin: { srcFrom: 'local', '@ctype': 'imageOrigin' },
      '@ctype': 'image',
    });
    expect(captionText(image)).toBe('강변');
    expect(photoComponent(photo, '', false, random).caption).toBeNull();
  });

  it('at the end (the trailing empty text gives way, one after the photo), after a named paragraph (its text component split), and back out', () => {
    const image = photoComponent(photo, '강변', true, random);
    const data = doc([title, text('하나', '둘', '셋'), text('')]);
    const atEnd = placePhoto(data, image, undefined, random);
    if (!('document' in atEnd)) throw new Error('not placed');
    const ended = parsed(atEnd.document);
    expect(ended.components.map((component) => component['@ctype'])).toEqual(['documentTitle', 'text', 'image', 'text']);
    expect(bodyText(ended)).toBe('하나\n둘\n셋\n강변\n');

    const middle = placePhoto(data, image, '둘', random);
    if (!('document' in middle)) throw new Error('not placed');
    const split = parsed(middle.document);
    expect(split.components.map((component) => component['@ctype'])).toEqual(['documentTitle', 'text', 'image', 'text', 'text']);
    expect(bodyText(split)).toBe('하나\n둘\n강변\n셋\n');
    expect(imageComponents(split)).toHaveLength(1);

    const back = parsed(withoutPhoto(split, String(image.src)));
    expect(imageComponents(back)).toEqual([]);
    expect(bodyText(back)).toBe(bodyText(data));
    expect(back.components.map((component) => component['@ctype'])).toEqual(['documentTitle', 'text', 'text']);
  });

  it('a paragraph that is not there, or not one, is said before anything is uploaded', () => {
    const data = doc([title, text('컵', '컵을 가져오세요', '장바구니 하나'), text('장바구니 둘')]);
    expect(placePhoto(data, {}, '컵', random)).toHaveProperty('document'); // the one whose text is it
    expect(placePhoto(data, {}, '없는 문단', random)).toEqual({ problem: expect.stringMatching(/no paragraph starts with/) });
    expect(placePhoto(data, {}, '장바구니', random)).toEqual({ problem: expect.stringMatching(/2 paragraphs start with/) });
  });
});
