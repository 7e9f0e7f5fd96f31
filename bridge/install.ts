/**
 * `tether-mcp install` / `uninstall`: puts Tether's native messaging host where the browsers find
 * it, and takes it away again.
 *
 * install copies the compiled host to `~/.tether/host/` (a stable place: npx's cache can be
 * cleaned under it), writes the launcher next to it (absolute paths to this node and that file,
 * the run and config folders baked in), makes sure the pairing token exists, and writes the host
 * manifest (only Tether's extension id may start the host) for every browser it finds — Chrome,
 * Chromium, Edge, Brave and Firefox on Linux and macOS — or the ones named, and for any browser
 * profile folder given. It prints every file it wrote. Firefox's manifest names Tether's add-on id
 * (the same in every Firefox build); `--extension-id` is for Chromium builds.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FIREFOX_ADDON_ID, NATIVE_HOST_NAME, TETHER_EXTENSION_ID } from '../shared/nativeProtocol.ts';
import { configDir, loadConfig } from './config.ts';
import { browserTargets, hostManifest, launcherScript, manifestFile, profileDirTarget, type BrowserTarget } from './hostManifest.ts';
import { ensurePrivateDir, runDirOf, tetherHome } from './runDir.ts';

export interface InstallPlan {
  home: string;
  configDir: string;
  extensionIds: string[];
  targets: BrowserTarget[];
  /** Every browser known here (uninstall looks in all of them), from the same $HOME. */
  known: BrowserTarget[];
  /** Browsers named on the command line that Tether does not know. */
  unknown: string[];
  node: string;
  hostSource: string;
}

const EXTENSION_ID = /^[a-p]{32}$/;

/** The compiled host next to this program (dist-bridge/), or the repository's build when run from source. */
export function compiledHost(): string {
  // Compiled, this code is in a chunk: dist-bridge/chunks/ (scripts/buildBridge.mjs).
  const here = basename(import.meta.dirname) === 'chunks' ? resolve(import.meta.dirname, '..') : import.meta.dirname;
  const candidates = [join(here, 'tether-host.js'), resolve(here, '..', 'dist-bridge', 'tether-host.js')];
  return candidates.find((path) => existsSync(path)) ?? (candidates[0] as string);
}

