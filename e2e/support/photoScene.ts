/**
 * The photos scene of the image specs (issue 25), for either browser: the notes site's editor page
 * of a family, signed in, beside the cafe's post with photos as a reference, in one workspace; what
 * the editor's own model holds, read through the page's editorApi.
 */
import { expect } from '@playwright/test';
import { ok } from './answers.ts';
import type { TabPage, TetherClient } from './tetherClient.ts';

/**
 * Acts once the person's key presses are over: Tether refuses to write while someone types
 * (target_busy) or after they changed the field since it was inspected (field_changed); nothing
 * ran then, so inspecting again and acting again is what an agent does.
 */
export async function actWhenIdle<T extends { ok: boolean; error?: { code: string } }>(
  act: (plan: { steps: unknown[] }) => Promise<T>,
  inspect: () => Promise<unknown>,
  plan: { steps: unknown[] },
): Promise<T> {
  const retry = (answer: T) => !answer.ok && (answer.error?.code === 'target_busy' || answer.error?.code === 'field_changed');
  let answer = await act(plan);
  await expect
    .poll(async () => {
      if (retry(answer)) {
        await inspect();
        answer = await act(plan);
      }
      return retry(answer);
    })
    .toBe(false);
  return answer;
}

export async function photoScene<P extends TabPage>(tether: TetherClient<P>, family = 'tinymce', query = '') {
  await tether.signIn('notes', 'alice');
  await tether.signIn('cafe', 'carol');
  const cafe = await tether.open('cafe', '/photos');
  await cafe.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  const page = await tether.open('notes', `/editor/${family}${query}`);
  await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
  const workspace = (await tether.workspaceOf([page, cafe], { writable: ['notes'] })).id;
  const profile = await tether.profileId();
  const resolved = ok(
    await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' }, references: [{ url: cafe.url() }], continueDraft: true }),
  );
  const handle = resolved.write?.handle ?? '';
  const ref = resolved.references?.[0]?.handle ?? '';
  const act = (plan: { steps: unknown[] }, extra: Record<string, unknown> = {}) => tether.agent('act', { profile, workspace, handle, plan, ...extra });
  const model = () =>
    page.evaluate(async () => {
      const api = (window as unknown as { editorApi: { family: string; html(): string | Promise<string>; text(): string } }).editorApi;
      if (api.family === 'codemirror') {
        // A markdown editor's model is its source (CodeMirror's state.doc): its images are `![alt](url)` there,
        // GitHub's `<img … alt src />` or Discourse's `![name|WxH](upload://…)` (resolved as the site does: window.shortUrls).
        const source = api.text();
        const shortUrls = (window as unknown as { shortUrls?: Record<string, string> }).shortUrls ?? {};
        const markdown = Array.from(source.matchAll(/!\[((?:\\.|[^\\\]\n])*)\]\(([^\s)]*)\)/g), (markup) => {
          const url = markup[2] ?? '';
          const alt = (markup[1] ?? '').replace(/\\(.)/g, '$1');
          const short = url.startsWith('upload://');
          return {
            at: markup.index,
            src: new URL(short ? (shortUrls[url] ?? url) : url, location.href).href,
            alt: short ? alt.replace(/\|\d+x\d+$/, '') : alt,
          };
        });
        const html = Array.from(source.matchAll(/<img width="\d+" height="\d+" alt="([^"]*)" src="([^"]*)" \/>/g), (markup) => ({
          at: markup.index,
          src: new URL(markup[2] ?? '', location.href).href,
          alt: (markup[1] ?? '')
            .replace(/&quot;/g, '"')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&'),
        }));
        const markups = [...markdown, ...html].sort((a, b) => a.at - b.at);
        return { html: source, imageAt: markups[0]?.at ?? -1, images: markups.map(({ src, alt }) => ({ src, alt })) };
      }
      // The editor keeps the address site-relative (TinyMCE's relative_urls): resolved against the page.
      // Editor.js's is its save(), asynchronous.
      const saved = await api.html();
      const body = new DOMParser().parseFromString(saved, 'text/html').body;
      // Quill's getSemanticHTML writes every space as &nbsp;.
      const html = saved.replace(/&nbsp;|\u00a0/g, ' ');
      interface StoreBlock {
        name: string;
        attributes: { url?: string; alt?: string };
        innerBlocks: StoreBlock[];
      }
      const wp = (window as unknown as { wp?: { data: { select(store: string): { getBlocks(): StoreBlock[] } } } }).wp;
      const flat = (blocks: StoreBlock[]): StoreBlock[] => blocks.flatMap((block) => [block, ...flat(block.innerBlocks)]);
      return {
        html,
        imageAt: html.indexOf('<img'),
        // The WordPress block editor's images are its store's core/image blocks (core/block-editor getBlocks), the rest's their HTML's.
        images:
          api.family === 'wordpress-block-editor' && wp
            ? flat(wp.data.select('core/block-editor').getBlocks())
                .filter((block) => block.name === 'core/image')
                .map((block) => ({ src: new URL(block.attributes.url ?? '', location.href).href, alt: block.attributes.alt ?? '' }))
            : Array.from(body.querySelectorAll('img')).map((img) => ({
                src: new URL(img.getAttribute('src') ?? '', location.href).href,
                alt: img.getAttribute('alt') ?? '',
              })),
      };
    });
  return { page, cafe, profile, workspace, handle, ref, act, model };
}
