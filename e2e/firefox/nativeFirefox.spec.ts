/**
 * The native path in Firefox, as a person sets it up, in a sandbox: `tether-mcp install --browser
 * firefox` with a $HOME of the test's own (Firefox reads `$HOME/.mozilla/native-messaging-hosts/`),
 * a TETHER_HOME and config folder of the test's own (nativeSandbox), then real Firefox starting the
 * real host through the launcher it wrote, with the add-on id as its caller. Nothing is pasted.
 * The sidebar says not installed (with the command naming Firefox), waiting, connected, in English
 * and Korean; an MCP client completes resolve → inspect → act; and the event page outlives
 * Firefox's idle timeout while the native port is open (no keepalive: Firefox exempts an event
 * page with an open native port). Screenshots go to e2e/screenshots/firefox-native-*.png.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIREFOX_ADDON_ID } from '../../shared/native/nativeProtocol.ts';
import { expect, FIREFOX, firefoxOnly } from '../fixtures.ts';
import { blogFromCafePlan, ok, ran } from '../support/answers.ts';
import { FirefoxTether, type FirefoxLaunchOptions } from '../support/firefox/firefoxTether.ts';
import type { TargetForm } from '../support/firefox/rdp.ts';
import { McpAgent } from '../support/mcpAgent.ts';
import { hostLog, hostPids, nativeSandbox, tetherMcp, type NativeSandbox } from '../support/nativeSetup.ts';

const SHOTS = join(import.meta.dirname, '..', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Where Firefox started with this $HOME reads Tether's host manifest. */
const manifestIn = (home: string) => join(home, '.mozilla', 'native-messaging-hosts', 'dev.tether.host.json');

/** What the person runs, in the sandbox: the install for Firefox, for the $HOME Firefox runs with. */
async function installForFirefox(sandbox: NativeSandbox, home: string): Promise<string> {
  return (await tetherMcp(sandbox, ['install', '--browser', 'firefox'], { HOME: home })).stdout;
}

/** One text of the sidebar, read as a person reads it (null when the element is not shown). */
async function sidebarRead(firefox: FirefoxTether, sidebar: TargetForm, selector: string): Promise<string | null> {
  const text = await firefox.inPage(sidebar, `document.querySelector(${JSON.stringify(selector)})?.textContent.trim() ?? null`);
  return typeof text === 'string' ? text : null;
}

async function clickIn(firefox: FirefoxTether, sidebar: TargetForm, selector: string, name: RegExp): Promise<void> {
  const clicked = await firefox.inPage(
    sidebar,
    `(() => { const found = [...document.querySelectorAll(${JSON.stringify(selector)})].find((element) => ${name.toString()}.test(element.textContent.trim())); found?.click(); return Boolean(found); })()`,
  );
  expect(clicked, `${selector} named ${name} in the sidebar`).toBe(true);
}

/** The sidebar on its Connection tab. */
async function connectionTab(firefox: FirefoxTether): Promise<TargetForm> {
  const sidebar = await firefox.sidebar();
  await expect.poll(() => firefox.inPage(sidebar, 'document.querySelectorAll(\'[role="tab"]\').length'), { timeout: 20_000 }).toBeGreaterThan(0);
  await clickIn(firefox, sidebar, '[role="tab"]', /^(Connection|연결)$/);
  return sidebar;
}

async function shoot(firefox: FirefoxTether, sidebar: TargetForm, name: string): Promise<void> {
  writeFileSync(join(SHOTS, `firefox-native-${name}.png`), await firefox.screenshot(sidebar));
}

async function launch(
  sites: Parameters<typeof FirefoxTether.launch>[0],
  firefoxPath: string | undefined,
  options: FirefoxLaunchOptions,
): Promise<FirefoxTether> {
  sites.reset();
  return FirefoxTether.launch(sites, { ...options, ...(firefoxPath ? { firefox: firefoxPath } : {}) });
}

