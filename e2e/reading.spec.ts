/**
 * Reading real pages through a reference handle, in real Chromium with the built extension: the
 * post without the page around it (`article`, Mozilla's Readability in the reader module), the
 * comments as a region of their own, every cut said (`truncated`) and read on to the end exactly,
 * site adapters' regions winning, and pages too large or too restless to read whole still
 * answering, with the extractor's failures falling back to the generic reading and saying so.
 * The pages are e2e/sites/readingPages.ts (on the notes site: no adapter claims them).
 */
import type { Page } from '@playwright/test';
import type { InspectResult } from '../shared/agent/results.ts';
import { BOTH, expect, inBothBrowsers, test } from './fixtures.ts';
import { ok, refused } from './support/answers.ts';
import { commentText, LONG_PAGE, WEEKLY_NOTES } from './sites/readingPages.ts';
import type { TabPage, TetherClient } from './support/tetherClient.ts';
import type { TetherDriver } from './support/tetherDriver.ts';

type InspectArgs = { read?: string[]; readAs?: 'text' | 'markdown'; from?: Record<string, number> };

/** Puts the page in a shared workspace and binds it read only, as an agent's reference tab. */
async function reference<P extends TabPage>(tether: TetherClient<P>, page: P) {
  const workspace = await tether.workspaceOf([page]);
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace: workspace.id, readOnly: true, references: [{ url: page.url() }] }));
  const handle = resolved.references?.[0]?.handle ?? '';
  const ask = (args: InspectArgs) => tether.agent('inspect', { profile, workspace: workspace.id, handle, ...args });
  return { ask, inspect: async (args: InspectArgs = {}): Promise<InspectResult> => ok(await ask(args)) };
}

async function open(tether: TetherDriver, url: string): Promise<Page> {
  const page = await tether.context.newPage();
  await page.goto(url);
  return page;
}

/** What the page's main region reads as, by the page's own innerText (what the generic reading returns). */
const mainText = (page: TabPage) =>
  page.evaluate(() => ((document.querySelector('article, main, [role="main"]') as HTMLElement | null)?.innerText ?? '').trim());

const noteLines = WEEKLY_NOTES.blocks.flatMap(([, text]) => text.split('\n'));
/** Words of the page around the post: its menus, sidebar, footer, the post's and the comments' buttons, the comment box. */
const AROUND_THE_POST = ['Reply', 'Like', 'Report', 'Share', 'Post comment', 'Popular this week', 'Weekend plans', 'All posts', 'Members 3,482', 'Privacy'];

inBothBrowsers(
  'article is the post’s title and notes, and none of the comments, menus, sidebar or button words around it; the page is not changed',
  BOTH,
  async ({ tether }) => {
    const page = await tether.open('notes', '/reading/post?comments=100');
    const before = await page.evaluate(() => document.documentElement.outerHTML);
    const cafe = await reference(tether, page);
    expect((await cafe.inspect()).readable).toEqual(expect.arrayContaining(['title', 'main', 'article', 'comments']));

    const seen = await cafe.inspect({ read: ['article'] });
    const article = seen.text?.article ?? '';
    expect(article.startsWith(`${WEEKLY_NOTES.title}\n\n`)).toBe(true);
    for (const line of noteLines) expect(article).toContain(line);
    for (const words of AROUND_THE_POST) expect(article).not.toContain(words);
    expect(article).not.toContain(commentText(1));
    expect(article).not.toContain('Comment 100');
    expect(seen.truncated).toBeUndefined();
    expect(seen.fallback).toBeUndefined();
    // The page itself: the reader view read a copy.
    expect(await page.evaluate(() => document.documentElement.outerHTML)).toBe(before);

    // The generic main region still holds everything, comments and buttons included.
    const main = (await cafe.inspect({ read: ['main'] })).text?.main ?? '';
    expect(main).toContain(commentText(100));
    expect(main).toContain('Reply');
  },
);

test('comments are a region of their own: the count, then each comment, without the Reply / Like / Report under it; a page without any has none', async ({
  tether,
  sites,
}) => {
  const cafe = await reference(tether, await open(tether, sites.url('notes', '/reading/post?comments=100')));
  const comments = (await cafe.inspect({ read: ['comments'] })).text?.comments ?? '';
  expect(comments.startsWith('100 comments\n\n')).toBe(true);
  expect(comments).toContain(`dave 2026-11-28 10:01\n${commentText(1)}`);
  expect(comments).toContain(commentText(100));
  for (const words of ['Reply', 'Like', 'Report', 'Post comment']) expect(comments).not.toContain(words);
  for (const line of noteLines) expect(comments).not.toContain(line);

  const notes = await reference(tether, await open(tether, sites.url('notes', '/')));
  expect((await notes.inspect()).readable).not.toContain('comments');
  expect((await notes.inspect({ read: ['comments'] })).unknown).toEqual(['comments']);
});

test('article as markdown keeps the post’s headings and list', async ({ tether, sites }) => {
  const cafe = await reference(tether, await open(tether, sites.url('notes', '/reading/post?comments=20')));
  const markdown = (await cafe.inspect({ read: ['article'], readAs: 'markdown' })).text?.article ?? '';
  expect(markdown.startsWith(`# ${WEEKLY_NOTES.title}\n\n`)).toBe(true);
  expect(markdown).toContain('## Where and when');
  expect(markdown).toMatch(/^- +Tea stall: bring your own cup for a 500 won discount\.$/m);
  expect(markdown).toContain('## 봄 시장 안내');
  for (const words of AROUND_THE_POST) expect(markdown).not.toContain(words);
});

