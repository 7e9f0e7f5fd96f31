/**
 * What only Firefox has: Tether's panel as Firefox's sidebar (English and Korean, with Debian's
 * language pack), a discarded tab that keeps its id, and the event page Firefox unloads when it
 * looks idle. Screenshots of the sidebar go to e2e/screenshots/firefox-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, FIREFOX, FIREFOX_WITHOUT_DOCUMENT_IDS, firefoxOnly } from '../fixtures.ts';
import { ok, ran, refused } from '../support/answers.ts';
import { blogScene, inspect } from '../support/blogFlow.ts';
import { FirefoxTether } from '../support/firefox/firefoxTether.ts';
import type { TargetForm } from '../support/firefox/rdp.ts';
import { McpAgent } from '../support/mcpAgent.ts';
import { Middleman } from '../support/middleman.ts';
import { KEEPALIVE_MS } from '../../background/core/connectionMachine.ts';
import { untouched } from '../reliability/untouched.ts';

const SHOTS = join(import.meta.dirname, '..', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** The sidebar's text as a person reads it. */
async function sidebarText(firefox: FirefoxTether, sidebar: TargetForm): Promise<string> {
  return String(await firefox.inPage(sidebar, 'document.body.innerText'));
}

/** Clicks the control with this role and visible name in the sidebar, as a person would. */
async function click(firefox: FirefoxTether, sidebar: TargetForm, role: 'tab' | 'button', name: string): Promise<void> {
  const selector = role === 'tab' ? '[role="tab"]' : 'button';
  const clicked = await firefox.inPage(
    sidebar,
    `(() => { const found = [...document.querySelectorAll(${JSON.stringify(selector)})].find((element) => element.textContent.trim() === ${JSON.stringify(name)}); found?.click(); return Boolean(found); })()`,
  );
  expect(clicked, `a ${role} named “${name}” in the sidebar`).toBe(true);
}

async function shoot(firefox: FirefoxTether, sidebar: TargetForm, name: string): Promise<void> {
  writeFileSync(join(SHOTS, `firefox-${name}.png`), await firefox.screenshot(sidebar));
}

async function spring(firefox: FirefoxTether) {
  await firefox.signIn('blog', 'alice');
  await firefox.signIn('cafe', 'alice_k');
  const blog = await firefox.open('blog', '/write');
  const cafe = await firefox.open('cafe', '/posts/1');
  await firefox.workspaceOf([blog, cafe], { name: 'Blog from cafe', writable: ['blog'] });
  return { blog, cafe };
}

