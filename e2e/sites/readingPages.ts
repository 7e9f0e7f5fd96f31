/**
 * Pages for reading tests and the bench's "cost against page size" (served by the notes site at
 * /reading/<page>, a host no site adapter claims, so the generic reading and the reader view are
 * what read them):
 * - `post?comments=N`: the cafe's weekly notes as a real community post carries them — the cafe's
 *   menus and its popular-posts sidebar around the article, the post's own Like / Share / Report
 *   buttons, and N comments with Reply / Like / Report under each (ten elements per comment);
 *   `&fault=readability` adds the test build's fault hook, which makes the reader view fail.
 * - `huge?rows=N`: a document of 6·N + a few elements (an inventory table), for documents too
 *   large to read whole.
 * - `restless`: a page that never stops mutating (a live feed rewritten every task and frame).
 * - `long`: one paragraph of 120,000 characters, words of Korean and emoji, with an emoji whose
 *   two UTF-16 halves sit at characters 49,999 and 50,000 of the page's main text.
 */
import { escapeHtml, layout, type Session } from './pages.ts';

export const READING_PAGES = ['post', 'huge', 'restless', 'long'] as const;
export type ReadingPage = (typeof READING_PAGES)[number];

export const WEEKLY_NOTES = {
  title: 'Weekly notes: spring market',
  meta: 'carol · 2026-11-28 09:12 · Views 1,204',
  /** The post's body as blocks: [tag, text] (a `ul` holds its items, one per line). */
  blocks: [
    ['p', "The spring market opens Saturday at 10am by the river. This week's notes cover the stalls, the volunteers and what changed since last year."],
    ['h2', 'Where and when'],
    [
      'p',
      'Stalls open from 10am to 4pm along the river path, between the old bridge and the north gate. In case of rain the market moves under the station canopy, and the tea stall moves with it.',
    ],
    ['h2', 'Stalls'],
    [
      'ul',
      'Tea stall: bring your own cup for a 500 won discount.\nBakery: sourdough and rice cakes until they run out.\nSeed swap: bring seeds in labelled envelopes, one kind per envelope.',
    ],
    ['h2', 'Volunteers'],
    [
      'p',
      'Volunteers meet at the north gate at 9am. We need six people for the set-up and four for the clean-up at 4pm. Gloves, bags and tea are provided for everyone who helps.',
    ],
    ['h2', '봄 시장 안내'],
    [
      'p',
      '봄 시장은 토요일 오전 10시에 강변에서 열립니다. 개인 컵을 가져오시면 차 가게에서 500원을 할인해 드립니다. 자원봉사자는 오전 9시에 북문에서 모입니다.',
    ],
    ['p', 'Thanks to everyone who helped last year. See you by the river!'],
  ] as Array<[string, string]>,
};

const COMMENT_WORDS: Array<[string, string]> = [
  ['dave', 'Thanks for the notice! Will the bakery stall be there too?'],
  ['erin', 'Last year the tea discount was great. Bringing my own cup for sure.'],
  ['frank', 'Is parking available near the north gate?'],
  ['carol', 'Frank: yes, the school car park is open on Saturday.'],
  ['grace', 'Can kids volunteer with their parents?'],
  ['heidi', '저도 갈게요! 강변에서 만나요.'],
];

/** The text of comment `index` (from 1), as the page shows it. */
export function commentText(index: number): string {
  const [, words] = COMMENT_WORDS[(index - 1) % COMMENT_WORDS.length] ?? ['', ''];
  return `Comment ${index}: ${words}`;
}

function notesHtml(): string {
  return WEEKLY_NOTES.blocks
    .map(([tag, text]) =>
      tag === 'ul'
        ? `<ul>${text
            .split('\n')
            .map((item) => `<li>${escapeHtml(item)}</li>`)
            .join('')}</ul>`
        : `<${tag}>${escapeHtml(text)}</${tag}>`,
    )
    .join('\n');
}

