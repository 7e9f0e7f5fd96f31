/**
 * The images a page shows, by name (the reader module's part of `inspect`, and the `image` request
 * a reference image is taken by). Only images a person sees: loaded, at least 48 px on each side
 * as decoded and as shown (no tracking pixels, no icons), not hidden, not under aria-hidden. Each
 * gets a stable name from its alt text (else its file name), numbered when names repeat, in the
 * order of the document: the same page gives the same names to `inspect` and to `image`.
 * Never the bytes: the worker takes them from the address the page shows the image from.
 */
import type { PageImage } from '../../shared/page/pageProtocol.ts';
import type { PageModel } from '../pageTypes.ts';

export const MIN_IMAGE_SIDE = 48;

export interface ListedImage {
  name: string;
  alt: string;
  width: number;
  height: number;
  region: string;
  after?: string;
}

const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, figcaption, pre';
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

function slug(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\.[a-z0-9]{2,5}$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

function fileName(src: string): string {
  try {
    return decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/** Shown to a person: in the layout, not hidden by style, not aria-hidden, not too small. */
function seen(img: HTMLImageElement): boolean {
  if (img.closest('[aria-hidden="true"], [hidden]')) return false;
  const view = img.ownerDocument.defaultView;
  const style = view?.getComputedStyle(img);
  if (style && (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0)) return false;
  if (typeof img.checkVisibility === 'function' && !img.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  // Clipped away as "visually hidden" content is: clip-path inset of half or more, or clip: rect(0 0 0 0).
  const inset = style ? /^inset\(\s*([\d.]+)%/.exec(style.clipPath) : null;
  if (inset && Number(inset[1]) >= 50) return false;
  if (style && (style.position === 'absolute' || style.position === 'fixed') && /^rect\(0px,? 0px,? 0px,? 0px\)$/.test(style.clip)) return false;
  const box = img.getBoundingClientRect();
  // Off the page where no scrolling reaches (left of or above the document's start: left:-10000px).
  if (box.right + (view?.scrollX ?? 0) <= 0 || box.bottom + (view?.scrollY ?? 0) <= 0) return false;
  return box.width >= MIN_IMAGE_SIDE && box.height >= MIN_IMAGE_SIDE;
}

interface Named {
  img: HTMLImageElement;
  name: string;
}

/** Every image a person sees in the document, named; `loaded` false lists the ones that failed too. */
function namedImages(doc: Document): Named[] {
  const used = new Map<string, number>();
  const out: Named[] = [];
  for (const img of Array.from(doc.images)) {
    if (!seen(img)) continue;
    // Loaded and not an icon as decoded; a failed image still gets its name (so asking for it says it failed).
    if (img.complete && img.naturalWidth > 0 && (img.naturalWidth < MIN_IMAGE_SIDE || img.naturalHeight < MIN_IMAGE_SIDE)) continue;
    const base = slug(img.alt) || slug(fileName(img.currentSrc || img.src)) || 'image';
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    out.push({ img, name: count === 1 ? base : `${base}-${count}` });
  }
  return out;
}

const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

/** The text of the block before the image (a paragraph's first words), for "after which paragraph". */
function blockBefore(img: HTMLImageElement, root: Element): string | undefined {
  const blocks = Array.from(root.querySelectorAll(BLOCKS)).filter((block) => !block.contains(img) && flat(block.textContent ?? '') !== '');
  let last: Element | undefined;
  for (const block of blocks) {
    if (block.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_FOLLOWING) last = block;
    else break;
  }
  const text = last ? flat(last.textContent ?? '') : '';
  return text === '' ? undefined : text.slice(0, 120);
}

/** The regions `read` names, as elements (a field, an adapter's region, the article: its post body or the page's main part). */
function regions(read: string[], model: PageModel, doc: Document): Array<{ name: string; element: Element }> {
  const out: Array<{ name: string; element: Element }> = [];
  for (const name of read) {
    const field = model.fields.find((candidate) => candidate.name === name);
    const element =
      field?.editable.element ??
      model.readable.get(name)?.element() ??
      (name === 'article' ? (model.readable.get('post.body')?.element() ?? doc.querySelector('article, main, [role="main"]') ?? doc.body) : null);
    if (element) out.push({ name, element });
  }
  return out;
}

/** The images in what `read` names, as `inspect` lists them (at most 100). */
export function listImages(read: string[], model: PageModel, doc: Document = document): ListedImage[] {
  const within = regions(read, model, doc);
  const out: ListedImage[] = [];
  for (const { img, name } of namedImages(doc)) {
    if (!loaded(img)) continue;
    const region = within.find((candidate) => candidate.element.contains(img));
    if (!region) continue;
    const after = blockBefore(img, region.element);
    out.push({ name, alt: flat(img.alt).slice(0, 300), width: img.naturalWidth, height: img.naturalHeight, region: region.name, ...(after ? { after } : {}) });
    if (out.length >= 100) break;
  }
  return out;
}

/** The image a name means, as the page shows it now, or why there is none. */
export function findImage(name: string, doc: Document = document): { ok: true; value: PageImage } | { ok: false; problem: string } {
  const all = namedImages(doc);
  const found = all.find((candidate) => candidate.name === name);
  if (!found) {
    const names = all.filter((candidate) => loaded(candidate.img)).map((candidate) => candidate.name);
    return {
      ok: false,
      problem: `This page shows no image named "${name}"${names.length > 0 ? ` (it shows ${names.slice(0, 20).join(', ')})` : ' (it shows none a person can see)'}.`,
    };
  }
  if (!loaded(found.img)) return { ok: false, problem: `The image "${name}" did not load on this page, so there is nothing to copy.` };
  return {
    ok: true,
    value: {
      url: (found.img.currentSrc || found.img.src).slice(0, 8192),
      width: found.img.naturalWidth,
      height: found.img.naturalHeight,
      alt: flat(found.img.alt).slice(0, 1000),
    },
  };
}
