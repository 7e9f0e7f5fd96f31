/**
 * What the reader module (content-read.js: Mozilla's Readability, and the text of comments) gives
 * the content script, through its slot (moduleSlot.ts). The worker injects the module into the
 * bound document when an inspect first reads `article` or `comments` there.
 */
import type { PageImage } from '../../shared/page/pageProtocol.ts';
import type { PageReply } from '../../shared/page/pageChannel.ts';
import type { ListedImage } from './imageList.ts';
import type { PageModel } from '../pageTypes.ts';

/** The article as the reader view gives it, or why there is none. */
export type ArticleReading = { text: string } | { problem: string };

export interface ReaderModule {
  /**
   * The page's article (title and body): Readability on a copy of the document without its
   * comments (the page itself is never changed). `markdown` turns the article's element into
   * markdown (the act module's converter) when the request reads markdown.
   */
  article(doc: Document, comments: Element | null, markdown: ((element: Element) => string) | null): ArticleReading;
  /** How many comments, then their text (without the controls under each). */
  comments(container: Element, count: number): string;
  /** The images a person sees in what `read` names (imageList.ts). */
  images(read: string[], model: PageModel): ListedImage[];
  /** The image a name means, as the page shows it now (the `image` request). */
  image(name: unknown): PageReply<PageImage>;
}
