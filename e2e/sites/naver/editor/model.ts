/**
 * The fixture's SmartEditor ONE document model, as public dumps of the live editor show it
 * (SOURCES.md, §3): `{ document: { version, theme, language, id, components, di }, documentId }`,
 * every object with an `id` ("SE-<uuid>") and an `@ctype`. No DOM here: the editor page renders it
 * (render.ts) and the fixture server renders published posts from it.
 *
 * `normalize` is what `setDocumentData` does to what it is given: it walks the components the way
 * the live editor's does (a documentTitle without `title`, a text without `value`, throws "Cannot
 * read properties of undefined (reading 'forEach')", as FDX reports), keeps only the keys its
 * schema has (a style key it does not know is dropped: guessed), fills in missing ids, merges
 * adjacent text components (FDX: "merges and re-splits components during normalization") and
 * gives an empty paragraph one empty textNode (the live dumps' shape).
 */

export interface UrlLink {
  url: string;
  '@ctype': 'urlLink';
}

export interface NodeStyle {
  fontFamily?: string;
  fontSizeCode?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** The record does not show the key for strike-through; this fixture's guess (the toolbar button's data-name). */
  strikethrough?: boolean;
  fontColor?: string;
  backgroundColor?: string;
  '@ctype': 'nodeStyle';
}

export interface TextNode {
  id: string;
  value: string;
  style?: NodeStyle;
  link?: UrlLink;
  '@ctype': 'textNode';
}

export interface ListStyle {
  type: 'bullet' | 'decimal';
  level: number;
  '@ctype': 'paragraphListStyle';
}

export interface ParagraphStyle {
  align?: 'left' | 'center' | 'right' | 'justify';
  lineHeight?: number;
  list?: ListStyle;
  '@ctype': 'paragraphStyle';
}

export interface Paragraph {
  id: string;
  nodes: TextNode[];
  style?: ParagraphStyle;
  '@ctype': 'paragraph';
}

export interface DocumentTitle {
  id: string;
  layout: string;
  title: Paragraph[];
  subTitle: null;
  align: string;
  '@ctype': 'documentTitle';
}

export interface TextComponent {
  id: string;
  layout: string;
  value: Paragraph[];
  '@ctype': 'text';
}

export interface Quotation {
  id: string;
  layout: string;
  value: Paragraph[];
  source: Paragraph[] | null;
  '@ctype': 'quotation';
}

export interface ImageComponent {
  id: string;
  layout: string;
  src: string;
  internalResource: boolean;
  represent: boolean;
  path: string;
  domain: string;
  fileSize: number;
  width: number;
  widthPercentage: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  fileName: string;
  caption: Paragraph[] | null;
  format: string;
  displayFormat: string;
  imageLoaded: boolean;
  contentMode: string;
  origin: { srcFrom: string; '@ctype': 'imageOrigin' };
  ai: boolean;
  align?: string;
  '@ctype': 'image';
}

export interface HorizontalLine {
  id: string;
  layout: string;
  '@ctype': 'horizontalLine';
}

export type Component = DocumentTitle | TextComponent | Quotation | ImageComponent | HorizontalLine;

export interface SeDocument {
  version: string;
  theme: string;
  language: string;
  id: string;
  components: Component[];
  di: unknown;
}

export interface DocumentData {
  document: SeDocument;
  documentId: string;
}

/** The version every live dump of 2026-07/08 carries (AIC, CSH, FDX). */
export const VERSION = '2.10.2';

let counter = 0;
/** "SE-" and a v4-shaped uuid, as the live ids and the injected ones the editor accepts. */
export function seId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `00000000-0000-4000-8000-${String((counter += 1)).padStart(12, '0')}`;
  return `SE-${random}`;
}

