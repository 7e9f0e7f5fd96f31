/**
 * The native path end to end: `tether-mcp install` for a browser profile folder, real Chromium
 * starting the real host through the launcher it wrote, real MCP bridges finding the host's
 * socket. Nothing is pasted. The panel says what is going on; the worker stopped by force, the
 * host killed mid-call, the bridge started before the browser or restarted, and two profiles at
 * once all end in answers, never in a hang.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { FIREFOX_ADDON_ID, TETHER_EXTENSION_ID } from '../shared/native/nativeProtocol.ts';
import type { NativeStatus } from '../shared/extension/uiProtocol.ts';
import { expect, test } from './fixtures.ts';
import { blogFromCafePlan, ok, ran, refused } from './support/answers.ts';
import { launchTether, type LaunchedTether } from './support/launchTether.ts';
import { McpAgent } from './support/mcpAgent.ts';
import { hostLog, hostPids, installFor, nativeSandbox, profileMade, tetherMcp, type NativeSandbox } from './support/nativeSetup.ts';
import { TetherDriver } from './support/tetherDriver.ts';
import type { RunningSites } from './sites/server.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');

// These tests launch their own browsers (the host must be installed before): the sites start clean here.
test.beforeEach(({ sites }) => sites.reset());

interface NativeBrowser {
  launched: LaunchedTether;
  tether: TetherDriver;
  userDataDir: string;
  close(): Promise<void>;
}

async function launchNative(
  sandbox: NativeSandbox,
  sites: RunningSites,
  options: { install?: boolean; lang?: string; installArgs?: string[] } = {},
): Promise<NativeBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
  if (options.install !== false) await installFor(sandbox, userDataDir, options.installArgs);
  const launched = await launchTether({ userDataDir, ...(options.lang ? { lang: options.lang } : {}) });
  const tether = new TetherDriver(launched.context, launched.extensionId, sites);
  await profileMade(tether);
  return {
    launched,
    tether,
    userDataDir,
    async close() {
      await launched.context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The native status; right after launch the worker may still be making its profile (then: starting). */
async function native(tether: TetherDriver): Promise<NativeStatus> {
  const answer = await tether.send({ type: 'state.get' });
  if (!answer.ok) return { state: 'starting', bridges: 0, detail: answer.error.message, since: null, installCommand: '', refused: 0 };
  return answer.value.connection.native;
}

async function openPanel(tether: TetherDriver): Promise<Page> {
  const panel = await tether.context.newPage();
  await panel.setViewportSize({ width: 360, height: 700 });
  await panel.goto(tether.extensionUrl('extension/panel.html'));
  await panel.getByRole('tab', { name: /Connection|연결/ }).click();
  return panel;
}

async function sharedScene(tether: TetherDriver, options: { publishWithoutApproval?: boolean } = {}) {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', '/write?editor=plain');
  const cafe = await tether.open('cafe', '/posts/1');
  await blog.waitForFunction(() => 'blogEditor' in window);
  const workspace = await tether.workspaceOf([blog, cafe], {
    name: 'Native',
    writable: ['blog'],
    publishWithoutApproval: options.publishWithoutApproval ?? false,
  });
  return { blog, cafe, workspace: workspace.id, profile: await tether.profileId() };
}

/** A browser with the host installed, a shared blog-and-cafe workspace, and an agent on the native path. */
async function withNativeScene(
  sites: RunningSites,
  run: (scene: Awaited<ReturnType<typeof sharedScene>> & { sandbox: NativeSandbox; tether: TetherDriver; agent: McpAgent }) => Promise<void>,
): Promise<void> {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agent = await McpAgent.start({ native: sandbox });
  try {
    await run({ ...(await sharedScene(browser.tether)), sandbox, tether: browser.tether, agent });
  } finally {
    await agent.close();
    await browser.close();
  }
}

/** Stops the service worker by force (CDP), as DevTools or a crash would; does not wait for it to stay gone (the keeper restarts it). */
async function forceStopWorker(tether: TetherDriver): Promise<void> {
  const browser = tether.context.browser();
  if (!browser) throw new Error('no browser');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const worker = targetInfos.find((info) => info.type === 'service_worker' && info.url.includes(tether.extensionId));
    if (!worker) throw new Error('the worker is not running');
    await cdp.send('Target.closeTarget', { targetId: worker.targetId });
  } finally {
    await cdp.detach();
  }
}

