/**
 * SmartEditor ONE's document model as Tether reads and builds it (pure: no DOM, no page). The
 * shape is the public record's (README "Editors"; e2e/sites/naver/SOURCES.md §3, checked
 * 2026-12-01): `{document: {version, id, components, …}, documentId}`, the title a
 * `documentTitle` component with its paragraphs under `title`, body text in `text` components
 * (`value: [paragraph]`, `paragraph.nodes: [textNode]`), `textNode.style` a `nodeStyle` (bold,
 * italic, fontSizeCode …), a link `textNode.link.url`, a list item a paragraph with
 * `style.list.type` bullet or decimal, a quotation a `quotation` component.
 *
 * What the page answers is its word, not Tether's: parsing is bounded (size, depth, counts), keeps
 * what it does not know untouched (a write puts back the person's components as they came), and
 * a reading of the model is only ever compared with what the isolated world reads off the page.
 */
import type { Mode } from '../../pageTypes.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface SeDocumentData {
  /** The whole answer as it came (envelope, version, id, di: written back as they were). */
  raw: JsonObject;
  document: JsonObject;
  components: JsonObject[];
}

/** Deeper than this, or with more objects than this, the page's answer is not a document Tether reads. */
const MAX_DEPTH = 40;
const MAX_OBJECTS = 200_000;

/** The text of a JSON model the page gave, checked as a SmartEditor ONE document; null when it is not one. */
export function parseDocumentData(text: string): SeDocumentData | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  let objects = 0;
  const fits = (item: unknown, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    if (typeof item !== 'object' || item === null) return true;
    objects += 1;
    if (objects > MAX_OBJECTS) return false;
    return (Array.isArray(item) ? item : Object.values(item)).every((child) => fits(child, depth + 1));
  };
  if (!fits(value, 0) || !isObject(value)) return null;
  const document = value.document;
  if (!isObject(document) || !Array.isArray(document.components)) return null;
  const components = document.components;
  if (!components.every(isObject)) return null;
  return { raw: value, document, components: components as JsonObject[] };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ctype = (value: Json | undefined): string | null => (isObject(value) && typeof value['@ctype'] === 'string' ? value['@ctype'] : null);

export function titleComponent(data: SeDocumentData): JsonObject | null {
  return data.components.find((component) => ctype(component) === 'documentTitle') ?? null;
}

export function bodyComponents(data: SeDocumentData): JsonObject[] {
  return data.components.filter((component) => ctype(component) !== 'documentTitle');
}

function nodesText(paragraph: JsonObject): string {
  const nodes = Array.isArray(paragraph.nodes) ? paragraph.nodes : [];
  return nodes.map((node) => (isObject(node) && typeof node.value === 'string' ? node.value : '')).join('');
}

/** Every paragraph inside a value, in document order (text, quotation, captions, table cells alike). */
export function paragraphsIn(value: Json): JsonObject[] {
  const found: JsonObject[] = [];
  const walk = (item: Json) => {
    if (Array.isArray(item)) item.forEach(walk);
    else if (isObject(item)) {
      if (ctype(item) === 'paragraph') found.push(item);
      else Object.values(item).forEach(walk);
    }
  };
  walk(value);
  return found;
}

/** The title's text, one line per paragraph (as the rendered title reads). */
export function titleText(data: SeDocumentData): string {
  const title = titleComponent(data);
  return title
    ? paragraphsIn(title.title ?? [])
        .map(nodesText)
        .join('\n')
    : '';
}

/** The body's text, one line per paragraph of every component but the title (as the rendered body reads). */
export function bodyText(data: SeDocumentData): string {
  return paragraphsIn(bodyComponents(data)).map(nodesText).join('\n');
}

// ---- what Tether writes: blocks, built into components ----

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  link?: string;
}

export type Block =
  | { kind: 'paragraph'; inlines: Inline[]; heading?: 2 | 3 | 4; list?: { type: 'bullet' | 'decimal'; level: number } }
  | { kind: 'quotation'; paragraphs: Inline[][] };

/**
 * The subheading style for a markdown heading: 소제목 is a bold paragraph in a bigger size, not a
 * component of its own. The sizes are JHN's measured table (h1 fs24, h2 fs19, h3 fs15 over fs15
 * body text); CSH used fs28 over fs19. A post's title is its own field, so markdown's top heading
 * (h2 once sanitized) takes the biggest.
 */