inBothBrowsers(
  'a text longer than the limit says it was cut, and reading on reaches its end exactly: no word or emoji split, Korean and emoji at the cut',
  BOTH,
  async ({ tether }) => {
    const page = await tether.open('notes', '/reading/long');
    const whole = await mainText(page);
    // The page puts an emoji's two halves on either side of the limit.
    expect(whole.length).toBe(LONG_PAGE.length);
    expect(whole.codePointAt(LONG_PAGE.emojiAt)).toBe('🌸'.codePointAt(0));
    const long = await reference(tether, page);

    const first = await long.inspect({ read: ['main'] });
    expect(first.truncated?.main).toEqual({ returned: LONG_PAGE.emojiAt - 3, total: LONG_PAGE.length, next: LONG_PAGE.emojiAt - 3 });
    expect(first.text?.main?.endsWith('a')).toBe(true);

    const pieces = [first.text?.main ?? ''];
    const cuts: number[] = [];
    for (let next = first.truncated?.main?.next; next !== undefined;) {
      cuts.push(next);
      const more = await long.inspect({ read: ['main'], from: { main: next } });
      expect(more.truncated?.main?.from).toBe(next);
      pieces.push(more.text?.main ?? '');
      next = more.truncated?.main?.next;
      if (next === undefined) expect((more.truncated?.main?.from ?? 0) + (more.truncated?.main?.returned ?? 0)).toBe(LONG_PAGE.length);
    }
    expect(pieces.join('')).toBe(whole);
    expect(pieces.length).toBe(3);
    expect(pieces[1]?.startsWith(' 시장🌸장터')).toBe(true);
    for (const cut of cuts) {
      // Every piece ends before a space: no word, Korean or emoji, is cut apart.
      expect(whole.charAt(cut)).toBe(' ');
    }
    // Reading on names a text that read names too.
    refused(await long.ask({ read: ['title'], from: { main: 10 } }), 'invalid_request');
  },
);

test('a site adapter’s regions win: Naver Cafe’s article is its post’s title and body (in #cafe_main, where the reader view cannot see), the demo cafe’s too', async ({
  tether,
  sites,
}) => {
  const naver = await reference(tether, await open(tether, sites.at('cafe.naver.com', '/riverside/1')));
  // The Naver adapters read the post's title as well as its body since the SmartEditor ONE work.
  const seen = await naver.inspect({ read: ['article', 'post.title', 'post.body'] });
  expect(seen.text?.['post.body']).toContain('봄 시장은 토요일 오전 10시에 강변에서 열립니다.');
  expect(seen.text?.['post.title']).toBe('주간 공지: 봄 시장');
  expect(seen.text?.article).toBe(`${seen.text?.['post.title']}\n\n${seen.text?.['post.body']}`);
  expect(seen.fallback).toBeUndefined();

  await tether.signIn('cafe', 'alice_k');
  const demo = await reference(tether, await open(tether, sites.url('cafe', '/posts/1')));
  const post = await demo.inspect({ read: ['article', 'post.title', 'post.body'] });
  expect(post.text?.article).toBe(`${post.text?.['post.title']}\n\n${post.text?.['post.body']}`);
});

test('a document of 120,000 elements answers in time: the reader view declines it and says so, every text that is cut says so', async ({ tether, sites }) => {
  const page = await open(tether, sites.url('notes', '/reading/huge?rows=20000'));
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeGreaterThan(120_000);
  const huge = await reference(tether, page);
  const started = Date.now();
  const seen = await huge.inspect({ read: ['article', 'main'] });
  console.log(`inspect of 120,000 elements, article and main: ${Date.now() - started} ms`);
  expect(seen.fallback?.article).toMatch(
    /^The page has \d+ elements besides its comments, more than the reader view reads \(20000\)\. This is the page's main text/,
  );
  expect(seen.text?.article).toBe(seen.text?.main);
  expect(seen.truncated?.main?.total).toBeGreaterThan(500_000);
  expect(seen.truncated?.article).toEqual(seen.truncated?.main);
  expect(seen.text?.main?.length).toBe(seen.truncated?.main?.returned);
});

test('a page that never stops mutating answers in time with what it read, cut and said', async ({ tether, sites }) => {
  const page = await open(tether, sites.url('notes', '/reading/restless'));
  const restless = await reference(tether, page);
  const mutations = () => page.evaluate(() => (window as unknown as { mutations: number }).mutations);
  const before = await mutations();
  const seen = await restless.inspect({ read: ['main', 'article'] });
  expect(await mutations()).toBeGreaterThan(before);
  expect(seen.text?.main).toContain('the market feed is live.');
  expect(seen.truncated?.main?.total).toBeGreaterThan(50_000);
  expect(seen.truncated?.article?.total).toBeGreaterThan(50_000);
  expect(seen.text?.article?.startsWith('Live feed')).toBe(true);
});

test('where the reader view finds no article, or fails, article is the generic reading of the page’s main text, and the answer says why', async ({
  tether,
  sites,
}) => {
  const notes = await reference(tether, await open(tether, sites.url('notes', '/')));
  const plain = await notes.inspect({ read: ['article', 'main'] });
  expect(plain.fallback?.article).toBe(
    "The reader view (Readability) finds no article on this page. This is the page's main text, read without the reader view.",
  );
  expect(plain.text?.article).toBe(plain.text?.main);

  // The test build's fault hook makes Readability throw on this page.
  const faulty = await reference(tether, await open(tether, sites.url('notes', '/reading/post?comments=3&fault=readability')));
  const failed = await faulty.inspect({ read: ['article', 'main'] });
  expect(failed.fallback?.article).toBe(
    "The reader view (Readability) failed on this page (test fault). This is the page's main text, read without the reader view.",
  );
  expect(failed.text?.article).toBe(failed.text?.main);
  expect(failed.text?.article).toContain(commentText(3));
});
