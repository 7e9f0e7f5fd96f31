/**
 * What a markdown editor's text says about an image a site uploaded on paste (pure: the driver is
 * markdownImage.ts). The site inserts markup into the source — often a placeholder first
 * (`![Uploading lake.png…]()`, GitHub's and Discourse's composers), then `![alt](stored-url)` —
 * and the text around it stays as it was. These rules read that from the text before and after.
 */

/**
 * One image's markup in markdown source, with where it stands, in one of the forms sites write:
 * - `markdown`: `![alt](url "title")` (most sites; the alt with backslash escapes);
 * - `discourse`: `![name|WxH](upload://short.ext)`, Discourse's composer's (lib/uploads.js
 *   imageMarkdown: the name, the thumbnail's size, the upload's short URL — the site's stored copy,
 *   resolved by the site; discourse/discourse, read 2026-12-01);
 * - `html`: `<img width="W" height="H" alt="name" src="https://…" />`, exactly as GitHub's comment
 *   box writes a pasted image (seen in public pull requests of late 2025, e.g. mchav/granite#16,
 *   src on github.com/user-attachments/assets/; checked 2026-12-01). Other HTML is not an image here.
 */
export interface ImageMarkup {
  start: number;
  end: number;
  /** The alt as written (escapes undone); Discourse's: the name without its `|WxH`. */
  alt: string;
  url: string;
  form: 'markdown' | 'discourse' | 'html';
  /** Discourse's `WxH`, kept as the site wrote it. */
  size?: string;
}

