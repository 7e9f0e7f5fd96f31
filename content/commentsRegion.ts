/**
 * Where a page keeps its comments, so `comments` is a region of its own (read only when an agent
 * asks) and the reader view reads the article without them. In every page: a selector and a
 * count, nothing more; their text is read by the reader module (readerModule.ts).
 *
 * The containers, by the markup that names them: `#comments` and `.comment-list` / `.commentlist`
 * (WordPress's default themes' comments.php, and most hand-written pages), `.u_cbox` (Naver's
 * comment widget, where public scrapers read `span.u_cbox_contents`), and a "Comments" / "댓글"
 * label. Checked 2026-12-01 against public theme and scraper code, not the live sites (none is
 * reachable here). Naver Cafe's comments live in the article's frame (#cafe_main), which this
 * does not search.
 */
const CONTAINERS = '#comments, .comments, .comment-list, .commentlist, .u_cbox, [aria-label="Comments" i], [aria-label="댓글"]';

export interface CommentsRegion {
  container: Element;
  /** Comments in it: its list items (a reply counts), else its articles. */
  count: number;
}

/** The page's comments section, if it has one (the first, outermost, in document order). */
export function commentsIn(doc: Document): CommentsRegion | null {
  const container = doc.querySelector(CONTAINERS);
  if (!container) return null;
  return { container, count: container.getElementsByTagName('li').length || container.getElementsByTagName('article').length };
}
