/**
 * `npm start`: everything Tether needs on one machine, after `npm run build:test` (the product plus
 * the demo sites' adapters):
 *   1. the demo sites (blog, cafe, notes) on http://*.localhost:4173,
 *   2. the bridge's hub on 127.0.0.1:17345 (MCP clients started from the README's config relay to it),
 *   3. Chromium with the built extension and a persistent profile in .tether-profile/, paired with
 *      the bridge, with the blog editor and a cafe post open and signed in.
 * Headed when there is a display, headless otherwise (TETHER_HEADLESS=1 forces it).
 * Ctrl+C stops it all.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BridgeNode } from '../bridge/bridgeNode.ts';
import { loadConfig } from '../bridge/config.ts';
import { startSites } from '../e2e/sites/server.ts';
import { launchTether } from '../e2e/support/launchTether.ts';

const SITES_PORT = Number(process.env.TETHER_SITES_PORT ?? 4173);
const headless = process.env.TETHER_HEADLESS === '1' || !process.env.DISPLAY;

const config = loadConfig();
const sites = await startSites({ port: SITES_PORT });
const bridge = new BridgeNode(config.port, config.token, 'npm start', (line) => console.log(`[bridge] ${line}`));
const role = await bridge.start();

const PROFILE_DIR = resolve('.tether-profile');
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
await pair();
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
  Bridge:      ${role} on 127.0.0.1:${config.port}; pairing token ${config.tokenFile ? `in ${config.tokenFile}` : 'from TETHER_TOKEN'}
  Extension:   ${extensionId} (the test build, unpacked from dist-test/: the product plus the demo sites' adapters), already paired
  Panel:       chrome-extension://${extensionId}/extension/panel.html

Next: in the panel, create a workspace from this window, allow writing on blog.localhost, share it.
Then point an MCP client at \`npx tether-mcp\` (see README) and ask it to write a blog post from the cafe post.
Ctrl+C to stop.`);

async function stop(): Promise<void> {
  await context.close().catch(() => undefined);
  await bridge.stop();
  await sites.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
context.on('close', () => void stop());