export const SUBHEADING_SIZE: Record<2 | 3 | 4, string> = { 2: 'fs24', 3: 'fs19', 4: 'fs15' };

/** The names kept and dropped are the model's own (what an agent can look for in it), not HTML's. */
export const MODEL_NAMES = {
  link: 'textNode.link',
  bold: 'nodeStyle.bold',
  italic: 'nodeStyle.italic',
  strike: 'nodeStyle.strikethrough',
  bullet: 'paragraphListStyle.bullet',
  decimal: 'paragraphListStyle.decimal',
  quotation: 'quotation',
  subheading: 'subheading (bold + fontSizeCode)',
} as const;
export type ModelName = (typeof MODEL_NAMES)[keyof typeof MODEL_NAMES];

export function seId(random: () => string): string {
  return `SE-${random()}`;
}

function textNodeOf(inline: Inline, random: () => string, heading?: 2 | 3 | 4): JsonObject {
  const style: JsonObject = {};
  if (inline.bold || heading) style.bold = true;
  if (heading) style.fontSizeCode = SUBHEADING_SIZE[heading];
  if (inline.italic) style.italic = true;
  // The record shows no key for strike-through: this one is a guess; the model's answer says whether it stayed.
  if (inline.strike) style.strikethrough = true;
  const node: JsonObject = { id: seId(random), value: inline.text };
  if (Object.keys(style).length > 0) node.style = { ...style, '@ctype': 'nodeStyle' };
  if (inline.link) node.link = { url: inline.link, '@ctype': 'urlLink' };
  node['@ctype'] = 'textNode';
  return node;
}

function paragraphOf(
  inlines: Inline[],
  random: () => string,
  options: { heading?: 2 | 3 | 4; list?: { type: 'bullet' | 'decimal'; level: number } } = {},
): JsonObject {
  const nodes = inlines.filter((inline) => inline.text !== '').map((inline) => textNodeOf(inline, random, options.heading));
  // An empty paragraph is one empty textNode, as in the live dumps.
  const paragraph: JsonObject = { id: seId(random), nodes: nodes.length > 0 ? nodes : [{ id: seId(random), value: '', '@ctype': 'textNode' }] };
  if (options.list)
    paragraph.style = { list: { type: options.list.type, level: options.list.level, '@ctype': 'paragraphListStyle' }, '@ctype': 'paragraphStyle' };
  paragraph['@ctype'] = 'paragraph';
  return paragraph;
}

/** Blocks as components: runs of paragraphs in one text component each, a quotation as its own. */
export function buildComponents(blocks: Block[], random: () => string): JsonObject[] {
  const components: JsonObject[] = [];
  let text: JsonObject[] | null = null;
  for (const block of blocks) {
    if (block.kind === 'quotation') {
      text = null;
      components.push({
        id: seId(random),
        layout: 'default',
        value: block.paragraphs.map((inlines) => paragraphOf(inlines, random)),
        source: null,
        '@ctype': 'quotation',
      });
      continue;
    }
    if (!text) {
      text = [];
      components.push({ id: seId(random), layout: 'default', value: text, '@ctype': 'text' });
    }
    text.push(paragraphOf(block.inlines, random, { ...(block.heading ? { heading: block.heading } : {}), ...(block.list ? { list: block.list } : {}) }));
  }
  return components;
}

/** A component with nothing in it: the editor's empty text component (a new post's, or the one it keeps last). */
function isEmptyText(component: JsonObject): boolean {
  return ctype(component) === 'text' && paragraphsIn(component).every((paragraph) => nodesText(paragraph) === '');
}

/**
 * The document after one write, from the document as the page gave it: the title's or the body's
 * components replaced, appended to or cleared; everything else, envelope included, as it came.
 */
