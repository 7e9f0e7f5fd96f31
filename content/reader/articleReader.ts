/**
 * The post without the page around it, as Firefox's reader view gives it: Mozilla's Readability
 * (@mozilla/readability 0.6.0) run on a copy of the document, never on the page. The copy leaves
 * the comments out (they are a region of their own, and on a heavy post they are most of the
 * page: Readability's passes over 50,000 elements take 0.3 s, over the 150 left 10 ms), and
 * Readability drops navigation, sidebars, footers, forms and buttons from what it keeps.
 *
 * What Readability says the title is comes from the document's <title> ("Weekly notes — Riverside
 * Cafe") by separators it knows ("|", "-", ":"); a heading the <title> contains is the post's own
 * title, so the longest such heading wins.
 */
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { blockText, COMMENT_PARAGRAPHS } from './blockText.ts';
import type { ArticleReading } from './readerContract.ts';

/** Set by the build (vite.config.ts): true only in the test build, never in the product. */
declare const __TETHER_TEST_SITES__: boolean;

/**
 * Readability reads a page of this many elements (besides its comments) in about a second here
 * (Readability 0.6.0, Chromium 156, a 2-core machine: 0.9 s for a table of 20,000 cells); past it,
 * the article is the generic reading.
 */
export const MAX_ARTICLE_ELEMENTS = 20_000;

/**
 * Readability's own test of whether a page has an article (Firefox offers its reader view only where
 * it passes), with lower bars than Firefox's (paragraphs of 140 characters, a score of 20): a short
 * post of two or three sentences passes, a page of links and controls (or a footer) does not. Without
 * it Readability returns the page's longest block of anything, a footer's links included.
 */
const READERABLE = { minContentLength: 20, minScore: 8 };

/** A copy of `doc` without `left` (and what is in it): native deep copies, except along the way to `left`. */
function copyWithout(doc: Document, left: Element | null): Document {
  const copy = doc.cloneNode(false) as Document;
  const copyOf = (node: Node): Node => {
    if (!left || !node.contains(left)) return node.cloneNode(true);
    const shallow = node.cloneNode(false);
    for (let child = node.firstChild; child; child = child.nextSibling) if (child !== left) shallow.appendChild(copyOf(child));
    return shallow;
  };
  copy.appendChild(copyOf(doc.documentElement));
  return copy;
}

const oneLine = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function titleOf(doc: Document, readabilityTitle: string | null | undefined): string {
  const pageTitle = oneLine(doc.title);
  let best = '';
  for (const heading of Array.from(doc.querySelectorAll('h1, h2, h3')).slice(0, 30)) {
    const text = oneLine(heading.textContent);
    if (text.length > best.length && text.length >= 3 && pageTitle.includes(text)) best = text;
  }
  return best || oneLine(readabilityTitle) || pageTitle;
}

/** The article's title and body (as text, or as markdown with `markdown`), or why there is none. */
export function readArticle(doc: Document, comments: Element | null, markdown: ((element: Element) => string) | null): ArticleReading {
  const elements = doc.getElementsByTagName('*').length - (comments?.getElementsByTagName('*').length ?? 0);
  if (elements > MAX_ARTICLE_ELEMENTS) {
    return { problem: `The page has ${elements} elements besides its comments, more than the reader view reads (${MAX_ARTICLE_ELEMENTS}).` };
  }
  try {
    // The test build's way to make the extractor fail (e2e/reading.spec.ts); the product has no such page.
    if (__TETHER_TEST_SITES__ && doc.querySelector('meta[name="tether-test-fault"][content="readability"]')) throw new Error('test fault');
    const copy = copyWithout(doc, comments);
    if (!isProbablyReaderable(copy, READERABLE)) return { problem: 'The reader view (Readability) finds no article on this page.' };
    const article = new Readability<Node>(copy, { serializer: (node) => node, maxElemsToParse: MAX_ARTICLE_ELEMENTS }).parse();
    const content = article?.content;
    const body = content ? (markdown ? markdown(content as Element) : blockText(content)) : '';
    if (!content || body === '') return { problem: 'The reader view (Readability) found no article on this page.' };
    const title = titleOf(doc, article.title);
    const firstLine = oneLine(body.split('\n', 1)[0]?.replace(/^#+ /, ''));
    if (title === '' || firstLine === title) return { text: body };
    return { text: markdown ? `# ${title}\n\n${body}` : `${title}\n\n${body}` };
  } catch (error) {
    return { problem: `The reader view (Readability) failed on this page (${(error instanceof Error ? error.message : String(error)).slice(0, 200)}).` };
  }
}

/** How many comments, then their text: each comment's lines, without the controls under it. */
export function readComments(container: Element, count: number): string {
  const text = blockText(container, COMMENT_PARAGRAPHS);
  return `${count} ${count === 1 ? 'comment' : 'comments'}${text ? `\n\n${text}` : ''}`;
}