test('nothing to paste: the panel says waiting, then connected, and an agent completes the blog-from-cafe task through the native host', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agents: McpAgent[] = [];
  try {
    const { tether } = browser;
    // The key in the manifest fixes the id, so the installed manifest names exactly this extension.
    expect(tether.extensionId).toBe(TETHER_EXTENSION_ID);
    await expect.poll(async () => (await native(tether)).state).toBe('connected');
    expect(hostPids(sandbox)).toHaveLength(1);
    const panel = await openPanel(tether);
    await expect(panel.getByRole('status')).toHaveText(/^Waiting for the agent server/);
    await expect(panel.getByText(/Start your agent: its MCP server \(npx -y tether-mcp\) connects by itself/)).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'en-connection-waiting.png'), fullPage: true });

    const scene = await sharedScene(tether, { publishWithoutApproval: true });
    const agent = await McpAgent.start({ native: sandbox });
    agents.push(agent);
    const context = ok(await agent.call('context'));
    expect(context.profiles.map((profile) => profile.id)).toEqual([scene.profile]);
    await expect(panel.getByRole('status')).toHaveText(/^Connected to the agent server/);
    await panel.screenshot({ path: join(SHOTS, 'en-connection-native.png'), fullPage: true });

    const resolved = ok(
      await agent.call('resolve', { profile: scene.profile, workspace: scene.workspace, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }),
    );
    const cafe = ok(
      await agent.call('inspect', {
        profile: scene.profile,
        workspace: scene.workspace,
        handle: resolved.references?.[0]?.handle,
        read: ['post.title', 'post.body'],
      }),
    );
    ok(await agent.call('inspect', { profile: scene.profile, workspace: scene.workspace, handle: resolved.write?.handle }));
    const done = ran(
      ok(
        await agent.call('act', {
          profile: scene.profile,
          workspace: scene.workspace,
          handle: resolved.write?.handle,
          plan: blogFromCafePlan(cafe),
        }),
      ),
    );
    expect(done.steps.map((step) => step.verified)).toEqual([true, true, true]);
    await expect.poll(() => sites.state.blog.posts.length).toBe(1);
    expect(sites.state.blog.posts[0]?.body).toContain('Bring your own cup');

    // A second agent connects alongside; the panel counts both.
    const second = await McpAgent.start({ native: sandbox });
    agents.push(second);
    ok(await second.call('context', { profile: scene.profile }));
    await expect(panel.getByRole('status')).toHaveText(/^Connected to 2 agent servers/);
    // The token pairing was never used: the WebSocket stands by.
    expect((await tether.state()).connection).toMatchObject({ paired: false, state: 'not_paired' });
    await second.close();
    await agent.close();
    await expect(panel.getByRole('status')).toHaveText(/^Waiting for the agent server/);
  } finally {
    for (const agent of agents) await agent.close();
    await browser.close();
  }
});

test('the panel in Korean: host not installed (with the command), installed while the browser runs, waiting, connected', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites, { install: false, lang: 'ko' });
  let agent: McpAgent | null = null;
  try {
    const { tether } = browser;
    await expect.poll(async () => (await native(tether)).state).toBe('not_installed');
    const panel = await openPanel(tether);
    await expect(panel.getByRole('status')).toHaveText('네이티브 호스트가 설치되지 않음');
    await expect(panel.getByLabel('설치 명령')).toHaveText('npx -y tether-mcp install');
    await panel.screenshot({ path: join(SHOTS, 'ko-connection-not-installed.png'), fullPage: true });

    // The person runs the command (here: for this profile folder) and presses “다시 확인”.
    const printed = await installFor(sandbox, browser.userDataDir);
    expect(printed).toContain(join(browser.userDataDir, 'NativeMessagingHosts', 'dev.tether.host.json'));
    await panel.getByRole('button', { name: '다시 확인' }).click();
    await expect(panel.getByRole('status')).toHaveText(/^에이전트 서버를 기다리는 중/);
    await panel.screenshot({ path: join(SHOTS, 'ko-connection-waiting.png'), fullPage: true });
    agent = await McpAgent.start({ native: sandbox });
    ok(await agent.call('context'));
    await expect(panel.getByRole('status')).toHaveText(/^에이전트 서버에 연결됨/);
    await panel.screenshot({ path: join(SHOTS, 'ko-connection-native.png'), fullPage: true });
    await expect(panel.getByText(`포트 ${agent.port}의 에이전트 서버와 직접 연결되어 있습니다`, { exact: false })).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'ko-connection-direct.png'), fullPage: true });
  } finally {
    await agent?.close();
    await browser.close();
  }
});