/** A 26-character ULID-like document id, as the live ones ("01KXA5W6BGN62FCJV2S9JPHNWS"). */
export function documentIdLike(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '01';
  for (let index = 0; index < 24; index += 1) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

export function textNode(value: string, style?: Omit<NodeStyle, '@ctype'>, link?: string): TextNode {
  return {
    id: seId(),
    value,
    ...(style ? { style: { ...style, '@ctype': 'nodeStyle' as const } } : {}),
    ...(link ? { link: { url: link, '@ctype': 'urlLink' as const } } : {}),
    '@ctype': 'textNode',
  };
}

export function paragraph(nodes: TextNode[], style?: Omit<ParagraphStyle, '@ctype'>): Paragraph {
  return {
    id: seId(),
    nodes: nodes.length > 0 ? nodes : [textNode('')],
    ...(style ? { style: { ...style, '@ctype': 'paragraphStyle' as const } } : {}),
    '@ctype': 'paragraph',
  };
}

export function titleComponent(text: string): DocumentTitle {
  return { id: seId(), layout: 'default', title: [paragraph([textNode(text)])], subTitle: null, align: 'left', '@ctype': 'documentTitle' };
}

export function textComponent(paragraphs: Paragraph[]): TextComponent {
  return { id: seId(), layout: 'default', value: paragraphs.length > 0 ? paragraphs : [paragraph([])], '@ctype': 'text' };
}

export function emptyDocument(): DocumentData {
  return {
    document: {
      version: VERSION,
      theme: 'default',
      language: 'ko-KR',
      id: documentIdLike(),
      components: [titleComponent(''), textComponent([])],
      di: { dif: false, dio: [{ dis: 'N', dia: { t: 0, p: 0, st: 102, sk: 0 } }] },
    },
    documentId: '',
  };
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const STYLE_KEYS = ['fontFamily', 'fontSizeCode', 'bold', 'italic', 'underline', 'strikethrough', 'fontColor', 'backgroundColor'] as const;

/** Plain objects only; what is not one reads as undefined, as a property access on it would. */
function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw new TypeError(`Cannot read properties of ${String(value)}`);
  return value as Record<string, unknown>;
}

function id(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : seId();
}

function normalizeStyle(value: unknown): NodeStyle | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const input = value as Record<string, unknown>;
  const style: Record<string, unknown> = {};
  for (const key of STYLE_KEYS) {
    const item = input[key];
    if (item === undefined) continue;
    if (key === 'bold' || key === 'italic' || key === 'underline' || key === 'strikethrough') {
      if (item === true) style[key] = true;
    } else if (key === 'fontSizeCode') {
      if (typeof item === 'string' && /^fs\d{1,2}$/.test(item)) style[key] = item;
    } else if (typeof item === 'string') style[key] = item;
  }
  return Object.keys(style).length > 0 ? ({ ...style, '@ctype': 'nodeStyle' } as NodeStyle) : undefined;
}

function normalizeNode(value: unknown): TextNode {
  const input = record(value);
  const node: TextNode = { id: id(input.id), value: String(input.value ?? ''), '@ctype': 'textNode' };
  const style = normalizeStyle(input.style);
  if (style) node.style = style;
  const link = input.link as { url?: unknown } | undefined;
  if (link && typeof link === 'object' && typeof link.url === 'string' && link.url !== '') node.link = { url: link.url, '@ctype': 'urlLink' };
  return node;
}

function normalizeParagraph(value: unknown): Paragraph {
  const input = record(value);
  const nodes: TextNode[] = [];
  (input.nodes as unknown[]).forEach((node) => nodes.push(normalizeNode(node)));
  const out: Paragraph = { id: id(input.id), nodes: nodes.length > 0 ? nodes : [{ id: seId(), value: '', '@ctype': 'textNode' }], '@ctype': 'paragraph' };
  const style = input.style as Record<string, unknown> | undefined;
  if (style && typeof style === 'object') {
    const paragraphStyle: ParagraphStyle = { '@ctype': 'paragraphStyle' };
    if (['left', 'center', 'right', 'justify'].includes(String(style.align))) paragraphStyle.align = style.align as ParagraphStyle['align'];
    if (typeof style.lineHeight === 'number') paragraphStyle.lineHeight = style.lineHeight;
    const list = style.list as Record<string, unknown> | undefined;
    if (list && typeof list === 'object' && (list.type === 'bullet' || list.type === 'decimal')) {
      paragraphStyle.list = { type: list.type, level: typeof list.level === 'number' ? list.level : 0, '@ctype': 'paragraphListStyle' };
    }
    if (Object.keys(paragraphStyle).length > 1) out.style = paragraphStyle;
  }
  return out;
}

function paragraphs(value: unknown): Paragraph[] {
  const out: Paragraph[] = [];
  // The live editor walks these with forEach: a missing list throws, as FDX saw.
  (value as unknown[]).forEach((item) => out.push(normalizeParagraph(item)));
  return out;
}

