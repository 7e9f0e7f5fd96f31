/**
 * SmartEditor ONE's photos, pure (no DOM, no page): what of the uploader's answer is a photo
 * Tether will put in, the image component built from it, and where it goes in the document.
 *
 * Checked 2026-12-01 against the public record (e2e/sites/naver/SOURCES.md §6): CSH
 * (csh1668/naver-blog-automation spike/findings.md §4, 2026-08-28, console-verified on the live
 * editor) for the answer `{code: "SUCCESS", response: {url, path, fileName, width, height,
 * fileSize, thumbnail, imageType, domain}}` and the mapping — `path` is the answer's **url**
 * ("path에는 응답의 url을 쓴다 — path를 쓰면 404"), `src = domain + url + "?type=w1"`,
 * `width = min(693, originalWidth)`, the height keeping the ratio, `represent` on the first photo
 * only, `contentMode: "fit"`, `origin.srcFrom: "local"`; the photo domains `blogfiles.pstatic.net`
 * (CSH, AIC's live dumps) and `cafeptthumb-phinf.pstatic.net` (VIR, CAF). The alt goes in as the
 * component's caption (the editor's "사진 설명", JHN/AIM; the live dumps show `caption: null` and
 * no alt key at all), one paragraph: its shape is the title's and the quotation's (guessed).
 *
 * The answer is the page's word: every field is checked here before anything is built from it —
 * a url that is not a string, that is missing, oversized, or on a host other than Naver's photo
 * hosts is refused, and nothing goes in.
 */
import { bodyComponents, isObject, paragraphsIn, titleComponent, type Json, type JsonObject, type SeDocumentData } from './seModel.ts';

/** Naver's photo hosts: an upload's answer must name one of them (Blog, Cafe). */
export const PHOTO_HOSTS = ['blogfiles.pstatic.net', 'cafeptthumb-phinf.pstatic.net'] as const;
/** A photo's url (path and file name) longer than this is not a photo's. */
export const MAX_PHOTO_URL = 1024;
/** The widest the editor shows a photo in the document (CSH). */
export const SHOWN_WIDTH = 693;

export interface UploadedPhoto {
  /** The answer's url: the path the photo is served at under the domain (the component's `path`). */
  url: string;
  /** The photo host's origin, e.g. https://blogfiles.pstatic.net. */
  domain: string;
  fileName: string;
  width: number;
  height: number;
  fileSize: number;
}