test('a host installed for another extension id is “forbidden”, and the panel says to install again', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites, { installArgs: ['--extension-id', 'abcdefghijklmnopabcdefghijklmnop'] });
  try {
    await expect.poll(async () => (await native(browser.tether)).state).toBe('forbidden');
    expect((await native(browser.tether)).detail).toBe('Access to the specified native messaging host is forbidden.');
    const panel = await openPanel(browser.tether);
    await expect(panel.getByRole('status')).toHaveText('Native host installed for another copy of Tether');
    await expect(panel.getByLabel('Install command')).toHaveText('npx -y tether-mcp install');
    expect(hostPids(sandbox)).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('the worker stopped by force: the keeper starts it again, and the first call after the stop is answered', async ({ sites }) => {
  await withNativeScene(sites, async (scene) => {
    const { sandbox, tether, agent } = scene;
    ok(await agent.call('context', { profile: scene.profile }));
    for (let round = 0; round < 3; round += 1) {
      const [before] = hostPids(sandbox);
      await forceStopWorker(tether);
      // Straight away, without waiting for anything: the bridge waits for the new host.
      const context = ok(await agent.call('context', { profile: scene.profile }));
      expect(context.profiles[0]?.workspaces.map((workspace) => workspace.id)).toEqual([scene.workspace]);
      const [after] = hostPids(sandbox);
      expect(after, `round ${round}: a new host`).not.toBe(before);
    }
    expect(hostLog(sandbox)).toContain('stopping: the browser closed the port');
  });
});

test('the host killed mid-call: the agent gets browser_not_connected at once, a new host comes up, and the request id tells what became of the act', async ({
  sites,
}) => {
  await withNativeScene(sites, async (scene) => {
    const { sandbox, tether, agent } = scene;
    const { write } = ok(await agent.call('resolve', { profile: scene.profile, workspace: scene.workspace, destination: { site: 'blog' } }));
    ok(await agent.call('inspect', { profile: scene.profile, workspace: scene.workspace, handle: write?.handle }));
    const act = {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: write?.handle,
      requestId: 'killed-host-1',
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Survived' },
          { op: 'click', action: 'publish' },
        ],
      },
    };
    const acting = agent.call('act', act);
    await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
    const [pid] = hostPids(sandbox);
    process.kill(pid ?? 0, 'SIGKILL');
    const lost = refused(await acting, 'browser_not_connected');
    expect(lost.details?.inFlight).toBe(true);
    // The worker starts a new host by itself ("Native host has exited." → restart).
    await expect.poll(() => hostPids(sandbox).filter((other) => other !== pid).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await native(tether)).state).toBe('connected');
    // The act itself lived on in the worker; the person approves it.
    const [approval] = (await tether.state()).approvals;
    await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: true });
    await expect.poll(() => sites.state.blog.posts.length).toBe(1);
    // Asking again with the same request id gives the act's answer; it does not run twice.
    const answer = ran(ok(await agent.call('act', act)));
    expect(answer.steps.map((step) => step.verified)).toEqual([true, true]);
    expect(sites.state.blog.posts).toHaveLength(1);
  });
});

test('bridge first, browser later; then the bridge restarted: refused at once while no browser exists, answered as soon as it does', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const early = await McpAgent.start({ native: sandbox });
  let browser: NativeBrowser | null = null;
  try {
    const started = Date.now();
    const none = refused(await early.call('context'), 'browser_not_connected');
    expect(none.message).toContain('npx -y tether-mcp install');
    expect(Date.now() - started).toBeLessThan(5_000);
    browser = await launchNative(sandbox, sites);
    const profile = await browser.tether.profileId();
    await expect
      .poll(async () => {
        const answer = await early.call('context');
        return answer.ok ? (answer.result as { profiles: Array<{ id: string }> }).profiles.map((one) => one.id) : [];
      })
      .toEqual([profile]);
    await early.close();
    // A new bridge finds the running host from the folder's listing; the browser is not touched.
    const [host] = hostPids(sandbox);
    const again = await McpAgent.start({ native: sandbox });
    try {
      ok(await again.call('context', { profile }));
      expect(hostPids(sandbox)).toEqual([host]);
    } finally {
      await again.close();
    }
  } finally {
    await early.close();
    await browser?.close();
  }
});