export function planInstall(argv: string[], env: NodeJS.ProcessEnv = process.env): InstallPlan {
  const { values } = parseArgs({
    args: argv,
    options: {
      browser: { type: 'string', multiple: true },
      'browser-profile-dir': { type: 'string', multiple: true },
      'extension-id': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const extensionIds = values['extension-id'] ?? [TETHER_EXTENSION_ID];
  for (const id of extensionIds)
    if (!EXTENSION_ID.test(id)) throw new Error(`"${id}" is not an extension id (32 letters a–p, as chrome://extensions shows it).`);
  const known = browserTargets({ platform: process.platform, home: homeOf(env), xdgConfigHome: env.XDG_CONFIG_HOME });
  const named = values.browser ?? [];
  const profileDirs = values['browser-profile-dir'] ?? [];
  // Without names, every browser used here; with only profile folders, just those.
  const wanted = named.includes('all')
    ? known
    : named.length > 0
      ? known.filter((target) => named.includes(target.id))
      : profileDirs.length > 0
        ? []
        : known.filter((target) => [target.userDataDir, ...(target.seenAt ?? [])].some((dir) => existsSync(dir)));
  const unknown = named.filter((name) => name !== 'all' && !known.some((target) => target.id === name));
  const targets = [...wanted, ...profileDirs.map((dir) => profileDirTarget(resolve(dir)))];
  return { home: tetherHome(env), configDir: configDir(env), extensionIds, targets, known, unknown, node: process.execPath, hostSource: compiledHost() };
}

/** The browsers find their folders from $HOME, as the person's session sets it. */
function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? userInfo().homedir;
}

function writeAtomically(path: string, text: string, mode: number): void {
  const aside = `${path}.${process.pid}.new`;
  writeFileSync(aside, text, { mode });
  renameSync(aside, path);
}

export function install(plan: InstallPlan, print: (line: string) => void): string[] {
  if (!existsSync(plan.hostSource))
    throw new Error(`The compiled host is missing (${plan.hostSource}); run \`npm run build\` in the repository, or reinstall tether-mcp.`);
  for (const name of plan.unknown)
    print(
      `Unknown browser "${name}" (known: ${browserTargets({ platform: process.platform, home: '' })
        .map((target) => target.id)
        .join(', ')}, all).`,
    );
  const written: string[] = [];
  ensurePrivateDir(plan.home, print);
  const hostDir = join(plan.home, 'host');
  ensurePrivateDir(hostDir, print);
  const hostScript = join(hostDir, 'tether-host.js');
  // The MCP server too, next to the host: an MCP client can start it with node directly, without
  // npx's own start (and without the npx cache, which can be cleaned).
  const serverSource = join(plan.hostSource, '..', 'tether-mcp.js');
  const serverScript = join(hostDir, 'tether-mcp.js');
  const copies: Array<readonly [string, string]> = [[plan.hostSource, hostScript]];
  if (existsSync(serverSource)) {
    // The server loads what its start does not need from chunks/ beside it (scripts/buildBridge.mjs):
    // copied first, so the server never runs without its chunks; earlier builds' chunks go.
    const chunks = join(serverSource, '..', 'chunks');
    const names = existsSync(chunks) ? readdirSync(chunks) : [];
    mkdirSync(join(hostDir, 'chunks'), { recursive: true });
    copies.push(...names.map((name) => [join(chunks, name), join(hostDir, 'chunks', name)] as const), [serverSource, serverScript]);
    for (const stale of readdirSync(join(hostDir, 'chunks'))) if (!names.includes(stale)) rmSync(join(hostDir, 'chunks', stale), { force: true });
  }
  for (const [source, target] of copies) {
    const aside = `${target}.${process.pid}.new`;
    copyFileSync(source, aside);
    renameSync(aside, target);
    if (!target.includes(`${join(hostDir, 'chunks')}/`)) written.push(target);
  }
  const runDir = runDirOf(plan.home);
  ensurePrivateDir(runDir, print);
  // The host proves the same token the bridges hold: make sure it exists before any host starts.
  loadConfig({ TETHER_CONFIG_DIR: plan.configDir }, { warn: print });
  const launcher = join(hostDir, 'tether-host');
  writeAtomically(
    launcher,
    launcherScript({
      node: plan.node,
      hostScript,
      // One launcher serves every browser: an install for Chrome alone must not shut out a Firefox
      // installed before. Each browser starts it only for the callers its own manifest names.
      allow: [...plan.extensionIds.map((id) => `chrome-extension://${id}/`), FIREFOX_ADDON_ID],
      runDir,
      configDir: plan.configDir,
      logFile: join(plan.home, 'host.log'),
    }),
    0o700,
  );
  written.push(launcher);
  for (const target of plan.targets) {
    mkdirSync(target.manifestDir, { recursive: true });
    const file = manifestFile(target);
    const callers = target.family === 'firefox' ? [FIREFOX_ADDON_ID] : plan.extensionIds;
    writeAtomically(file, `${JSON.stringify(hostManifest(target.family, launcher, callers), null, 2)}\n`, 0o644);
    written.push(file);
  }
  for (const path of written) print(`wrote ${path}`);
  if (plan.targets.length === 0) {
    print(
      'No browser found to install the host for (none of Chrome, Chromium, Edge, Brave, Firefox has a profile folder here). Name one with --browser chrome|chromium|edge|brave|firefox|all, or a profile folder with --browser-profile-dir.',
    );
  } else {
    const ids = [
      ...(plan.targets.some((target) => target.family === 'chromium') ? plan.extensionIds : []),
      ...(plan.targets.some((target) => target.family === 'firefox') ? [FIREFOX_ADDON_ID] : []),
    ];
    print(
      `Tether's native host is installed for ${plan.targets.map((target) => target.label).join(', ')} (extension ${ids.join(', ')}). Reload Tether (or restart the browser) and its panel says "connected" once an agent starts \`npx -y tether-mcp\`.`,
    );
  }
  if (existsSync(serverScript)) {
    print(
      `MCP client configuration (fastest start): {"command": ${JSON.stringify(plan.node)}, "args": [${JSON.stringify(serverScript)}]} — or {"command": "npx", "args": ["-y", "tether-mcp"]}.`,
    );
  }
  return written;
}

/** Removes the manifests (only Tether's) from every known browser and the given profile folders, and the installed host. */
export function uninstall(plan: InstallPlan, print: (line: string) => void): string[] {
  const removed: string[] = [];
  const everywhere = [...plan.known, ...plan.targets];
  for (const target of everywhere) {
    const file = manifestFile(target);
    try {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
      if (manifest.name !== NATIVE_HOST_NAME) continue;
    } catch {
      continue;
    }
    rmSync(file, { force: true });
    removed.push(file);
  }
  const hostDir = join(plan.home, 'host');
  for (const name of ['tether-host', 'tether-host.js', 'tether-mcp.js', 'chunks']) {
    const path = join(hostDir, name);
    if (!existsSync(path)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  for (const path of removed) print(`removed ${path}`);
  if (removed.length === 0) print('Nothing to remove: Tether’s native host was not installed here.');
  return removed;
}