const SAFE_PATH = /^\/(?:[A-Za-z0-9._~!$&'()*+,;=:@%-]+\/)*[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

function photoHost(url: URL, allowHttp: boolean): boolean {
  const scheme = url.protocol === 'https:' || (allowHttp && url.protocol === 'http:');
  // A port only in the test build (its fixtures are served on one); the product takes the hosts as they are.
  return scheme && (PHOTO_HOSTS as readonly string[]).includes(url.hostname) && (url.port === '' || allowHttp) && url.username === '' && url.password === '';
}

const dimension = (value: Json | undefined): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 16_384 ? value : null;

/**
 * The uploader's answer (JSON text the main world gave), checked: the photo Tether will build a
 * component from, or why not. `fallback` gives the size Tether read from the bytes' header, for an
 * answer without one.
 */
export function checkUpload(
  text: string,
  allowHttp: boolean,
  fallback: { width: number; height: number; fileSize: number },
): { photo: UploadedPhoto } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'the uploader’s answer is not JSON' };
  }
  if (!isObject(value)) return { problem: 'the uploader gave no answer for the photo' };
  if (value.code !== undefined && value.code !== 'SUCCESS')
    return { problem: `the uploader answered ${typeof value.code === 'string' ? value.code.slice(0, 40) : 'no success'}` };
  const response = value.response;
  if (!isObject(response)) return { problem: 'the uploader’s answer has no response' };
  const url = response.url;
  if (url === undefined || url === null || url === '') return { problem: 'the uploader’s answer has no url' };
  if (typeof url !== 'string') return { problem: `the uploader’s url is not a string (${Array.isArray(url) ? 'array' : typeof url})` };
  if (url.length > MAX_PHOTO_URL) return { problem: `the uploader’s url is over ${MAX_PHOTO_URL} characters` };
  const domainValue = response.domain;
  if (typeof domainValue !== 'string' || domainValue.length > 200) return { problem: 'the uploader’s answer names no photo host (domain)' };
  let domain: URL;
  try {
    domain = new URL(domainValue);
  } catch {
    return { problem: 'the uploader’s domain is not an address' };
  }
  if (!photoHost(domain, allowHttp) || domain.pathname !== '/' || domain.search !== '' || domain.hash !== '')
    return { problem: `the uploader’s domain ${domain.host.slice(0, 80)} is not one of Naver’s photo hosts (${PHOTO_HOSTS.join(', ')})` };
  let path = url;
  if (!url.startsWith('/') || url.startsWith('//')) {
    // An absolute url: only on the same photo host (anything else would link the photo from elsewhere).
    let absolute: URL;
    try {
      absolute = url.startsWith('//') ? new URL(url, domain.origin) : new URL(url);
    } catch {
      return { problem: 'the uploader’s url is neither a path nor an address' };
    }
    if (!photoHost(absolute, allowHttp) || absolute.origin !== domain.origin)
      return { problem: `the uploader’s url is on ${absolute.host.slice(0, 80) || 'no host'}, not on Naver’s photo host ${domain.host}` };
    if (absolute.search !== '' || absolute.hash !== '') return { problem: 'the uploader’s url carries a query' };
    path = absolute.pathname;
  }
  if (!SAFE_PATH.test(path) || path.split('/').some((segment) => segment === '.' || segment === '..'))
    return { problem: 'the uploader’s url is not a photo’s path' };
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const fileName = typeof response.fileName === 'string' && response.fileName !== '' && response.fileName.length <= 255 ? response.fileName : lastSegment;
  const width = dimension(response.width) ?? fallback.width;
  const height = dimension(response.height) ?? fallback.height;
  const fileSize =
    typeof response.fileSize === 'number' && Number.isInteger(response.fileSize) && response.fileSize > 0 ? response.fileSize : fallback.fileSize;
  return { photo: { url: path, domain: domain.origin, fileName, width, height, fileSize } };
}

/** Where the editor shows (and the published post serves) the photo: its src. */
export function photoSrc(photo: UploadedPhoto): string {
  return `${photo.domain}${photo.url}?type=w1`;
}

const ctype = (value: Json | undefined): string | null => (isObject(value) && typeof value['@ctype'] === 'string' ? value['@ctype'] : null);

/** Every image component of the body (imageGroup members too). */
export function imageComponents(data: SeDocumentData): JsonObject[] {
  const found: JsonObject[] = [];
  const walk = (item: Json) => {
    if (Array.isArray(item)) item.forEach(walk);
    else if (isObject(item)) {
      if (ctype(item) === 'image') found.push(item);
      else Object.values(item).forEach(walk);
    }
  };
  walk(bodyComponents(data));
  return found;
}

/** The caption's text as the model keeps it ('' for none). */
export function captionText(image: JsonObject): string {
  return paragraphsIn(image.caption ?? [])
    .map((paragraph) =>
      (Array.isArray(paragraph.nodes) ? paragraph.nodes : []).map((node) => (isObject(node) && typeof node.value === 'string' ? node.value : '')).join(''),
    )
    .join('\n');
}