function commentItem(index: number): string {
  const [who] = COMMENT_WORDS[(index - 1) % COMMENT_WORDS.length] ?? [''];
  const minute = String(index % 60).padStart(2, '0');
  return `<li class="comment"><div class="comment-head"><strong class="nick">${who}</strong> <time>2026-11-28 10:${minute}</time></div><p class="comment-text">${escapeHtml(commentText(index))}</p><div class="comment-tools"><button type="button">Reply</button><button type="button">Like <span>${index % 9}</span></button><button type="button">Report</button></div></li>`;
}

/** The test build's fault hook (content/reader/articleReader.ts): the reader view fails on a page that carries it. */
const READER_FAULT = '<meta name="tether-test-fault" content="readability">';

function post(session: Session, comments: number, fault: boolean): string {
  const items = Array.from({ length: comments }, (_, index) => commentItem(index + 1)).join('\n');
  const html = layout(
    { ...session, site: 'cafe' },
    `${WEEKLY_NOTES.title} — Riverside Cafe`,
    `<article class="post">
<h1 class="post-title">${escapeHtml(WEEKLY_NOTES.title)}</h1>
<p class="post-meta">${escapeHtml(WEEKLY_NOTES.meta)}</p>
<div class="post-body">
${notesHtml()}
</div>
<div class="post-tools"><button type="button">Like 24</button> <button type="button">Share</button> <button type="button">Report</button></div>
</article>
<section class="comments" id="comments" aria-label="Comments"><h2>Comments (${comments})</h2>
<ul class="comment-list">
${items}
</ul>
<form class="comment-form" onsubmit="return false"><label for="comment">Comment</label><textarea id="comment" rows="2"></textarea><button type="button">Post comment</button></form>
</section>`,
  );
  return fault ? html.replace('<head>', `<head>\n${READER_FAULT}`) : html;
}

function huge(session: Session, rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, index) => `<tr><td>${index + 1}</td><td>Item ${index + 1}</td><td>${index % 17}</td><td>shelf ${index % 40}</td><td>ok</td></tr>`,
  ).join('');
  return layout(
    session,
    'Inventory — Notes',
    `<article><h1>Inventory</h1><p>Every item in the store room, one row each.</p><table><tbody>${body}</tbody></table></article>`,
  );
}

function restless(session: Session): string {
  const lines = Array.from({ length: 2500 }, (_, index) => `<li>Update ${index + 1}: the market feed is live.</li>`).join('');
  return layout(session, 'Live feed — Notes', `<article><h1>Live feed</h1><p class="ticker">0</p><ul class="feed">${lines}</ul></article>`, [
    '/assets/reading-restless.js',
  ]);
}

/** Where the long page's emoji straddles the 50,000-character limit, and how long its text is. */
export const LONG_PAGE = { length: 120_000, emojiAt: 49_999 };

/** The long page's text: words of Korean and emoji, an emoji's halves at emojiAt and emojiAt + 1. */
export function longText(): string {
  const words = ['봄시장🌸', '강변', 'market', '🍵차', '자원봉사자', 'river🙂', '토요일'];
  let text = '';
  for (let index = 0; text.length < LONG_PAGE.emojiAt - 20; index += 1) text += `${words[index % words.length]} `;
  // Pad with letters so that the word "시장🌸장터" has its emoji's high half at emojiAt.
  text += 'a'.repeat(LONG_PAGE.emojiAt - 2 - text.length - 1);
  text += ' 시장🌸장터';
  for (let index = 0; text.length + 12 < LONG_PAGE.length; index += 1) text += ` ${words[index % words.length]}`;
  return `${text} ${'z'.repeat(LONG_PAGE.length - text.length - 1)}`;
}

function long(session: Session): string {
  return layout(session, 'Long page — Notes', `<p class="long">${escapeHtml(longText())}</p>`);
}

export function readingPage(session: Session, page: string, params: URLSearchParams): string | null {
  const count = (name: string, fallback: number) => Math.max(0, Math.min(200_000, Number(params.get(name) ?? fallback) || 0));
  switch (page as ReadingPage) {
    case 'post':
      return post(session, count('comments', 6), params.get('fault') === 'readability');
    case 'huge':
      return huge(session, count('rows', 20_000));
    case 'restless':
      return restless(session);
    case 'long':
      return long(session);
    default:
      return null;
  }
}