firefoxOnly(
  'the panel is Firefox’s sidebar: the person sees the workspace, the connection, and approves a publish there',
  FIREFOX,
  async ({ firefox, agent, sites }) => {
    await spring(firefox);
    // Firefox opened the sidebar by itself at install, before the profile existed: it shows Tether now.
    const sidebar = await firefox.sidebar();
    await expect.poll(() => sidebarText(firefox, sidebar)).toContain('Workspaces');
    await click(firefox, sidebar, 'tab', 'Workspaces');
    await expect.poll(() => sidebarText(firefox, sidebar)).toMatch(/blog\.localhost:\d+ · signed in as alice · agents may write/);
    expect(await sidebarText(firefox, sidebar)).toMatch(/cafe\.localhost:\d+ · signed in as alice_k · read only/);
    await shoot(firefox, sidebar, 'en-workspaces');

    await agent.pair(firefox);
    await click(firefox, sidebar, 'tab', 'Connection');
    await expect.poll(() => sidebarText(firefox, sidebar)).toMatch(/Connected to the agent server — tether-mcp/);
    expect((await firefox.state()).profile.label).toBe('Firefox profile');
    await shoot(firefox, sidebar, 'en-connection');

    const context = ok(await agent.call('context'));
    const profile = context.profiles[0]?.id;
    const workspace = context.profiles[0]?.workspaces[0]?.id;
    const { write } = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' } }));
    ok(await agent.call('inspect', { profile, workspace, handle: write?.handle }));
    const plan = {
      steps: [
        { op: 'fill', field: 'title', text: 'From the sidebar' },
        { op: 'fill', field: 'body', text: 'Approved in Firefox.' },
        { op: 'click', action: 'publish' },
      ],
    };
    const acting = agent.call('act', { profile, workspace, handle: write?.handle, plan });
    await expect
      .poll(() => sidebarText(firefox, sidebar))
      .toMatch(/On ‘New post — Alice's Blog’ \(blog\.localhost:\d+\) as alice: write \d+ characters into title/);
    await shoot(firefox, sidebar, 'en-approval');
    await click(firefox, sidebar, 'button', 'Approve');
    expect(ran(ok(await acting)).steps.map((step) => step.verified)).toEqual([true, true, true]);
    await expect.poll(() => sites.state.blog.posts.length).toBe(1);
    expect(sites.state.blog.posts[0]).toMatchObject({ title: 'From the sidebar', body: 'Approved in Firefox.' });
  },
);

firefoxOnly('the sidebar in Korean: Firefox with Debian’s Korean language pack', FIREFOX, async ({ sites, firefoxPath }) => {
  sites.reset();
  const firefox = await FirefoxTether.launch(sites, { lang: 'ko', ...(firefoxPath ? { firefox: firefoxPath } : {}) });
  const agent = await McpAgent.start();
  try {
    await spring(firefox);
    const sidebar = await firefox.sidebar();
    expect(await firefox.inPage(sidebar, 'browser.i18n.getUILanguage()')).toMatch(/^ko/);
    await expect.poll(() => sidebarText(firefox, sidebar)).toContain('작업 공간');
    await click(firefox, sidebar, 'tab', '작업 공간');
    await expect.poll(() => sidebarText(firefox, sidebar)).toContain('Blog from cafe');
    expect(await sidebarText(firefox, sidebar)).toContain('에이전트와 공유');
    await shoot(firefox, sidebar, 'ko-workspaces');
    await agent.pair(firefox);
    await click(firefox, sidebar, 'tab', '연결');
    await expect.poll(() => sidebarText(firefox, sidebar)).toContain('에이전트 서버에 연결됨');
    await shoot(firefox, sidebar, 'ko-connection');
  } finally {
    await agent.close();
    await firefox.close();
  }
});

firefoxOnly(
  'a discarded tab keeps its id in Firefox: refused while discarded, and its page when restored is a new one',
  FIREFOX,
  async ({ firefox, sites }) => {
    const scene = await blogScene(firefox);
    await inspect(firefox, scene);
    const watch = await untouched([scene.cafe], sites);
    const tabId = await firefox.tabIdOf(scene.blog);
    await scene.cafe.bringToFront();
    await firefox.inBackground(`browser.tabs.discard(${tabId}).then(() => true)`);
    await expect.poll(() => firefox.inBackground(`browser.tabs.get(${tabId}).then((tab) => tab.discarded)`)).toBe(true);
    const fill = {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      plan: { steps: [{ op: 'fill', field: 'title', text: 'Should not land' }] },
    };
    expect(refused(await firefox.agent('act', fill), 'context_changed').details?.changed).toContain('document');

    // The person comes back to the tab: the same id, a freshly loaded page, still refused.
    await firefox.inBackground(`browser.tabs.update(${tabId}, { active: true }).then(() => true)`);
    await expect.poll(() => firefox.inBackground(`browser.tabs.get(${tabId}).then((tab) => !tab.discarded && tab.status === 'complete')`)).toBe(true);
    expect(refused(await firefox.agent('act', fill), 'context_changed').details?.changed).toContain('document');
    const title = await firefox.inBackground(
      `browser.scripting.executeScript({ target: { tabId: ${tabId} }, func: () => document.querySelector('#post-title')?.value ?? null }).then(([frame]) => JSON.stringify(frame.result))`,
    );
    expect(JSON.parse(String(title))).toBe('');
    await watch.check();
  },
);

firefoxOnly('connected to an agent, the event page stays loaded past Firefox’s idle timeout', FIREFOX, async ({ sites, firefoxPath, agent }) => {
  // Firefox unloads an event page this long after its last extension-API event, open socket or
  // not; the keepalive comes every KEEPALIVE_MS. (Attached debuggers keep it loaded, so the test
  // lets go of its debugger connection once the pairing is made.)
  // Firefox's own default (30 s), set explicitly: 10 s of margin over the keepalive, as users have.
  // (KEEPALIVE_MS + 5 s was tighter than any user's Firefox, and a busy machine's timer drift broke it.)
  const idleMs = 30_000;
  expect(KEEPALIVE_MS).toBeLessThan(idleMs);
  firefoxOnly.setTimeout(4 * idleMs + 60_000);
  sites.reset();
  const firefox = await FirefoxTether.launch(sites, {
    prefs: { 'extensions.background.idle.timeout': idleMs },
    ...(firefoxPath ? { firefox: firefoxPath } : {}),
  });
  const middleman = await Middleman.start(agent.port);
  try {
    await firefox.must({ type: 'connection.set', token: agent.token, port: middleman.port });
    await expect.poll(async () => (await firefox.state()).connection.state, { timeout: 15_000 }).toBe('connected');
    firefox.rdp.close();
    const sealedFromBrowser = () => middleman.frames.filter((frame) => frame.from === 'browser' && frame.binary).length;
    const paired = sealedFromBrowser();
    // Two keepalives on the first connection: it lived past the idle timeout, and was never replaced.
    await expect
      .poll(
        () => {
          const first = middleman.pairs[0];
          if (middleman.pairs.length !== 1 || !first || first.browserClosed !== null) return 'the connection was closed';
          return sealedFromBrowser() - paired;
        },
        { timeout: 3 * idleMs, intervals: [1_000] },
      )
      .toBeGreaterThanOrEqual(2);
    expect(ok(await agent.call('context')).profiles.map((profile) => profile.label)).toEqual(['Firefox profile']);
  } finally {
    await middleman.close();
    await firefox.close();
  }
});

firefoxOnly(
  'no documentIds (Firefox 140): a reload the worker never heard of is refused by the page itself',
  FIREFOX_WITHOUT_DOCUMENT_IDS,
  async ({ firefox, sites }) => {
    const scene = await blogScene(firefox);
    // Selected only for a Firefox older than the first seen to give documentIds; if this one does, say so.
    expect(await firefox.documentIdOf(scene.blog), 'this Firefox gives documentIds: lower FIREFOX_WITH_DOCUMENT_IDS (e2e/tetherBrowsers.ts)').toBeNull();
    await inspect(firefox, scene);
    const watch = await untouched([scene.cafe], sites);
    const tabId = await firefox.tabIdOf(scene.blog);
    const key = `tether.topCommit.${tabId}`;
    const before = await firefox.inBackground(`browser.storage.session.get(${JSON.stringify(key)}).then((items) => JSON.stringify(items))`);
    await scene.blog.reload();
    await scene.blog.waitForFunction(() => 'blogEditor' in window);
    // Put back the key of the bound document, as if the reload's commit had never reached the worker.
    await firefox.inBackground(`browser.storage.session.set(JSON.parse(${JSON.stringify(before)})).then(() => true)`);
    const refusal = refused(
      await firefox.agent('act', {
        profile: scene.profile,
        workspace: scene.workspace,
        handle: scene.write,
        plan: { steps: [{ op: 'fill', field: 'title', text: 'Should not land' }] },
      }),
      'context_changed',
    );
    // The page's own words: its page instance is not the bound one.
    expect(refusal.message).toContain('The page changed since the handle was made');
    expect(refusal.details?.changed).toEqual(['document']);
    expect(await scene.blog.evaluate(() => document.querySelector<HTMLInputElement>('#post-title')?.value)).toBe('');
    await watch.check();
  },
);