firefoxOnly(
  'the native path in Firefox: not installed (the command names Firefox), installed while it runs, waiting, connected; an agent resolves, inspects and acts with nothing pasted, and the event page outlives the idle timeout',
  FIREFOX,
  async ({ sites, firefoxPath }) => {
    // Firefox unloads an idle event page this long after its last extension-API event (an open
    // WebSocket does not count; an open native port does). Short, so the test can outlive it.
    const idleMs = 4_000;
    firefoxOnly.setTimeout(180_000);
    const sandbox = nativeSandbox();
    const home = mkdtempSync(join(tmpdir(), 'tether-firefox-home-'));
    const firefox = await launch(sites, firefoxPath, { home, prefs: { 'extensions.background.idle.timeout': idleMs } });
    let agent: McpAgent | null = null;
    try {
      // Nothing installed: Firefox says “No such native application”, the sidebar says what to run.
      await expect.poll(async () => (await firefox.state()).connection.native.state, { timeout: 20_000 }).toBe('not_installed');
      expect((await firefox.state()).connection.native.detail).toBe('No such native application dev.tether.host');
      const sidebar = await connectionTab(firefox);
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]')).toBe('Native host not installed');
      expect(await sidebarRead(firefox, sidebar, '[aria-label="Install command"]')).toBe('npx -y tether-mcp install --browser firefox');
      await shoot(firefox, sidebar, 'en-not-installed');

      // The person runs it, and presses Check again.
      const printed = await installForFirefox(sandbox, home);
      expect(printed).toContain(`wrote ${manifestIn(home)}`);
      expect(JSON.parse(readFileSync(manifestIn(home), 'utf8'))).toMatchObject({ name: 'dev.tether.host', allowed_extensions: [FIREFOX_ADDON_ID] });
      await clickIn(firefox, sidebar, 'button', /^Check again$/);
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]'), { timeout: 20_000 }).toMatch(/^Waiting for the agent server/);
      expect(hostPids(sandbox)).toHaveLength(1);
      // Firefox started the host with the manifest's path and the add-on id, which the host admitted.
      expect(hostLog(sandbox)).toContain(`started for ${manifestIn(home)}`);
      await shoot(firefox, sidebar, 'en-waiting');

      await firefox.signIn('blog', 'alice');
      await firefox.signIn('cafe', 'alice_k');
      const blog = await firefox.open('blog', '/write?editor=plain');
      const cafePage = await firefox.open('cafe', '/posts/1');
      await blog.waitForFunction(() => 'blogEditor' in window);
      const workspace = (await firefox.workspaceOf([blog, cafePage], { name: 'Native in Firefox', writable: ['blog'], publishWithoutApproval: true })).id;
      const profile = await firefox.profileId();

      agent = await McpAgent.start({ native: sandbox });
      expect(ok(await agent.call('context')).profiles.map((found) => found.id)).toEqual([profile]);
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]')).toMatch(/^Connected to the agent server/);
      await shoot(firefox, sidebar, 'en-connected');

      const resolved = ok(await agent.call('resolve', { profile, workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
      const cafe = ok(await agent.call('inspect', { profile, workspace, handle: resolved.references?.[0]?.handle, read: ['post.title', 'post.body'] }));
      ok(await agent.call('inspect', { profile, workspace, handle: resolved.write?.handle }));
      const done = ran(
        ok(
          await agent.call('act', {
            profile,
            workspace,
            handle: resolved.write?.handle,
            plan: blogFromCafePlan(cafe),
          }),
        ),
      );
      expect(done.steps.map((step) => step.verified)).toEqual([true, true, true]);
      await expect.poll(() => sites.state.blog.posts.length).toBe(1);
      expect(sites.state.blog.posts[0]?.body).toContain('Bring your own cup');
      // The token pairing was never used: the WebSocket stands by.
      expect((await firefox.state()).connection).toMatchObject({ paired: false, state: 'not_paired' });
      // The host offered the agent server's port: the event page linked to it directly, and reads skip the host.
      await expect.poll(async () => (await firefox.state()).connection.direct).toEqual({ port: agent.port, state: 'connected' });
      // (The cafe post: the blog editor navigated to the published post.)
      const direct = await agent.call('inspect', { profile, workspace, handle: resolved.references?.[0]?.handle, debug: true });
      ok(direct);
      expect(direct.meta?.hostMs).toBe(undefined);

      // Let go of the debugger (attached debuggers keep an event page loaded) and outlive the idle
      // timeout several times over: the same host serves throughout, so the page was never unloaded
      // (unloading it closes the port, and the host exits with it).
      const [pid] = hostPids(sandbox);
      firefox.rdp.close();
      const since = Date.now();
      await expect
        .poll(
          () => {
            if (hostPids(sandbox).join() !== String(pid)) return `the host changed: ${hostPids(sandbox).join() || 'none'}`;
            return Date.now() - since > 3 * idleMs ? 'the same host' : 'waiting';
          },
          { timeout: 6 * idleMs, intervals: [500] },
        )
        .toBe('the same host');
      expect(ok(await agent.call('context')).profiles.map((found) => found.id)).toEqual([profile]);
      expect(ok(await agent.call('inspect', { profile, workspace, handle: resolved.references?.[0]?.handle, read: ['post.title'] })).text).toBeDefined();
      expect(hostLog(sandbox)).not.toContain('the browser closed the port');
    } finally {
      await agent?.close();
      await firefox.close();
    }
  },
);

