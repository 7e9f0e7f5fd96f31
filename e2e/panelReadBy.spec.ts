/**
 * The Now view tells the person which of Tether's readers read the page they are looking at: a
 * site's adapter, or the generic page model (and that the site's adapter did not match). In
 * English and Korean, with screenshots in e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { launchTether } from './support/launchTether.ts';
import { TetherDriver } from './support/tetherDriver.ts';
import { HOST_RULES } from './sites/siteFixtures.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

const WORDS = {
  en: {
    now: 'Now',
    view: 'Your view',
    naver: 'Read by Tether’s Naver Blog adapter.',
    fallback: 'Read by Tether’s generic page model: this site’s adapter did not match the page.',
  },
  ko: {
    now: '지금',
    view: '보고 있는 탭',
    naver: 'Tether의 네이버 블로그 어댑터가 읽었습니다.',
    fallback: 'Tether의 일반 페이지 모델이 읽었습니다: 이 사이트의 어댑터가 페이지와 맞지 않았습니다.',
  },
} as const;

/** The panel in one window; the page the person looks at in another, focused one. */
async function showReadBy(tether: TetherDriver, lang: keyof typeof WORDS): Promise<void> {
  const words = WORDS[lang];
  const signIn = await tether.context.newPage();
  await signIn.goto(tether.sites.at('blog.naver.com', '/nidlogin?as=alice_nv&next=/'));
  await signIn.close();
  const panel: Page = await tether.context.newPage();
  await panel.setViewportSize({ width: 360, height: 700 });
  await panel.goto(tether.extensionUrl('extension/panel.html'));
  await panel.getByRole('tab', { name: words.now }).click();

  const control = await tether.control();
  const windowId = await control.evaluate(
    async (url) => (await chrome.windows.create({ url, focused: true }))?.id ?? -1,
    tether.sites.at('blog.naver.com', '/alice_nv?Redirect=Write'),
  );
  const view = panel.getByRole('region', { name: words.view });
  await expect(view.getByText(words.naver)).toBeVisible();
  await panel.screenshot({ path: join(SHOTS, `${lang}-now-read-by-adapter.png`), fullPage: true });

  await control.evaluate(
    async ({ id, url }) => {
      const [tab] = await chrome.tabs.query({ windowId: id });
      if (tab?.id !== undefined) await chrome.tabs.update(tab.id, { url });
    },
    { id: windowId, url: tether.sites.url('blog', '/studio/new') },
  );
  await expect(view.getByText(words.fallback)).toBeVisible();
  await expect(view.getByText(/The test-blog adapter \(checked 2026-11-30\) found none of its fields/)).toBeVisible();
  await panel.screenshot({ path: join(SHOTS, `${lang}-now-read-by-generic.png`), fullPage: true });
}

test('Now says which adapter read the page in view, or that the generic model read it because the adapter did not match', async ({ tether }) => {
  await showReadBy(tether, 'en');
});

test('the same in Korean', async ({ sites }) => {
  const launched = await launchTether({ lang: 'ko', args: [HOST_RULES] });
  try {
    await showReadBy(new TetherDriver(launched.context, launched.extensionId, sites), 'ko');
  } finally {
    await launched.context.close();
  }
});
