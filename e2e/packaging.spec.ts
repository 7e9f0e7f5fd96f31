/**
 * Tether as someone who never cloned the repository gets it: the npm package (packed, installed
 * from the tarball into an empty folder, no network) runs the MCP server and installs a native
 * host that a real Chromium starts; `npm run package` writes versioned, store-ready zips.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { unzipSync } from 'fflate';
import { TETHER_EXTENSION_ID } from '../shared/native/nativeProtocol.ts';
import type { Envelope } from '../shared/agent/agentProtocol.ts';
import { expect, test } from './fixtures.ts';
import { freePort } from './support/hubProcess.ts';
import { launchTether } from './support/launchTether.ts';
import { hostSockets, nativeSandbox } from './support/nativeSetup.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };

test('the npm package, installed from its tarball into an empty folder, serves MCP and installs a host the browser starts', async () => {
  test.setTimeout(180_000);
  const packs = mkdtempSync(join(tmpdir(), 'tether-pack-'));
  // dist-bridge/ is what `npm run build` (and `prepack`) compiled.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs], { cwd: REPO, encoding: 'utf8' });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  expect(packed?.filename).toBe(`tether-mcp-${version}.tgz`);
  // Compiled JavaScript only: no TypeScript, no tsx, no tests.
  // The server's chunks (scripts/buildBridge.mjs): exactly the ones this build wrote.
  const chunks = readdirSync(join(REPO, 'dist-bridge', 'chunks')).map((name) => `dist-bridge/chunks/${name}`);
  expect(chunks.length).toBeGreaterThan(0);
  // The extension's product build (the testing kit launches it) and the kit itself (`npm run
  // build:testing`, which `npm pack` runs as prepack; `npm test` builds it before this suite).
  const extension = readdirSync(join(REPO, 'dist'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(REPO, join(entry.parentPath, entry.name)));
  expect(extension).toContain('dist/manifest.json');
  expect(packed?.files.map((file) => file.path).sort()).toEqual(
    [
      'README.md',
      'dist-bridge/tether-host.js',
      'dist-bridge/tether-mcp.js',
      ...chunks,
      ...extension,
      'dist-testing/index.d.ts',
      'dist-testing/index.js',
      'package.json',
    ].sort(),
  );
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    private?: boolean;
    bin: Record<string, string>;
  };
  expect(manifest.dependencies ?? {}).toEqual({});
  expect(manifest.private).toBeUndefined();
  expect(manifest.bin).toEqual({ 'tether-mcp': 'dist-bridge/tether-mcp.js' });

  const folder = mkdtempSync(join(tmpdir(), 'tether-fresh-'));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packs, packed?.filename ?? '')], { cwd: folder, encoding: 'utf8' });
  const sandbox = nativeSandbox();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(sandbox.env)) if (value !== undefined) env[key] = value;
  env.TETHER_PORT = String(await freePort());

  // The person's MCP client runs `npx tether-mcp` from there.
  const client = new Client({ name: 'packaging-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: 'npx', args: ['--offline', 'tether-mcp'], cwd: folder, env, stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['context', 'resolve', 'inspect', 'act']);
    expect(client.getServerVersion()).toMatchObject({ name: 'tether', version });

    // `npx tether-mcp install` from the installed package: a real Chromium starts that host.
    const userDataDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
    const installed = await run('npx', ['--offline', 'tether-mcp', 'install', '--browser-profile-dir', userDataDir], { cwd: folder, env, encoding: 'utf8' });
    expect(installed.stdout).toContain(`wrote ${join(sandbox.home, 'host', 'tether-host.js')}`);
    expect(readFileSync(join(sandbox.home, 'host', 'tether-host.js'), 'utf8')).toBe(
      readFileSync(join(folder, 'node_modules', 'tether-mcp', 'dist-bridge', 'tether-host.js'), 'utf8'),
    );
    // Removing the package (npx's cache can be cleaned) does not break the installed host.
    rmSync(join(folder, 'node_modules', 'tether-mcp', 'dist-bridge', 'tether-host.js'));
    const launched = await launchTether({ userDataDir });
    try {
      expect(launched.extensionId).toBe(TETHER_EXTENSION_ID);
      await expect.poll(() => hostSockets(sandbox).length, { timeout: 20_000 }).toBe(1);
      await expect
        .poll(async () => {
          const result = await client.callTool({ name: 'context', arguments: {} });
          return (result.structuredContent as Envelope).ok;
        })
        .toBe(true);
      // The copy of the server install put beside the host (with its chunks) serves on its own.
      const copied = new Client({ name: 'packaging-test-copied', version: '1.0.0' });
      await copied.connect(
        new StdioClientTransport({ command: process.execPath, args: [join(sandbox.home, 'host', 'tether-mcp.js')], cwd: tmpdir(), env, stderr: 'ignore' }),
      );
      try {
        const result = await copied.callTool({ name: 'context', arguments: {} });
        expect((result.structuredContent as Envelope).ok).toBe(true);
      } finally {
        await copied.close();
      }
    } finally {
      await launched.context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    }
  } finally {
    await client.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('npm run package writes versioned zips of the extension (one store-ready, without a key) and the npm tarball', async () => {
  test.setTimeout(300_000);
  const { stdout } = await run('npm', ['run', 'package'], { cwd: REPO, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  for (const name of [`tether-${version}.zip`, `tether-${version}-store.zip`, `tether-mcp-${version}.tgz`]) expect(stdout).toContain(`wrote release/${name}`);
  const read = (name: string) => unzipSync(new Uint8Array(readFileSync(join(REPO, 'release', name))));
  const unpacked = read(`tether-${version}.zip`);
  const store = read(`tether-${version}-store.zip`);
  const manifestOf = (files: Record<string, Uint8Array>) => JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Record<string, unknown>;
  expect(manifestOf(unpacked)).toMatchObject({ version, key: expect.any(String) });
  expect(manifestOf(store).version).toBe(version);
  expect(manifestOf(store)).not.toHaveProperty('key');
  expect(Object.keys(store).sort()).toEqual(Object.keys(unpacked).sort());
  for (const needed of ['content.js', 'service-worker-loader.js', 'extension/panel.html', 'extension/keeper.html', '_locales/ko/messages.json'])
    expect(Object.keys(unpacked)).toContain(needed);
  expect(Object.keys(unpacked).some((path) => path.endsWith('.map') || path.endsWith('.ts'))).toBe(false);
});
