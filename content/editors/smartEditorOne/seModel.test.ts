import { describe, expect, it } from 'vitest';
import {
  bodyText,
  buildComponents,
  countConstructs,
  documentAfter,
  keptAndDropped,
  MODEL_NAMES,
  parseDocumentData,
  titleText,
  type Block,
  type JsonObject,
} from './seModel.ts';

let n = 0;
const random = () => `id-${(n += 1)}`;

/** A live dump's shape (AIC blog_images/doc_data.json, trimmed): title, an image, a trailing empty text. */
const LIVE = {
  document: {
    version: '2.10.2',
    theme: 'default',
    language: 'ko-KR',
    id: '01KXA5W6BGN62FCJV2S9JPHNWS',
    components: [
      {
        id: 'SE-t',
        layout: 'default',
        title: [{ id: 'SE-tp', nodes: [{ id: 'SE-tn', value: '보험설계사 이야기', '@ctype': 'textNode' }], '@ctype': 'paragraph' }],
        subTitle: null,
        align: 'left',
        '@ctype': 'documentTitle',
      },
      { id: 'SE-i', layout: 'default', src: 'https://blogfiles.pstatic.net/a/b.png?type=w1', path: '/a/b.png', caption: null, '@ctype': 'image' },
      {
        id: 'SE-x',
        layout: 'default',
        value: [{ id: 'SE-xp', nodes: [{ id: 'SE-xn', value: '본문', '@ctype': 'textNode' }], '@ctype': 'paragraph' }],
        '@ctype': 'text',
      },
      {
        id: 'SE-e',
        layout: 'default',
        value: [{ id: 'SE-ep', nodes: [{ id: 'SE-en', value: '', '@ctype': 'textNode' }], '@ctype': 'paragraph' }],
        '@ctype': 'text',
      },
    ],
    di: { dif: false, dio: [{ dis: 'N', dia: { t: 0, p: 0, st: 102, sk: 0 } }] },
  },
  documentId: '',
};

const live = () => {
  const parsed = parseDocumentData(JSON.stringify(LIVE));
  if (!parsed) throw new Error('the live dump did not parse');
  return parsed;
};

const BLOCKS: Block[] = [
  { kind: 'paragraph', heading: 2, inlines: [{ text: '봄 시장' }] },
  { kind: 'paragraph', inlines: [{ text: '토요일 ' }, { text: '10시', bold: true }, { text: ' 강변' }] },
  { kind: 'paragraph', list: { type: 'bullet', level: 0 }, inlines: [{ text: '컵' }] },
  { kind: 'paragraph', list: { type: 'bullet', level: 0 }, inlines: [{ text: '지도', link: 'https://map.example/' }] },
  { kind: 'quotation', paragraphs: [[{ text: '모두 환영', italic: true }]] },
  { kind: 'paragraph', inlines: [{ text: '끝', strike: true }] },
];

describe('SmartEditor ONE model: reading what the page gave', () => {
  it('reads a live dump: the title from documentTitle.title, the body from every other component’s paragraphs', () => {
    const data = live();
    expect(titleText(data)).toBe('보험설계사 이야기');
    expect(bodyText(data)).toBe('본문\n');
  });

  it.each([
    ['not JSON', '{'],
    ['no document', '{"documentId":""}'],
    ['components not a list', '{"document":{"components":{}}}'],
    ['a component that is not an object', '{"document":{"components":[1]}}'],
    ['nested past the depth bound', `{"document":{"components":[${'['.repeat(60)}${']'.repeat(60)}]}}`],
    ['more objects than the bound', JSON.stringify({ document: { components: Array.from({ length: 200_001 }, () => ({})) } })],
  ])('refuses %s', (_name, text) => {
    expect(parseDocumentData(text)).toBeNull();
  });
});

