/**
 * "Nothing written where it shouldn't be": a snapshot of every field on the pages a scenario must
 * not touch, and of what the sites stored, compared after the scenario.
 */
import { expect } from '@playwright/test';
import type { RunningSites, SiteName } from '../sites/server.ts';
import type { TabPage } from '../support/tetherClient.ts';

export interface PageSnapshot {
  url: string;
  fields: string[];
}

async function snapshot(page: TabPage): Promise<PageSnapshot> {
  const fields = await page.evaluate(() => {
    const values: string[] = [];
    const collect = (doc: Document) => {
      doc.querySelectorAll('input, textarea, select').forEach((element) => values.push((element as HTMLInputElement).value));
      doc.querySelectorAll('[contenteditable="true"], [contenteditable=""]').forEach((element) => values.push((element as HTMLElement).innerText));
      doc.querySelectorAll('iframe').forEach((frame) => {
        try {
          if (frame.contentDocument?.body) values.push(frame.contentDocument.body.innerText);
        } catch {
          // cross-origin
        }
      });
    };
    collect(document);
    return values;
  });
  return { url: page.url(), fields };
}

export interface Untouched {
  check(): Promise<void>;
}

/**
 * Remembers the pages and the sites' stored posts now; `check()` asserts nothing changed since —
 * except posts on the sites the scenario itself publishes to.
 */
export async function untouched(pages: TabPage[], sites: RunningSites, publishesOn: SiteName[] = []): Promise<Untouched> {
  const before = await Promise.all(pages.map(snapshot));
  const count = (site: SiteName) => (publishesOn.includes(site) ? 'not checked' : sites.state[site].posts.length);
  const posts = { blog: count('blog'), cafe: count('cafe'), notes: count('notes') };
  return {
    async check() {
      for (const [index, page] of pages.entries()) {
        if (page.isClosed()) continue;
        expect(await snapshot(page), `page ${index} (${before[index]?.url}) changed`).toEqual(before[index]);
      }
      expect({ blog: count('blog'), cafe: count('cafe'), notes: count('notes') }).toEqual(posts);
    },
  };
}
