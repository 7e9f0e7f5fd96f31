/**
 * `npm run package`: what a release needs, versioned from package.json (the one place the version
 * is set), in release/:
 *   tether-<version>.zip        the extension (production build), with the manifest `key`: unzip it
 *                               and "Load unpacked" gives Tether its fixed id, the one the native
 *                               host's manifest names by default
 *   tether-<version>-store.zip  the same without `key`, for the Chrome Web Store (which refuses a
 *                               key and gives the extension its own id: install the host with
 *                               `--extension-id <that id>`)
 *   tether-mcp-<version>.tgz    the MCP server and native host as published to npm (plain JS)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { zipSync, type Zippable } from 'fflate';

const root = resolve(import.meta.dirname, '..');
const release = join(root, 'release');
const built = join(release, 'extension');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

rmSync(release, { recursive: true, force: true });
mkdirSync(release, { recursive: true });
execFileSync(npx, ['vite', 'build', '--outDir', built, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });

function filesOf(dir: string): Zippable {
  const files: Zippable = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = [readFileSync(path), { mtime: new Date('2020-01-01T00:00:00Z') }];
    }
  };
  walk(dir);
  return files;
}

const files = filesOf(built);
const manifest = JSON.parse(readFileSync(join(built, 'manifest.json'), 'utf8')) as Record<string, unknown>;
if (manifest.version !== version) throw new Error(`manifest version ${String(manifest.version)} is not package.json's ${version}`);
const { key: _key, ...storeManifest } = manifest;
const written: string[] = [];
const zip = (name: string, contents: Zippable) => {
  const path = join(release, name);
  writeFileSync(path, zipSync(contents, { level: 9 }));
  written.push(path);
};
zip(`tether-${version}.zip`, files);
zip(`tether-${version}-store.zip`, {
  ...files,
  'manifest.json': [new TextEncoder().encode(`${JSON.stringify(storeManifest, null, 2)}\n`), { mtime: new Date('2020-01-01T00:00:00Z') }],
});
rmSync(built, { recursive: true, force: true });

// Compiled here (what `prepack` would do), so npm's JSON on stdout is all there is.
execFileSync(process.execPath, [join(root, 'scripts', 'buildBridge.mjs')], { cwd: root, stdio: 'inherit' });
const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', release], { cwd: root, encoding: 'utf8' })) as Array<{
  filename: string;
}>;
for (const entry of packed) written.push(join(release, entry.filename));
for (const path of written) console.log(`wrote ${relative(root, path)} (${Math.round(statSync(path).size / 1024)} KB)`);
