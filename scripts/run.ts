/**
 * `npm start`: everything Tether needs on one machine, after `npm run build:test` (the product plus
 * the demo sites' adapters):
 *   1. the demo sites (blog, cafe, notes) on http://*.localhost:4173,
 *   2. Tether's native host installed for its own browser profile (.tether-profile/), as
 *      `npx tether-mcp install --browser-profile-dir .tether-profile` does: the host lives in
 *      ~/.tether/host, publishes its socket in ~/.tether/run, and any MCP client's `tether-mcp`
 *      finds it — nothing to paste,
 *   3. Chromium with the built extension and that profile, with the blog editor and a cafe post
 *      open and signed in.
 * If the native host does not come up, it falls back to the token pairing: a bridge hub on
 * 127.0.0.1:17345 and the token pasted in for the person, and says so.
 * Headed when there is a display, headless otherwise (TETHER_HEADLESS=1 forces it).
 * Ctrl+C stops it all.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BridgeNode } from '../bridge/loopback/hubOrRelay.ts';
import { loadConfig } from '../bridge/config.ts';
import { install, planInstall } from '../bridge/install/install.ts';
import { hostChannelFor, isHostEntryName } from '../bridge/native/hostChannel.ts';
import { currentAccount, runDirOf } from '../bridge/runDir.ts';
import { startSites } from '../e2e/sites/server.ts';
import { launchTether } from '../e2e/support/launchTether.ts';

const SITES_PORT = Number(process.env.TETHER_SITES_PORT ?? 4173);
const headless = process.env.TETHER_HEADLESS === '1' || !process.env.DISPLAY;

const config = loadConfig();
const sites = await startSites({ port: SITES_PORT });

const PROFILE_DIR = resolve('.tether-profile');
const plan = planInstall(['--browser-profile-dir', PROFILE_DIR]);
install(plan, (line) => console.log(`[install] ${line}`));
const runDir = runDirOf(plan.home);
const channel = hostChannelFor(process.platform, runDir, currentAccount());
const hostSockets = () => {
  try {
    return readdirSync(runDir).filter((name) => isHostEntryName(channel, name));
  } catch {
    return [];
  }
};
const before = new Set(hostSockets());
// Chrome keeps running its cached copy of an unpacked extension's service worker across restarts,
// even after dist-test/ was rebuilt. The profile's service-worker cache is only a cache: drop it, so
// the worker starts from the build just made (workspaces and pairing live in extension storage).
rmSync(join(PROFILE_DIR, 'Default', 'Service Worker'), { recursive: true, force: true });
const { context, extensionId } = await launchTether({ userDataDir: PROFILE_DIR, headless });

/** What the person does once: paste the pairing token into Tether (retried while the worker starts). */
async function pair(): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const page = await context.newPage();
    try {
      await page.goto(`chrome-extension://${extensionId}/extension/options.html`);
      const answer = (await page.evaluate(
        ({ token, port }) => chrome.runtime.sendMessage({ channel: 'tether.runtime', request: { type: 'connection.set', token, port } }),
        { token: config.token, port: config.port },
      )) as { ok?: boolean; value?: { state?: string } } | undefined;
      await new Promise((done) => setTimeout(done, 500));
      const state = (await page.evaluate(() => chrome.runtime.sendMessage({ channel: 'tether.runtime', request: { type: 'state.get' } }))) as {
        ok?: boolean;
        value?: { connection?: { state?: string } };
      };
      if (answer?.ok && state.value?.connection?.state === 'connected') {
        await page.close();
        return;
      }
    } catch {
      // the extension reloaded under the page; try again
    }
    if (!page.isClosed()) await page.close();
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('The extension did not pair with the bridge.');
}
/** The native host of this browser: a new socket in the run folder (the worker opens the port at start). */
async function nativeSocket(): Promise<string | null> {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const fresh = hostSockets().find((name) => !before.has(name));
    if (fresh) return join(runDir, fresh);
    await new Promise((done) => setTimeout(done, 100));
  }
  return null;
}
const socket = await nativeSocket();
let bridge: BridgeNode | null = null;
let connection: string;
if (socket) {
  connection = `native host on ${socket}: any MCP client's tether-mcp connects by itself, nothing to paste`;
} else {
  // Fallback: the token pairing over the loopback WebSocket, done for the person.
  bridge = new BridgeNode(config.port, config.token, 'npm start', (line) => console.log(`[bridge] ${line}`));
  const role = await bridge.start();
  await pair();
  connection = `the native host did not start (see ${join(plan.home, 'host.log')}); paired by token instead: bridge ${role} on 127.0.0.1:${config.port}, token ${config.tokenFile ? `in ${config.tokenFile}` : 'from TETHER_TOKEN'}`;
}
for (const [site, account, path] of [
  ['blog', 'alice', '/write'],
  ['cafe', 'alice_k', '/posts/1'],
] as const) {
  const page = await context.newPage();
  await page.goto(sites.url(site, `/login?as=${account}&next=${encodeURIComponent(path)}`));
}
const panel = await context.newPage();
await panel.goto(`chrome-extension://${extensionId}/extension/panel.html`);

console.log(`
Tether is running${headless ? ' (headless: no display found)' : ''}.
  Demo sites:  ${sites.url('blog', '/write')}   ${sites.url('cafe', '/posts/1')}   ${sites.url('notes')}
  Connection:  ${connection}
  Extension:   ${extensionId} (the test build, unpacked from dist-test/: the product plus the demo sites' adapters)
  Panel:       chrome-extension://${extensionId}/extension/panel.html

Next: in the panel, create a workspace from this window, allow writing on blog.localhost, share it.
Then point an MCP client at this MCP server (see README), e.g. Claude Code:
  claude mcp add tether -- node ${resolve('dist-bridge', 'tether-mcp.js')}
and ask it to write a blog post from the cafe post.
Ctrl+C to stop.`);

async function stop(): Promise<void> {
  await context.close().catch(() => undefined);
  await bridge?.stop();
  await sites.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
context.on('close', () => void stop());
