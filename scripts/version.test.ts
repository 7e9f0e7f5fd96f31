/**
 * One version: package.json's. The extension's manifest, Firefox's, the MCP server and the native
 * host take it from there (the manifest at build time, the bridge through esbuild's define); this
 * checks that nothing declares another, and that the builds on disk (where there are any) say the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import sourceManifest from '../manifest.json' with { type: 'json' };
import packageJson from '../package.json' with { type: 'json' };
import packageLock from '../package-lock.json' with { type: 'json' };
import { TETHER_VERSION } from '../bridge/version.ts';
import { extensionManifest } from './extensionManifest.ts';
import { firefoxManifest } from './firefoxManifest.ts';

const root = resolve(import.meta.dirname, '..');
const { version } = packageJson;

describe('the version, set once in package.json', () => {
  it('is a version, and npm’s lock file says the same', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(packageLock.version).toBe(version);
    expect(packageLock.packages[''].version).toBe(version);
  });

  it('is the one the manifests are built with (and every built manifest here says so); manifest.json declares none of its own', () => {
    expect(sourceManifest).not.toHaveProperty('version');
    expect(extensionManifest.version).toBe(version);
    expect(firefoxManifest(extensionManifest).version).toBe(version);
    for (const folder of ['dist', 'dist-test', 'dist-firefox', 'dist-firefox-test']) {
      const built = join(root, folder, 'manifest.json');
      if (existsSync(built)) expect((JSON.parse(readFileSync(built, 'utf8')) as { version?: string }).version, built).toBe(version);
    }
  });

  it('is the one the MCP server and the native host name themselves with (from source, and as built here)', () => {
    expect(TETHER_VERSION).toBe(version);
    // The compiled bridge gets it through esbuild's define, from the same package.json.
    expect(readFileSync(join(root, 'scripts', 'buildBridge.mjs'), 'utf8')).toContain('define: { __TETHER_VERSION__: JSON.stringify(version),');
    // The server's start is split into chunks (dist-bridge/chunks/): the version is in one of them.
    const chunks = join(root, 'dist-bridge', 'chunks');
    const server = [join(root, 'dist-bridge', 'tether-mcp.js'), ...(existsSync(chunks) ? readdirSync(chunks).map((name) => join(chunks, name)) : [])];
    for (const files of [server, [join(root, 'dist-bridge', 'tether-host.js')]]) {
      const built = files.filter((file) => existsSync(file));
      if (built.length > 0) expect(built.map((file) => readFileSync(file, 'utf8')).join('\n'), built[0]).toContain(JSON.stringify(version));
    }
  });
});
