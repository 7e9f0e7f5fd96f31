/**
 * The person's side panel, driven as a person would (by role and accessible name), at side-panel
 * width. Screenshots of each view in English and Korean go to e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { ok, refused } from './support/answers.ts';
import { launchTether } from './support/launchTether.ts';
import { McpAgent } from './support/mcpAgent.ts';
import { TetherDriver } from './support/tetherDriver.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

async function openPanel(tether: TetherDriver): Promise<Page> {
  const panel = await tether.context.newPage();
  await panel.setViewportSize({ width: 360, height: 900 });
  await panel.goto(tether.extensionUrl('extension/panel.html'));
  await expect(panel.getByRole('heading', { name: 'Tether' })).toBeVisible();
  return panel;
}

async function setUpFromPanel(tether: TetherDriver, panel: Page, words: { workspaces: string; create: string; write: string; share: string }) {
  await panel.getByRole('tab', { name: words.workspaces }).click();
  await panel.getByRole('button', { name: words.create }).click();
  const blogHost = new URL(tether.sites.url('blog')).host;
  await panel.getByRole('checkbox', { name: words.write.replace('$1', blogHost) }).check();
  await panel.getByRole('checkbox', { name: words.share }).check();
}

const KO = { workspaces: '작업 공간', create: '이 창의 탭으로 만들기', write: '에이전트가 $1에 쓸 수 있음', share: '에이전트와 공유' };

test('a person sets up and shares a workspace from the panel, pairs an agent, approves a publish, and reads the journal', async ({ tether, sites }) => {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', '/write');
  await tether.open('cafe', '/posts/1');
  const panel = await openPanel(tether);

  // Workspaces: from this window, with the sites and accounts seen on each tab.
  await panel.getByRole('tab', { name: 'Workspaces' }).click();
  await panel.getByRole('textbox', { name: 'Name (optional)' }).fill('Blog from cafe');
  await panel.getByRole('button', { name: 'Create from this window' }).click();
  const card = panel.getByRole('article', { name: 'Blog from cafe' });
  await expect(card).toBeVisible();
  await expect(card.getByText(/blog\.localhost:\d+ · signed in as alice · read only/)).toBeVisible();
  await expect(card.getByText(/cafe\.localhost:\d+ · signed in as alice_k · read only/)).toBeVisible();
  await expect(card.getByText('Not shared: agents cannot see this workspace.')).toBeVisible();
  const blogHost = new URL(sites.url('blog')).host;
  await card.getByRole('checkbox', { name: `Agents may write on ${blogHost}` }).check();
  await card.getByRole('checkbox', { name: 'Share with agents' }).check();
  await expect(card.getByText(/blog\.localhost:\d+ · signed in as alice · agents may write/)).toBeVisible();
  await expect(card.getByRole('checkbox', { name: `Publish on ${blogHost} without asking me` })).not.toBeChecked();
  await panel.screenshot({ path: join(SHOTS, 'en-workspaces.png'), fullPage: true });

  // Connection: paste the pairing token once.
  const agent = await McpAgent.start();
  try {
    await panel.getByRole('tab', { name: 'Connection' }).click();
    await expect(panel.getByRole('status')).toHaveText(/Native host not installed/);
    await expect(panel.getByLabel('Install command')).toHaveText('npx -y tether-mcp install');
    await panel.getByLabel('Pairing token').fill(agent.token);
    await panel.getByLabel('Port').fill(String(agent.port));
    await panel.getByRole('button', { name: 'Pair' }).click();
    await expect(panel.getByRole('status')).toHaveText(/Connected to the agent server — tether-mcp/);
    await panel.screenshot({ path: join(SHOTS, 'en-connection.png'), fullPage: true });

    // Now: an agent request appears with its explanation.
    await panel.getByRole('tab', { name: 'Now' }).click();
    const context = ok(await agent.call('context'));
    const profile = context.profiles[0]?.id;
    const workspace = context.profiles[0]?.workspaces[0]?.id;
    const resolved = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
    await expect(
      panel.getByText(/Writing to ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice · reading ‘Weekly notes: spring market — Riverside Cafe’/),
    ).toBeVisible();

    // Approvals: a publish waits for the person, with a badge on the toolbar icon.
    await agent.call('inspect', { profile, workspace, handle: resolved.write?.handle });
    const acting = agent.call('act', {
      profile,
      workspace,
      handle: resolved.write?.handle,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Market day' },
          { op: 'fill', field: 'body', text: 'See you by the river.' },
          { op: 'click', action: 'publish' },
        ],
      },
    });
    const approvals = panel.getByRole('region', { name: /Waiting for your approval \(1\)/ });
    await expect(approvals).toBeVisible();
    await expect(approvals.getByText(/^On ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice: write 10 characters into title/)).toBeVisible();
    const control = await tether.control();
    expect(await control.evaluate(() => chrome.action.getBadgeText({}))).toBe('1');
    await panel.screenshot({ path: join(SHOTS, 'en-approval.png'), fullPage: true });
    await approvals.getByRole('button', { name: 'Approve' }).click();
    ok(await acting);
    await expect(approvals).toBeHidden();
    expect(await control.evaluate(() => chrome.action.getBadgeText({}))).toBe('');
    await expect.poll(() => sites.state.blog.posts.length).toBe(1);
    await expect(panel.getByText(/On ‘New post — Alice's Blog’ .* press publish\./)).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'en-now.png'), fullPage: true });

    // The journal: a context-change refusal, and its details.
    await expect(blog).toHaveURL(/\/posts\/1$/);
    refused(await agent.call('inspect', { profile, workspace, handle: resolved.write?.handle }), 'context_changed');
    await panel.getByRole('tab', { name: 'Journal' }).click();
    const refusal = panel.getByRole('button', { name: /Read a page · refused: context_changed/ });
    await expect(refusal).toBeVisible();
    await expect(panel.getByRole('button', { name: /Acted · done/ })).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'en-journal.png'), fullPage: true });
    await refusal.click();
    await expect(panel.getByText(/the page was navigated, reloaded or discarded/)).toBeVisible();
    await expect(panel.getByText('context_changed', { exact: true })).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'en-journal-detail.png'), fullPage: true });
    await panel.getByRole('button', { name: 'Back to the journal' }).click();
    await panel.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Blog from cafe' });
    await expect(panel.getByRole('button', { name: /Chose tabs · done/ })).toBeVisible();
  } finally {
    await agent.close();
  }
});

test('the panel is usable by keyboard and every control has an accessible name', async ({ tether }) => {
  await tether.signIn('blog', 'alice');
  await tether.open('blog', '/write');
  const panel = await openPanel(tether);
  await panel.getByRole('tab', { name: 'Now' }).focus();
  await panel.keyboard.press('ArrowRight');
  await expect(panel.getByRole('tab', { name: 'Workspaces' })).toBeFocused();
  await expect(panel.getByRole('tab', { name: 'Workspaces' })).toHaveAttribute('aria-selected', 'true');
  await panel.keyboard.press('Tab');
  await panel.keyboard.type('Keyboard only');
  for (
    let index = 0;
    index < 3 && !(await panel.getByRole('button', { name: 'Create from this window' }).evaluate((element) => element === document.activeElement));
    index += 1
  ) {
    await panel.keyboard.press('Tab');
  }
  await panel.keyboard.press('Enter');
  await expect(panel.getByRole('heading', { name: 'Keyboard only' })).toBeVisible();
  for (const view of ['Now', 'Workspaces', 'Journal', 'Connection']) {
    await panel.getByRole('tab', { name: view }).click();
    const unnamed = await panel.locator('button, input, select, [role="tab"], [role="img"]').evaluateAll((elements) =>
      elements
        .filter((element) => {
          const labelled = element.getAttribute('aria-label') || (element as HTMLInputElement).labels?.[0]?.textContent || element.textContent;
          return !labelled || labelled.trim() === '';
        })
        .map((element) => element.outerHTML.slice(0, 80)),
    );
    expect(unnamed, view).toEqual([]);
  }
});

test('the popup shows the connection and opens the side panel', async ({ tether }) => {
  const popup = await tether.context.newPage();
  await popup.setViewportSize({ width: 360, height: 400 });
  await popup.goto(tether.extensionUrl('extension/popup.html'));
  await expect(popup.getByRole('status')).toHaveText('Native host not installed');
  await expect(popup.getByRole('button', { name: 'Open Tether’s side panel' })).toBeVisible();
  await popup.screenshot({ path: join(SHOTS, 'en-popup.png') });
});

test('the panel in Korean: every view, with the person’s words', async ({ sites }) => {
  const launched = await launchTether({ lang: 'ko' });
  try {
    const tether = new TetherDriver(launched.context, launched.extensionId, sites);
    await tether.signIn('blog', 'alice');
    await tether.signIn('cafe', 'alice_k');
    await tether.open('blog', '/write');
    await tether.open('cafe', '/posts/1');
    const panel = await openPanel(tether);
    await expect(panel.getByRole('tab', { name: '지금' })).toBeVisible();
    await expect(panel.locator('html')).toHaveAttribute('lang', /^ko/);
    await setUpFromPanel(tether, panel, KO);
    await expect(panel.getByText(/blog\.localhost:\d+ · alice 계정으로 로그인 · 쓰기 허용/)).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'ko-workspaces.png'), fullPage: true });

    const profile = await tether.profileId();
    const workspace = (await tether.state()).workspaces[0]?.id ?? '';
    const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { site: '블로그' }, references: [{ site: '카페' }] }));
    await tether.agent('inspect', { profile, workspace, handle: resolved.write?.handle });
    const acting = tether.agent('act', {
      profile,
      workspace,
      handle: resolved.write?.handle,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: '장날' },
          { op: 'click', action: 'publish' },
        ],
      },
    });
    await panel.getByRole('tab', { name: '지금' }).click();
    const approvals = panel.getByRole('region', { name: /승인을 기다리는 요청 \(1\)/ });
    await expect(approvals.getByText(/alice 계정으로: title에 2자 쓰기, publish 누르기\./)).toBeVisible();
    await expect(panel.getByText(/에 alice 계정으로 씁니다 · .*은\(는\) 읽기만 합니다/)).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'ko-now-approval.png'), fullPage: true });
    await approvals.getByRole('button', { name: '거절' }).click();
    refused(await acting, 'approval_denied');
    await panel.getByRole('tab', { name: '기록' }).click();
    await expect(panel.getByRole('button', { name: /실행 · 거절: approval_denied/ })).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'ko-journal.png'), fullPage: true });
    await panel.getByRole('tab', { name: '연결' }).click();
    await expect(panel.getByRole('status')).toHaveText('네이티브 호스트가 설치되지 않음');
    await panel.screenshot({ path: join(SHOTS, 'ko-connection.png'), fullPage: true });
  } finally {
    await launched.context.close();
  }
});

const NOTICE_WORDS = {
  en: {
    press: 'Press post — the button labelled “Post”',
    departures: 'A tab left its workspace',
    left: /^‘Alice's Blog’ left the workspace ‘Market posts’ because it went to another site: from cafe\.localhost:\d+ to blog\.localhost:\d+\.$/,
    addBack: "Add ‘Alice's Blog’ back to ‘Market posts’",
    decline: 'Decline',
  },
  ko: {
    press: 'post 누르기 — “Post”라고 적힌 버튼',
    departures: '작업 공간에서 빠진 탭',
    left: /^‘Alice's Blog’ 탭이 다른 사이트로 이동해서 ‘Market posts’ 작업 공간에서 빠졌습니다: cafe\.localhost:\d+ → blog\.localhost:\d+\.$/,
    addBack: "‘Alice's Blog’을(를) ‘Market posts’에 다시 추가",
    decline: '거절',
  },
} as const;

for (const lang of ['en', 'ko'] as const) {
  test(`the panel (${lang}) names the button an approval presses, and says when a tab left its workspace for another site`, async ({ sites }) => {
    const words = NOTICE_WORDS[lang];
    const launched = await launchTether({ lang });
    try {
      const tether = new TetherDriver(launched.context, launched.extensionId, sites);
      await tether.signIn('notes', 'alice');
      await tether.signIn('cafe', 'alice_k');
      const notes = await tether.open('notes', '/hostile/relabel');
      const cafe = await tether.open('cafe', '/posts/1');
      const workspace = await tether.workspaceOf([notes, cafe], { name: 'Market posts', writable: ['notes'] });
      const profile = await tether.profileId();
      const resolved = ok(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { site: 'notes' } }));
      await tether.agent('inspect', { profile, workspace: workspace.id, handle: resolved.write?.handle });
      const acting = tether.agent('act', {
        profile,
        workspace: workspace.id,
        handle: resolved.write?.handle,
        plan: {
          steps: [
            { op: 'fill', field: 'body', text: 'Market day' },
            { op: 'click', action: 'post' },
          ],
        },
      });
      await cafe.evaluate(
        (url) => {
          location.href = url;
        },
        sites.url('blog', '/'),
      );
      const panel = await openPanel(tether);
      await expect(panel.getByText(words.press)).toBeVisible();
      const notice = panel.getByRole('region', { name: words.departures });
      await expect(notice.getByText(words.left)).toBeVisible();
      await panel.screenshot({ path: join(SHOTS, `${lang}-approval-departure.png`), fullPage: true });
      await notice.getByRole('button', { name: words.addBack }).click();
      await expect(notice).toBeHidden();
      expect((await tether.state()).workspaces[0]?.tabIds).toContain(await tether.tabIdOf(cafe));
      await panel.getByRole('button', { name: words.decline }).click();
      refused(await acting, 'approval_denied');
    } finally {
      await launched.context.close();
    }
  });
}

const SENT_WORDS = {
  en: {
    departures: 'A tab left its workspace',
    left: /^‘New post — Alice's Blog’ left the workspace ‘Market posts’ because it went from cafe\.localhost:\d+ to blog\.localhost:\d+, another of the workspace’s sites\.$/,
    hint: /^A page can send its tab to another site by itself, so agents can no longer read or write this tab\. Add it back only if you took it there: agents may then write on it, as blog\.localhost:\d+ allows\.$/,
    addBack: "Add ‘New post — Alice's Blog’ back to ‘Market posts’",
  },
  ko: {
    departures: '작업 공간에서 빠진 탭',
    left: /^‘New post — Alice's Blog’ 탭이 cafe\.localhost:\d+에서 이 작업 공간의 다른 사이트인 blog\.localhost:\d+\(으\)로 이동해서 ‘Market posts’ 작업 공간에서 빠졌습니다\.$/,
    hint: /^페이지가 스스로 탭을 다른 사이트로 보낼 수 있어서, 이제 에이전트는 이 탭을 읽거나 쓸 수 없습니다\. 직접 이동한 경우에만 다시 추가하세요\. 다시 추가하면 blog\.localhost:\d+에서 허용한 대로 에이전트가 이 탭에 쓸 수 있습니다\.$/,
    addBack: "‘New post — Alice's Blog’을(를) ‘Market posts’에 다시 추가",
  },
} as const;

for (const lang of ['en', 'ko'] as const) {
  test(`the panel (${lang}) says when a page sent its tab to another site of the workspace, and the person may add it back`, async ({ sites }) => {
    const words = SENT_WORDS[lang];
    const launched = await launchTether({ lang });
    try {
      const tether = new TetherDriver(launched.context, launched.extensionId, sites);
      await tether.signIn('blog', 'alice');
      await tether.signIn('cafe', 'alice_k');
      const blog = await tether.open('blog', '/posts/1');
      const cafe = await tether.open('cafe', '/posts/1');
      const workspace = await tether.workspaceOf([blog, cafe], { name: 'Market posts', writable: ['blog'] });
      await cafe.evaluate(
        (url) => {
          location.href = url;
        },
        sites.url('blog', '/write?editor=plain&prefill=1'),
      );
      await cafe.waitForURL(/prefill=1/);
      const panel = await openPanel(tether);
      const notice = panel.getByRole('region', { name: words.departures });
      await expect(notice.getByText(words.left)).toBeVisible();
      await expect(notice.getByText(words.hint)).toBeVisible();
      await panel.screenshot({ path: join(SHOTS, `${lang}-departure-within-workspace.png`), fullPage: true });
      await notice.getByRole('button', { name: words.addBack }).click();
      await expect(notice).toBeHidden();
      expect((await tether.state()).workspaces.find((item) => item.id === workspace.id)?.tabIds).toContain(await tether.tabIdOf(cafe));
    } finally {
      await launched.context.close();
    }
  });
}

const FAILURE_WORDS = {
  en: {
    workspaces: 'Workspaces',
    rename: 'Rename workspace Market posts',
    name: 'Workspace name',
    save: 'Save',
    approvals: /Waiting for your approval \(1\)/,
    approve: 'Approve',
    badName: 'Could not rename the workspace. A name needs 1 to 80 characters, and not only spaces.',
    gone: 'Your answer was not taken. This approval is no longer waiting: its time ran out, or it was already answered.',
  },
  ko: {
    workspaces: '작업 공간',
    rename: '작업 공간 Market posts 이름 바꾸기',
    name: '작업 공간 이름',
    save: '저장',
    approvals: /승인을 기다리는 요청 \(1\)/,
    approve: '승인',
    badName: '작업 공간의 이름을 바꾸지 못했습니다. 이름은 공백만이 아닌 1~80자여야 합니다.',
    gone: '답이 반영되지 않았습니다. 이 승인 요청은 더 이상 기다리고 있지 않습니다: 시간이 지났거나 이미 답했습니다.',
  },
} as const;

for (const lang of ['en', 'ko'] as const) {
  test(`the panel (${lang}) says when an action fails: a name that does not fit, an approval no longer waiting`, async ({ sites }) => {
    const words = FAILURE_WORDS[lang];
    const launched = await launchTether({ lang });
    try {
      const tether = new TetherDriver(launched.context, launched.extensionId, sites);
      await tether.signIn('blog', 'alice');
      const blog = await tether.open('blog', '/write');
      const workspace = await tether.workspaceOf([blog], { name: 'Market posts', writable: ['blog'] });
      const profile = await tether.profileId();
      const resolved = ok(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { site: 'blog' } }));
      await tether.agent('inspect', { profile, workspace: workspace.id, handle: resolved.write?.handle });
      // Waits for the person long past this test; the context's close ends it.
      void tether
        .agent('act', {
          profile,
          workspace: workspace.id,
          handle: resolved.write?.handle,
          approvalTimeoutSeconds: 600,
          plan: {
            steps: [
              { op: 'fill', field: 'title', text: 'Market day' },
              { op: 'click', action: 'publish' },
            ],
          },
        })
        .catch(() => null);
      const panel = await openPanel(tether);
      const approvals = panel.getByRole('region', { name: words.approvals });
      await expect(approvals).toBeVisible();

      // A name of spaces only: the worker refuses it, and the panel says why, in the person's language.
      await panel.getByRole('tab', { name: words.workspaces }).click();
      await panel.getByRole('button', { name: words.rename }).click();
      await panel.getByRole('textbox', { name: words.name }).fill('   ');
      await panel.getByRole('button', { name: words.save, exact: true }).click();
      await expect(panel.getByRole('alert')).toHaveText(words.badName);
      await expect(panel.getByRole('heading', { name: 'Market posts' })).toBeVisible();
      expect((await tether.state()).workspaces[0]?.name).toBe('Market posts');
      await panel.screenshot({ path: join(SHOTS, `${lang}-action-failed-rename.png`), fullPage: true });

      // The approval stops waiting while the panel still shows it (the browser cleared the
      // session, as it may): approving it fails, and the panel says so after the approval is gone.
      const control = await tether.control();
      await control.evaluate(() => chrome.storage.session.clear());
      await expect.poll(async () => (await tether.state()).approvals.length).toBe(0);
      await approvals.getByRole('button', { name: words.approve, exact: true }).click();
      await expect(panel.getByRole('alert')).toHaveText(words.gone);
      await expect(approvals).toBeHidden();
      await expect(panel.getByRole('alert')).toHaveText(words.gone);
      expect(sites.state.blog.posts).toHaveLength(0);
      await panel.screenshot({ path: join(SHOTS, `${lang}-action-failed-approval.png`), fullPage: true });
    } finally {
      await launched.context.close();
    }
  });
}