test('two browser profiles at once, each with its own host: requests route by profile', async ({ sites }) => {
  const sandbox = nativeSandbox();
  const first = await launchNative(sandbox, sites);
  const second = await launchNative(sandbox, sites);
  const agent = await McpAgent.start({ native: sandbox });
  try {
    await second.tether.must({ type: 'profile.rename', label: 'Bob at home' });
    await second.tether.signIn('blog', 'bob');
    const bobBlog = await second.tether.open('blog', '/write');
    await second.tether.workspaceOf([bobBlog], { name: 'Bob posts', writable: ['blog'] });
    const alice = await sharedScene(first.tether);
    await expect.poll(() => hostPids(sandbox).length).toBe(2);
    await expect
      .poll(async () => {
        const context = await agent.call('context');
        return context.ok ? (context.result as { profiles: Array<{ label: string }> }).profiles.map((profile) => profile.label).sort() : [];
      })
      .toEqual(['Bob at home', 'Chromium profile']);
    const bob = ok(await agent.call('context', { profile: await second.tether.profileId() }));
    const bobResolved = ok(
      await agent.call('resolve', { profile: bob.profiles[0]?.id, workspace: bob.profiles[0]?.workspaces[0]?.id, destination: { site: 'blog' } }),
    );
    expect(bobResolved.write?.account).toBe('bob');
    const aliceResolved = ok(await agent.call('resolve', { profile: alice.profile, workspace: alice.workspace, destination: { site: 'blog' } }));
    expect(aliceResolved.write?.account).toBe('alice');
    refused(await agent.call('resolve', { profile: bob.profiles[0]?.id, workspace: alice.workspace }), 'unknown_scope');
  } finally {
    await agent.close();
    await first.close();
    await second.close();
  }
});

/** Whether an agent's debug answer came over the worker's direct link (no host on its way: no hostMs) or through the host. */
async function wayOf(agent: McpAgent, scene: { profile: string; workspace: string }, handle: string | undefined): Promise<'direct' | 'host'> {
  const answer = await agent.call('inspect', { profile: scene.profile, workspace: scene.workspace, handle, debug: true });
  ok(answer);
  return answer.meta?.hostMs === undefined ? 'direct' : 'host';
}

test('the direct link: the host offers the hub’s port, requests skip the host; another hub takes it over and gives it back; a bridge told not to offers nothing', async ({
  sites,
}) => {
  const sandbox = nativeSandbox();
  const browser = await launchNative(sandbox, sites);
  const agents: McpAgent[] = [];
  try {
    const { tether } = browser;
    await expect.poll(async () => (await native(tether)).state).toBe('connected');
    const scene = await sharedScene(tether);
    const first = await McpAgent.start({ native: sandbox });
    agents.push(first);
    const direct = async () => (await tether.state()).connection.direct;
    await expect.poll(direct).toEqual({ port: first.port, state: 'connected' });
    const handle = ok(await first.call('resolve', { profile: scene.profile, workspace: scene.workspace, destination: { site: 'blog' } })).write?.handle;
    expect(await wayOf(first, scene, handle)).toBe('direct');
    const panel = await openPanel(tether);
    await expect(panel.getByText(`Direct link to the agent server on port ${first.port} (faster).`, { exact: false })).toBeVisible();
    await panel.screenshot({ path: join(SHOTS, 'en-connection-direct.png'), fullPage: true });
    // The pasted-token fallback is not what carries it: it was never paired.
    expect((await tether.state()).connection).toMatchObject({ paired: false, state: 'not_paired' });

    // A second bridge holding a port of its own: the host offers the newest; the first goes through the host meanwhile.
    const second = await McpAgent.start({ native: sandbox });
    agents.push(second);
    await expect.poll(direct).toEqual({ port: second.port, state: 'connected' });
    expect(await wayOf(second, scene, handle)).toBe('direct');
    expect(await wayOf(first, scene, handle)).toBe('host');

    // It goes: the link comes back to the first.
    await second.close();
    await expect.poll(direct).toEqual({ port: first.port, state: 'connected' });
    await expect.poll(() => wayOf(first, scene, handle)).toBe('direct');

    // The only bridge left says not to (TETHER_DIRECT=off): nothing is offered, and every call goes through the host.
    await first.close();
    await expect.poll(direct).toEqual({ port: null, state: 'not_paired' });
    await expect(panel.getByText(/Direct link to the agent server/)).toHaveCount(0);
    const plain = await McpAgent.start({ native: sandbox, env: { TETHER_DIRECT: 'off' } });
    agents.push(plain);
    ok(await plain.call('context', { profile: scene.profile }));
    expect(await direct()).toEqual({ port: null, state: 'not_paired' });
    expect(await wayOf(plain, scene, handle)).toBe('host');
  } finally {
    for (const agent of agents) await agent.close();
    await browser.close();
  }
});