describe('SmartEditor ONE model: building and placing what Tether writes', () => {
  it('builds the model’s own constructs: subheadings as bold + fontSizeCode, links on textNodes, lists on paragraphs, a quotation component', () => {
    const components = buildComponents(BLOCKS, random);
    expect(components.map((component) => component['@ctype'])).toEqual(['text', 'quotation', 'text']);
    const [first] = components as [JsonObject];
    const paragraphs = first.value as JsonObject[];
    expect((paragraphs[0]?.nodes as JsonObject[])[0]?.style).toEqual({ bold: true, fontSizeCode: 'fs24', '@ctype': 'nodeStyle' });
    expect((paragraphs[2]?.style as JsonObject).list).toEqual({ type: 'bullet', level: 0, '@ctype': 'paragraphListStyle' });
    expect((paragraphs[3]?.nodes as JsonObject[])[0]?.link).toEqual({ url: 'https://map.example/', '@ctype': 'urlLink' });
    expect(JSON.stringify(components)).toMatch(/"id":"SE-id-\d+"/);
    expect(countConstructs(components)).toEqual({
      [MODEL_NAMES.link]: 1,
      [MODEL_NAMES.bold]: 1,
      [MODEL_NAMES.italic]: 1,
      [MODEL_NAMES.strike]: 1,
      [MODEL_NAMES.bullet]: 2,
      [MODEL_NAMES.decimal]: 0,
      [MODEL_NAMES.quotation]: 1,
      [MODEL_NAMES.subheading]: 1,
    });
  });

  it('fill of the body keeps the title and the envelope; append goes after the last component; clear leaves one empty text', () => {
    const data = live();
    const built = buildComponents([{ kind: 'paragraph', inlines: [{ text: '새 글' }] }], random);
    const filled = parseDocumentData(JSON.stringify(documentAfter(data, 'body', 'fill', built, random)));
    expect(filled && [titleText(filled), bodyText(filled)]).toEqual(['보험설계사 이야기', '새 글']);
    expect(filled?.document.id).toBe('01KXA5W6BGN62FCJV2S9JPHNWS');
    expect(filled?.document.di).toEqual(LIVE.document.di);

    const appended = parseDocumentData(JSON.stringify(documentAfter(data, 'body', 'append', built, random)));
    // The image and the text stay, the trailing empty text goes, the new text follows.
    expect(appended?.components.map((component) => component.id)).toEqual(['SE-t', 'SE-i', 'SE-x', expect.stringMatching(/^SE-id-/)]);
    expect(appended && bodyText(appended)).toBe('본문\n새 글');

    const cleared = parseDocumentData(JSON.stringify(documentAfter(data, 'body', 'clear', [], random)));
    expect(cleared && [titleText(cleared), bodyText(cleared)]).toEqual(['보험설계사 이야기', '']);
  });

  it('fill of the title changes the title only (its component id kept); append adds to it', () => {
    const data = live();
    const filled = documentAfter(data, 'title', 'fill', '봄 시장', random);
    const parsed = parseDocumentData(JSON.stringify(filled));
    expect(parsed && [titleText(parsed), bodyText(parsed)]).toEqual(['봄 시장', '본문\n']);
    expect(parsed?.components.map((component) => component.id)).toEqual(['SE-t', 'SE-i', 'SE-x', 'SE-e']);
    const appended = parseDocumentData(JSON.stringify(documentAfter(data, 'title', 'append', ' 2부', random)));
    expect(appended && titleText(appended)).toBe('보험설계사 이야기 2부');
  });
});

describe('SmartEditor ONE model: kept and dropped, read from the model', () => {
  const written = countConstructs(buildComponents(BLOCKS, random));

  it('a model that kept everything: all kept, nothing dropped', () => {
    const after = countConstructs(buildComponents(BLOCKS, random));
    const zero = countConstructs([]);
    expect(keptAndDropped(written, zero, after, 'fill')).toEqual({
      kept: [MODEL_NAMES.link, MODEL_NAMES.bold, MODEL_NAMES.italic, MODEL_NAMES.strike, MODEL_NAMES.bullet, MODEL_NAMES.quotation, MODEL_NAMES.subheading],
      dropped: [],
    });
  });

  it('a model that normalized a style away and has no quotation: those are dropped, by the model’s own names', () => {
    const without = BLOCKS.filter((block) => block.kind !== 'quotation').map((block) =>
      block.kind === 'paragraph' ? { ...block, inlines: block.inlines.map((inline) => ({ ...inline, strike: false })) } : block,
    );
    const after = countConstructs(buildComponents(without, random));
    const result = keptAndDropped(written, countConstructs([]), after, 'fill');
    expect(result.dropped).toEqual([MODEL_NAMES.italic, MODEL_NAMES.strike, MODEL_NAMES.quotation]);
  });

  it('an append counts what the model gained, not what it held before', () => {
    const before = countConstructs(buildComponents([{ kind: 'paragraph', inlines: [{ text: 'x', link: 'https://a.example/' }] }], random));
    const after = before; // the model kept none of the appended link
    expect(keptAndDropped(countConstructs(buildComponents([BLOCKS[3] as Block], random)), before, after, 'append').dropped).toEqual([
      MODEL_NAMES.link,
      MODEL_NAMES.bullet,
    ]);
  });
});