export function documentAfter(data: SeDocumentData, field: 'title' | 'body', mode: Mode, built: JsonObject[] | string, random: () => string): JsonObject {
  let components: JsonObject[];
  if (field === 'title') {
    const text = mode === 'clear' ? '' : typeof built === 'string' ? built : '';
    const existing = titleComponent(data);
    const previous = existing
      ? paragraphsIn(existing.title ?? [])
          .map(nodesText)
          .join('')
      : '';
    const value = mode === 'append' ? previous + text : text;
    const title: JsonObject = existing
      ? { ...existing, title: [paragraphOf([{ text: value }], random)] }
      : { id: seId(random), layout: 'default', title: [paragraphOf([{ text: value }], random)], subTitle: null, align: 'left', '@ctype': 'documentTitle' };
    components = existing ? data.components.map((component) => (component === existing ? title : component)) : [title, ...data.components];
  } else {
    const title = titleComponent(data);
    const body = bodyComponents(data);
    const added = typeof built === 'string' ? [] : built;
    let next: JsonObject[];
    if (mode === 'clear') next = [{ id: seId(random), layout: 'default', value: [paragraphOf([], random)], '@ctype': 'text' }];
    else if (mode === 'fill') next = added;
    else {
      // After the last component; the editor's trailing empty text goes (it keeps one of its own).
      const kept = [...body];
      while (kept.length > 0 && isEmptyText(kept[kept.length - 1] as JsonObject)) kept.pop();
      next = [...kept, ...added];
    }
    components = [...(title ? [title] : []), ...next];
  }
  return { ...data.raw, document: { ...data.document, components } };
}

// ---- what the model holds of a write ----

export type ModelCounts = Record<ModelName, number>;

function emptyCounts(): ModelCounts {
  return Object.fromEntries(Object.values(MODEL_NAMES).map((name) => [name, 0])) as ModelCounts;
}

const SMALL_SIZES = new Set(['fs11', 'fs13', 'fs15']);

/** A paragraph all of whose text is bold in a size above body text: the editor's 소제목. */
function isSubheading(nodes: JsonObject[]): boolean {
  const text = nodes.filter((node) => typeof node.value === 'string' && node.value !== '');
  return (
    text.length > 0 &&
    text.every(
      (node) => isObject(node.style) && node.style.bold === true && typeof node.style.fontSizeCode === 'string' && !SMALL_SIZES.has(node.style.fontSizeCode),
    )
  );
}

/** How many of each construct the components hold, in the model's own terms (a subheading's bold is the subheading's). */
export function countConstructs(components: Json[]): ModelCounts {
  const counts = emptyCounts();
  const paragraph = (item: JsonObject) => {
    const list = isObject(item.style) && isObject(item.style.list) ? item.style.list.type : null;
    if (list === 'bullet') counts[MODEL_NAMES.bullet] += 1;
    if (list === 'decimal') counts[MODEL_NAMES.decimal] += 1;
    const nodes = (Array.isArray(item.nodes) ? item.nodes : []).filter(isObject);
    const subheading = isSubheading(nodes);
    if (subheading) counts[MODEL_NAMES.subheading] += 1;
    for (const node of nodes) {
      if (typeof node.value !== 'string' || node.value === '') continue;
      const style = isObject(node.style) ? node.style : {};
      if (style.bold === true && !subheading) counts[MODEL_NAMES.bold] += 1;
      if (style.italic === true) counts[MODEL_NAMES.italic] += 1;
      if (style.strikethrough === true) counts[MODEL_NAMES.strike] += 1;
      if (isObject(node.link) && typeof node.link.url === 'string' && node.link.url !== '') counts[MODEL_NAMES.link] += 1;
    }
  };
  const walk = (item: Json) => {
    if (Array.isArray(item)) return item.forEach(walk);
    if (!isObject(item)) return;
    const type = ctype(item);
    if (type === 'paragraph') return paragraph(item);
    if (type === 'quotation') counts[MODEL_NAMES.quotation] += 1;
    Object.values(item).forEach(walk);
  };
  walk(components);
  return counts;
}

/**
 * Kept: every construct the write carried whose count in the model grew by at least what the write
 * added (for a fill, the model's count is what the write left). Dropped: the rest. A subheading's
 * bold is the subheading's, so a written heading's bold does not count as a bold run of its own.
 */
export function keptAndDropped(written: ModelCounts, before: ModelCounts, after: ModelCounts, mode: Mode): { kept: ModelName[]; dropped: ModelName[] } {
  const kept: ModelName[] = [];
  const dropped: ModelName[] = [];
  for (const name of Object.values(MODEL_NAMES)) {
    if (written[name] === 0) continue;
    const gained = mode === 'fill' ? after[name] : after[name] - before[name];
    (gained >= written[name] ? kept : dropped).push(name);
  }
  return { kept, dropped };
}