// `![alt](url "title")`: an alt with escapes but no raw bracket or line break, a url without spaces, an optional title.
// Each run of spaces is taken whole, atomically (`(?=(\s*))\2`): a long run cannot make it backtrack for seconds
// (20,000 spaces: 1.5 s before, under 1 ms now, node 2026-12-02). Groups: 1 the alt, 3 the url.
const MARKUP = /!\[((?:\\[\s\S]|[^\\\]\n])*)\]\((?=(\s*))\2<?([^\s)>]*)>?(?=(\s*))\4(?:(?<=\s)"[^"\n]*"(?=(\s*))\5)?\)/g;
// GitHub's pasted image, attribute for attribute: width, height, alt, src, self-closed.
const GITHUB_IMG = /<img width="(\d{1,5})" height="(\d{1,5})" alt="([^"<>\n]*)" src="([^"\s<>]*)" \/>/g;
// Discourse's short URL of an upload: upload://<base62 of its sha1>.<ext>.
const SHORT_URL = /^upload:\/\/[A-Za-z0-9]{1,64}(?:\.[A-Za-z0-9]{1,10})?$/;
const DISCOURSE_ALT = /^([\s\S]*)\|(\d{1,5}x\d{1,5})$/;

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|quot|lt|gt|#39);/g, (_, name: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'" })[name] ?? '');
const escapeHtml = (text: string) =>
  text.replace(/\s+/g, ' ').replace(/[&"<>]/g, (char) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[char] ?? char);

export function imageMarkups(text: string): ImageMarkup[] {
  const markdown = Array.from(text.matchAll(MARKUP), (match): ImageMarkup => {
    const alt = (match[1] ?? '').replace(/\\([\s\S])/g, '$1');
    const url = match[3] ?? '';
    const discourse = SHORT_URL.test(url) ? DISCOURSE_ALT.exec(alt) : null;
    const place = { start: match.index, end: match.index + match[0].length, url };
    return discourse ? { ...place, alt: discourse[1] ?? '', size: discourse[2] ?? '', form: 'discourse' } : { ...place, alt, form: 'markdown' };
  });
  const html = Array.from(text.matchAll(GITHUB_IMG), (match): ImageMarkup => ({
    start: match.index,
    end: match.index + match[0].length,
    alt: unescapeHtml(match[3] ?? ''),
    url: unescapeHtml(match[4] ?? ''),
    form: 'html',
  }));
  return [...markdown, ...html].sort((a, b) => a.start - b.start);
}

/** The alt as markdown source: brackets and backslashes escaped, on one line. */
export function escapeAlt(alt: string): string {
  return alt.replace(/\s+/g, ' ').replace(/[\\[\]]/g, (char) => `\\${char}`);
}

/**
 * A site's stored copy: an http(s) address, or one on the site (root-relative), resolved; in
 * Discourse's form, its upload:// short URL (as written: the site resolves it). Never data:,
 * blob: or empty.
 */
export function storedUrl(url: string, base: string, form: ImageMarkup['form'] = 'markdown'): string | null {
  if (form === 'discourse') return SHORT_URL.test(url) ? url : null;
  if (/^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'))) {
    try {
      return new URL(url, base).href;
    } catch {
      return null;
    }
  }
  return null;
}

/** An address that holds the image in the page only (not the site's copy): what a site that embeds writes. */
export const isLocalData = (url: string) => /^(?:data|blob):/i.test(url.trim());

/**
 * Every way `after` is `before` with one piece of text inserted (and nothing else changed): one
 * place, or several when the piece's ends repeat the text beside it (`\n\n![b](…)` before
 * `\n\n![a](…)` reads as inserted at either break). None: not one insertion.
 */
export function insertionsIn(before: string, after: string): Array<{ at: number; inserted: string }> {
  const length = after.length - before.length;
  if (length <= 0) return [];
  let prefix = 0;
  while (prefix < before.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < before.length && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1;
  const found: Array<{ at: number; inserted: string }> = [];
  for (let at = Math.max(0, before.length - suffix); at <= prefix; at += 1) found.push({ at, inserted: after.slice(at, at + length) });
  return found;
}

/** The first way `after` is `before` with one insertion, or null. */
export function insertionIn(before: string, after: string): { at: number; inserted: string } | null {
  return insertionsIn(before, after).at(-1) ?? null;
}

/**
 * Where the site's upload stands, from the field's text before the paste and now:
 * - `waiting`: nothing yet (or the text is back as it was: `gone` once something had shown);
 * - `uploading`: one markup went in at one place, pointing nowhere stored yet (a placeholder; `local`: at data:/blob:, the page's bytes only);
 * - `stored`: exactly one image markup (and line breaks around it) went in at one place, at a stored address;
 * - `other`: the text changed otherwise (not one insertion, or more than one image's markup).
 * `near`: where the caret was; only an insertion read as starting there counts (the same text can be
 * read as inserted at several places when the characters around it repeat).
 */
export type UploadState =
  | { state: 'waiting' }
  | { state: 'uploading'; at: number; inserted: string; local?: boolean }
  | { state: 'stored'; at: number; inserted: string; markup: ImageMarkup; src: string }
  | { state: 'other'; why: string };

function stateOf(insertion: { at: number; inserted: string }, base: string): UploadState {
  const markups = imageMarkups(insertion.inserted);
  const [markup] = markups;
  if (markups.length !== 1 || !markup)
    return { state: 'other', why: markups.length === 0 ? 'what went in is not an image’s markup' : 'more than one image went in' };
  const outside = insertion.inserted.slice(0, markup.start) + insertion.inserted.slice(markup.end);
  if (outside.trim() !== '') return { state: 'other', why: 'text other than the image’s markup went in with it' };
  const src = storedUrl(markup.url, base, markup.form);
  if (!src) return { state: 'uploading', ...insertion, local: isLocalData(markup.url) };
  return { state: 'stored', ...insertion, markup, src };
}

export function uploadState(before: string, now: string, base: string, near = before.length): UploadState {
  if (now === before) return { state: 'waiting' };
  const every = insertionsIn(before, now);
  if (every.length === 0) return { state: 'other', why: 'the text around the image changed' };
  // Only an insertion at the caret is the paste's: one elsewhere (a site that writes at the
  // selection of when its upload finished, or a page that moves it) is not where it was asked.
  const ways = every.filter((way) => way.at === near);
  if (ways.length === 0) return { state: 'other', why: 'the image went in at another place than where it was pasted' };
  const states = ways.map((way) => stateOf(way, base));
  return states.find((state) => state.state !== 'other') ?? states[0] ?? { state: 'other', why: 'the text around the image changed' };
}

/**
 * The inserted piece with its image's alt set to `alt`, in the form the site wrote it (the rest —
 * the address, Discourse's `|WxH`, GitHub's width and height, the line breaks — as written).
 */
export function withAlt(inserted: string, markup: ImageMarkup, alt: string): string {
  const raw = inserted.slice(markup.start, markup.end);
  let written: string;
  if (markup.form === 'html') {
    written = raw.replace(/ alt="[^"<>\n]*" /, () => ` alt="${escapeHtml(alt)}" `);
  } else {
    const open = raw.indexOf('](');
    written = `![${escapeAlt(alt)}${markup.form === 'discourse' ? `|${markup.size ?? ''}` : ''}${raw.slice(open)}`;
  }
  return `${inserted.slice(0, markup.start)}${written}${inserted.slice(markup.end)}`;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A source line's text as a reader sees it: without a heading's, quote's or list item's marker. */
export function lineWords(line: string): string {
  return flat(line.replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d{1,9}[.)]\s+)/, ''));
}

/** The line `after` names (the one whose words start with it), or why there is none. */
export function lineAfter(lines: readonly string[], after: string): { line: number } | { problem: string } {
  const wanted = flat(after);
  const matching = lines.flatMap((line, index) => (wanted !== '' && (lineWords(line).startsWith(wanted) || flat(line).startsWith(wanted)) ? [index] : []));
  if (matching.length === 1 && matching[0] !== undefined) return { line: matching[0] };
  if (matching.length === 0) return { problem: `no paragraph starts with “${wanted.slice(0, 80)}”` };
  return { problem: `${matching.length} paragraphs start with “${wanted.slice(0, 80)}”: give more of its words` };
}

/**
 * Whether a document text (the page's word, from CodeMirror's state in the main world) agrees with
 * what the editor has drawn: each run of drawn lines (between the gaps of what it did not draw) is
 * consecutive lines of the text, the runs in order. A line drawn only in part (a very long one,
 * a widget standing for the rest) is given as `{ prefix }`, its text up to the first widget: the
 * text's line must start with it, and it ends its run. Nothing drawn agrees with nothing.
 */
export function agreesWithDrawn(text: string, runs: ReadonlyArray<ReadonlyArray<string | { prefix: string }>>): boolean {
  if (runs.every((run) => run.length === 0)) return false;
  const lines = text.split('\n');
  const fits = (line: string | undefined, drawn: string | { prefix: string }) =>
    line !== undefined && (typeof drawn === 'string' ? line === drawn : line.startsWith(drawn.prefix));
  let from = 0;
  for (const run of runs) {
    if (run.length === 0) continue;
    let found = -1;
    for (let start = from; start + run.length <= lines.length; start += 1) {
      if (run.every((line, index) => fits(lines[start + index], line))) {
        found = start;
        break;
      }
    }
    if (found < 0) return false;
    from = found + run.length;
  }
  return true;
}

/** The line (0-based) and column of an offset into a text. */
export function lineOfOffset(text: string, offset: number): { line: number; column: number } {
  const head = text.slice(0, offset).split('\n');
  return { line: head.length - 1, column: (head.at(-1) ?? '').length };
}