const IMAGE_NUMBERS = ['fileSize', 'width', 'widthPercentage', 'height', 'originalWidth', 'originalHeight'] as const;

function normalizeComponent(value: unknown): Component {
  const input = record(value);
  const base = { id: id(input.id), layout: typeof input.layout === 'string' ? input.layout : 'default' };
  switch (input['@ctype']) {
    case 'documentTitle':
      return {
        ...base,
        title: paragraphs(input.title),
        subTitle: null,
        align: typeof input.align === 'string' ? input.align : 'left',
        '@ctype': 'documentTitle',
      };
    case 'text':
      return { ...base, value: paragraphs(input.value), '@ctype': 'text' };
    case 'quotation':
      return {
        ...base,
        value: paragraphs(input.value),
        source: input.source === null || input.source === undefined ? null : paragraphs(input.source),
        '@ctype': 'quotation',
      };
    case 'horizontalLine':
      return { ...base, '@ctype': 'horizontalLine' };
    case 'image': {
      const image: Record<string, unknown> = { ...base };
      for (const key of ['src', 'path', 'domain', 'fileName', 'format', 'displayFormat', 'contentMode'] as const) image[key] = String(input[key] ?? '');
      for (const key of IMAGE_NUMBERS) image[key] = Number(input[key] ?? 0) || 0;
      for (const key of ['internalResource', 'represent', 'imageLoaded', 'ai'] as const) image[key] = input[key] === true;
      image.caption = input.caption === null || input.caption === undefined ? null : paragraphs(input.caption);
      const origin = input.origin as { srcFrom?: unknown } | undefined;
      image.origin = { srcFrom: typeof origin?.srcFrom === 'string' ? origin.srcFrom : 'local', '@ctype': 'imageOrigin' };
      if (typeof input.align === 'string') image.align = input.align;
      image['@ctype'] = 'image';
      return image as unknown as ImageComponent;
    }
    default:
      // What the editor has no component for is not kept (guessed: the record shows no unknown @ctype).
      throw new TypeError(`setDocumentData: unknown component type ${JSON.stringify(input['@ctype'])}`);
  }
}

/**
 * What `setDocumentData` keeps of `data`; throws on a model the editor cannot walk. The editor's
 * own document id, version and di stay (it keeps its own; the record's scripts reuse them anyway).
 */
export function normalize(data: unknown, current: SeDocument): SeDocument {
  const input = record(record(data).document);
  const components: Component[] = [];
  (input.components as unknown[]).forEach((component) => components.push(normalizeComponent(component)));
  // Adjacent text components become one (FDX: it merges and re-splits components).
  const merged: Component[] = [];
  for (const component of components) {
    const previous = merged[merged.length - 1];
    if (component['@ctype'] === 'text' && previous?.['@ctype'] === 'text') previous.value.push(...component.value);
    else merged.push(component);
  }
  // A document always has a title component, first, and ends in a text component (the live dumps' trailing one).
  const titleIndex = merged.findIndex((component) => component['@ctype'] === 'documentTitle');
  const title = titleIndex >= 0 ? (merged.splice(titleIndex, 1)[0] as DocumentTitle) : titleComponent('');
  if (merged[merged.length - 1]?.['@ctype'] !== 'text') merged.push(textComponent([]));
  return { ...current, components: [title, ...merged] };
}

export function paragraphText(paragraph: Paragraph): string {
  return paragraph.nodes.map((node) => node.value).join('');
}

export function titleOf(document: SeDocument): DocumentTitle {
  const title = document.components.find((component): component is DocumentTitle => component['@ctype'] === 'documentTitle');
  if (!title) throw new Error('a document without a title component');
  return title;
}

export function titleText(document: SeDocument): string {
  return titleOf(document).title.map(paragraphText).join('\n');
}

/** The body's text, one line per paragraph (quotations' too), as getContentText gives it. */
export function contentText(document: SeDocument): string {
  const lines: string[] = [];
  for (const component of document.components) {
    if (component['@ctype'] === 'text' || component['@ctype'] === 'quotation') lines.push(...component.value.map(paragraphText));
  }
  return lines.join('\n');
}

export function isEmptyContent(document: SeDocument): boolean {
  return document.components.every(
    (component) => component['@ctype'] === 'documentTitle' || (component['@ctype'] === 'text' && contentText({ ...document, components: [component] }) === ''),
  );
}