/** The image component for an uploaded photo, as CSH maps it (the alt as its caption). */
export function photoComponent(photo: UploadedPhoto, alt: string, represent: boolean, random: () => string): JsonObject {
  const id = () => `SE-${random()}`;
  const width = Math.min(SHOWN_WIDTH, photo.width);
  const caption: Json = alt === '' ? null : [{ id: id(), nodes: [{ id: id(), value: alt, '@ctype': 'textNode' }], '@ctype': 'paragraph' }];
  return {
    id: id(),
    layout: 'default',
    src: photoSrc(photo),
    internalResource: true,
    represent,
    path: photo.url,
    domain: photo.domain,
    fileSize: photo.fileSize,
    width,
    widthPercentage: 0,
    height: Math.max(1, Math.round((photo.height * width) / photo.width)),
    originalWidth: photo.width,
    originalHeight: photo.height,
    fileName: photo.fileName,
    caption,
    format: 'normal',
    displayFormat: 'normal',
    imageLoaded: true,
    contentMode: 'fit',
    origin: { srcFrom: 'local', '@ctype': 'imageOrigin' },
    ai: false,
    '@ctype': 'image',
  };
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const lineOf = (paragraph: JsonObject) =>
  (Array.isArray(paragraph.nodes) ? paragraph.nodes : []).map((node) => (isObject(node) && typeof node.value === 'string' ? node.value : '')).join('');

function emptyText(random: () => string): JsonObject {
  const id = () => `SE-${random()}`;
  return {
    id: id(),
    layout: 'default',
    value: [{ id: id(), nodes: [{ id: id(), value: '', '@ctype': 'textNode' }], '@ctype': 'paragraph' }],
    '@ctype': 'text',
  };
}

const isEmptyText = (component: JsonObject) => ctype(component) === 'text' && paragraphsIn(component).every((paragraph) => lineOf(paragraph) === '');

/**
 * The document with the image component placed: after the body's last component (its trailing
 * empty text giving way, one empty text after the photo, as the live dumps end), or right after the
 * paragraph `after` names — the one whose text is it (else the only one that starts with it) —
 * splitting that paragraph's text component in two around the photo.
 */
export function placePhoto(
  data: SeDocumentData,
  image: JsonObject,
  after: string | undefined,
  random: () => string,
): { document: JsonObject } | { problem: string } {
  const title = titleComponent(data);
  const body = bodyComponents(data);
  let next: JsonObject[];
  if (after === undefined) {
    const kept = [...body];
    while (kept.length > 0 && isEmptyText(kept[kept.length - 1] as JsonObject)) kept.pop();
    next = [...kept, image, emptyText(random)];
  } else {
    const wanted = flat(after);
    const spots: Array<{ component: number; paragraph: number; text: string }> = [];
    body.forEach((component, index) => {
      if (ctype(component) !== 'text' || !Array.isArray(component.value)) return;
      component.value.forEach((paragraph, at) => {
        if (isObject(paragraph)) spots.push({ component: index, paragraph: at, text: flat(lineOf(paragraph)) });
      });
    });
    const exact = spots.filter((spot) => spot.text === wanted);
    const starting = spots.filter((spot) => spot.text.startsWith(wanted));
    const chosen = exact.length === 1 ? exact : starting;
    const spot = chosen[0];
    if (wanted === '' || chosen.length === 0 || !spot) return { problem: `no paragraph starts with “${wanted.slice(0, 80)}”` };
    if (chosen.length > 1) return { problem: `${chosen.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words` };
    const component = body[spot.component] as JsonObject;
    const paragraphs = component.value as Json[];
    const before: JsonObject = { ...component, value: paragraphs.slice(0, spot.paragraph + 1) };
    const rest = paragraphs.slice(spot.paragraph + 1);
    const tail: JsonObject[] = rest.length > 0 ? [{ ...component, id: `SE-${random()}`, value: rest }] : [];
    next = [...body.slice(0, spot.component), before, image, ...tail, ...body.slice(spot.component + 1)];
    if (next[next.length - 1] === image) next.push(emptyText(random));
  }
  return { document: { ...data.raw, document: { ...data.document, components: [...(title ? [title] : []), ...next] } } };
}

/**
 * The document without the image components at `src` (a rollback's): the two text components
 * each photo split are joined again (an empty one beside the other dropped), as the editor had
 * them; every other component as it is.
 */
export function withoutPhoto(data: SeDocumentData, src: string): JsonObject {
  const title = titleComponent(data);
  const body = [...bodyComponents(data)];
  for (
    let index = body.findIndex((item) => ctype(item) === 'image' && item.src === src);
    index >= 0;
    index = body.findIndex((item) => ctype(item) === 'image' && item.src === src)
  ) {
    const left = body[index - 1];
    const right = body[index + 1];
    if (left && right && ctype(left) === 'text' && ctype(right) === 'text') {
      const merged = isEmptyText(right)
        ? left
        : isEmptyText(left)
          ? right
          : { ...left, value: [...(left.value as Json[]), ...(Array.isArray(right.value) ? right.value : [])] };
      body.splice(index - 1, 3, merged);
    } else body.splice(index, 1);
  }
  return { ...data.raw, document: { ...data.document, components: [...(title ? [title] : []), ...body] } };
}