test('install writes what it prints (only Tether’s id, absolute paths), for named browsers too; uninstall removes it', async () => {
  const sandbox = nativeSandbox();
  const fakeHome = mkdtempSync(join(tmpdir(), 'tether-user-'));
  const profileDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
  const installed = await tetherMcp(sandbox, ['install', '--browser', 'chrome', '--browser', 'brave', '--browser-profile-dir', profileDir], {
    HOME: fakeHome,
    XDG_CONFIG_HOME: undefined,
  });
  const manifests = [
    join(fakeHome, '.config', 'google-chrome', 'NativeMessagingHosts', 'dev.tether.host.json'),
    join(fakeHome, '.config', 'BraveSoftware', 'Brave-Browser', 'NativeMessagingHosts', 'dev.tether.host.json'),
    join(profileDir, 'NativeMessagingHosts', 'dev.tether.host.json'),
  ];
  const launcher = join(sandbox.home, 'host', 'tether-host');
  for (const file of [...manifests, launcher, join(sandbox.home, 'host', 'tether-host.js')]) expect(installed.stdout).toContain(`wrote ${file}`);
  for (const file of manifests) {
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      name: 'dev.tether.host',
      description: expect.any(String),
      path: launcher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${TETHER_EXTENSION_ID}/`],
    });
  }
  // The launcher names node and the host by absolute path (the browser's PATH may have no node);
  // it serves every browser's manifest, so it admits Tether's Firefox add-on id too.
  const script = readFileSync(launcher, 'utf8');
  expect(script).toMatch(
    new RegExp(
      `^exec '${process.execPath}' '${join(sandbox.home, 'host', 'tether-host.js')}' --allow 'chrome-extension://${TETHER_EXTENSION_ID}/' --allow '${FIREFOX_ADDON_ID}' --run-dir '${sandbox.runDir}'`,
      'm',
    ),
  );
  expect(statSync(launcher).mode & 0o777).toBe(0o700);
  expect(statSync(join(sandbox.home, 'host')).mode & 0o777).toBe(0o700);
  // Edge, Chromium and Firefox were not named: nothing written for them.
  expect(installed.stdout).not.toContain('microsoft-edge');
  expect(installed.stdout).not.toContain('.mozilla');

  const removed = await tetherMcp(sandbox, ['uninstall', '--browser-profile-dir', profileDir], { HOME: fakeHome });
  for (const file of [...manifests, launcher]) expect(removed.stdout).toContain(`removed ${file}`);
  for (const file of manifests) expect(() => statSync(file)).toThrow();
  // A store build's id replaces the built-in one.
  const store = await tetherMcp(sandbox, ['install', '--browser-profile-dir', profileDir, '--extension-id', 'abcdefghijklmnopabcdefghijklmnop']);
  expect(store.stdout).toContain('abcdefghijklmnopabcdefghijklmnop');
  expect(JSON.parse(readFileSync(manifests[2] ?? '', 'utf8')).allowed_origins).toEqual(['chrome-extension://abcdefghijklmnopabcdefghijklmnop/']);
  await expect(tetherMcp(sandbox, ['install', '--extension-id', 'not-an-id'])).rejects.toThrow(/is not an extension id/);
});
