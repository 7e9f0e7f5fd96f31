/**
 * A local photo's approval in Firefox's sidebar (issue 25, item 5), English and Korean (Debian's
 * language pack): the person sees the thumbnail the worker drew (decoded and drawn small there,
 * an OffscreenCanvas in Firefox's event page), the file's name, where it is, its size, and the
 * site it goes to; approving lets it go in through TinyMCE's upload, declining sends nothing.
 * Screenshots: e2e/screenshots/firefox-{en,ko}-image-approval.png.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, FIREFOX, firefoxOnly } from '../fixtures.ts';
import { ok, ran, refused } from '../support/answers.ts';
import { FirefoxTether } from '../support/firefox/firefoxTether.ts';
import { photoScene } from '../support/photoScene.ts';
import { encodeBase64 } from '../../shared/imageBytes.ts';
import { makePng } from '../../shared/testing/imageFixtures.ts';

const SHOTS = join(import.meta.dirname, '..', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

const WORDS = {
  en: {
    now: 'Now',
    images: 'Images this plan uploads to',
    from: 'A file on this computer:',
    asks: 'Leaves this computer only if you approve',
    answer: 'Approve',
  },
  ko: { now: '지금', images: '이 계획이', from: '이 컴퓨터의 파일:', asks: '승인해야만 이 컴퓨터 밖으로 나갑니다', answer: '거절' },
} as const;

for (const lang of ['en', 'ko'] as const) {
  firefoxOnly(
    `the sidebar (${lang}) shows a local photo before it leaves: thumbnail, name, size, site; the answer decides`,
    FIREFOX,
    async ({ sites, firefoxPath }) => {
      sites.reset();
      const firefox = await FirefoxTether.launch(sites, { lang, ...(firefoxPath ? { firefox: firefoxPath } : {}) });
      try {
        const words = WORDS[lang];
        const scene = await photoScene(firefox);
        const origin = sites.url('notes', '').replace(/\/$/, '');
        const photo = makePng(200, 150, (x, y) => [(x * 3) % 255, (y * 5) % 255, 90]);
        const path = join(mkdtempSync(join(tmpdir(), 'tether-photo-')), 'lake.png');
        writeFileSync(path, photo);
        await firefox.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.handle });
        const acting = scene.act({ steps: [{ op: 'image', field: 'body', source: { file: path, data: encodeBase64(photo) }, alt: 'The lake' }] });
        const sidebar = await firefox.sidebar();
        const text = async () => String(await firefox.inPage(sidebar, 'document.body.innerText'));
        await expect.poll(() => firefox.inPage(sidebar, 'document.readyState')).toBe('complete');
        await firefox.inPage(
          sidebar,
          `[...document.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent.trim() === ${JSON.stringify(words.now)})?.click() ?? false`,
        );
        await expect.poll(text).toContain('lake.png');
        const shown = await text();
        expect(shown).toContain(words.images);
        expect(shown).toContain(`${words.from} ${path}`);
        expect(shown).toMatch(/200 × 150 (pixels|픽셀), \d+(\.\d)? KB/);
        expect(shown).toContain(words.asks);
        expect(shown).toContain(new URL(origin).host);
        // The thumbnail is the image, drawn small (not a broken picture).
        await expect
          .poll(() =>
            firefox.inPage(
              sidebar,
              `(() => { const img = [...document.querySelectorAll('img')].find((img) => img.src.startsWith('data:image/jpeg')); return img && img.complete ? img.naturalWidth : 0; })()`,
            ),
          )
          .toBe(160);
        writeFileSync(join(SHOTS, `firefox-${lang}-image-approval.png`), await firefox.screenshot(sidebar));
        const clicked = await firefox.inPage(
          sidebar,
          `(() => { const found = [...document.querySelectorAll('button')].find((button) => button.textContent.trim() === ${JSON.stringify(words.answer)}); found?.click(); return Boolean(found); })()`,
        );
        expect(clicked).toBe(true);
        if (lang === 'en') {
          expect(ran(ok(await acting)).steps[0]).toMatchObject({ verified: true, kept: ['img'], src: `${origin}/uploads/0.png` });
          expect(Buffer.compare(sites.state.notes.uploads[0]?.bytes ?? Buffer.alloc(0), Buffer.from(photo))).toBe(0);
          expect((await scene.model()).images).toEqual([{ src: `${origin}/uploads/0.png`, alt: 'The lake' }]);
        } else {
          refused(await acting, 'approval_denied');
          expect(sites.state.notes.uploads).toHaveLength(0);
          expect((await scene.model()).images).toEqual([]);
        }
      } finally {
        await firefox.close();
      }
    },
  );
}