firefoxOnly(
  'the native path in Firefox in Korean: not installed with the command, then after the install waiting and connected',
  FIREFOX,
  async ({ sites, firefoxPath }) => {
    firefoxOnly.setTimeout(150_000);
    const sandbox = nativeSandbox();
    const home = mkdtempSync(join(tmpdir(), 'tether-firefox-home-'));
    let firefox = await launch(sites, firefoxPath, { home, lang: 'ko' });
    let agent: McpAgent | null = null;
    try {
      await expect.poll(async () => (await firefox.state()).connection.native.state, { timeout: 20_000 }).toBe('not_installed');
      let sidebar = await connectionTab(firefox);
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]')).toBe('네이티브 호스트가 설치되지 않음');
      expect(await sidebarRead(firefox, sidebar, '[aria-label="설치 명령"]')).toBe('npx -y tether-mcp install --browser firefox');
      await shoot(firefox, sidebar, 'ko-not-installed');
      await firefox.close();

      // Installed before Firefox starts: the event page opens the port at its start.
      expect(await installForFirefox(sandbox, home)).toContain(`wrote ${manifestIn(home)}`);
      firefox = await launch(sites, firefoxPath, { home, lang: 'ko' });
      sidebar = await connectionTab(firefox);
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]'), { timeout: 20_000 }).toMatch(/^에이전트 서버를 기다리는 중/);
      expect(await sidebarRead(firefox, sidebar, '[aria-label="설치 명령"]')).toBeNull();
      await shoot(firefox, sidebar, 'ko-waiting');
      agent = await McpAgent.start({ native: sandbox });
      ok(await agent.call('context'));
      await expect.poll(() => sidebarRead(firefox, sidebar, '[role="status"]')).toMatch(/^에이전트 서버에 연결됨/);
      await shoot(firefox, sidebar, 'ko-connected');
    } finally {
      await agent?.close();
      await firefox.close();
    }
  },
);

firefoxOnly(
  'Firefox’s host manifest for another add-on id: Firefox never starts the host, and the sidebar says to install',
  FIREFOX,
  async ({ sites, firefoxPath }) => {
    const sandbox = nativeSandbox();
    const home = mkdtempSync(join(tmpdir(), 'tether-firefox-home-'));
    await installForFirefox(sandbox, home);
    const manifest = JSON.parse(readFileSync(manifestIn(home), 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestIn(home), JSON.stringify({ ...manifest, allowed_extensions: ['someone-else@example.org'] }));
    const firefox = await launch(sites, firefoxPath, { home });
    try {
      await expect.poll(async () => (await firefox.state()).connection.native.state, { timeout: 20_000 }).toBe('not_installed');
      expect((await firefox.state()).connection.native.installCommand).toBe('npx -y tether-mcp install --browser firefox');
      expect(hostPids(sandbox)).toEqual([]);
      expect(existsSync(join(sandbox.home, 'host.log')) ? hostLog(sandbox) : '').not.toContain('started for');
    } finally {
      await firefox.close();
    }
  },
);
