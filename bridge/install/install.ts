/**
 * `tether-mcp install` / `uninstall`: puts Tether's native messaging host where the browsers find
 * it, and takes it away again.
 *
 * The plan is a pure function of (the command line, the platform, the environment, the account's
 * folders, which browser folders exist): planInstallFor returns every folder, file, copy and
 * command it will make, and install / uninstall carry it out, printing each as it is done
 * (`--dry-run` prints the plan and does nothing). Its tests give it the platform (win32, linux,
 * darwin) and a made-up account.
 *
 * install copies the compiled host (and the MCP server with its chunks) to `<Tether's home>/host/`
 * (Linux, macOS `~/.tether`; Windows `%LOCALAPPDATA%\Tether`: a stable place, npx's cache can be
 * cleaned under it), writes the launcher next to it (a shell script, or `tether-host.cmd` on
 * Windows, naming this node and that file, the run and config folders baked in), makes sure the
 * pairing token exists, and writes the host manifest (only Tether's extension id may start the
 * host) for every browser it finds — Chrome, Chromium, Edge, Brave and Firefox — or the ones
 * named, and for any browser profile folder given (Linux, macOS). On Windows each manifest is
 * registered with `reg.exe add HKCU\…\NativeMessagingHosts\dev.tether.host`, and a Tether folder
 * outside the user's profile is narrowed with icacls. Firefox's manifest names Tether's add-on id
 * (the same in every Firefox build); `--extension-id` is for Chromium builds.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join as hereJoin, resolve as hereResolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FIREFOX_ADDON_ID, NATIVE_HOST_NAME, TETHER_EXTENSION_ID } from '../../shared/native/nativeProtocol.ts';
import { configDirOf, loadConfig } from '../config.ts';
import { browserTargets, hostManifest, launcherScript, profileDirTarget, windowsLauncher, type BrowserTarget } from './hostManifest.ts';
import { currentAccount, ensurePrivateDir, folderProtection, isInside, pathFor, runDirOf, systemTool, tetherHomeOf, type Account } from '../runDir.ts';

export interface InstallInputs {
  argv: string[];
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  account: Account;
  /** The node that runs the host (this one). */
  node: string;
  /** The compiled host. */
  hostSource: string;
  /** What is beside the compiled host: the MCP server, and its chunks' names. */
  bundle: { server: boolean; chunks: string[] };
  /** Whether a folder exists (which browsers are used here). */
  exists: (path: string) => boolean;
}

export type InstallStep =
  /** A folder; `private`: the user's alone (ensurePrivateDir). */
  | { kind: 'folder'; path: string; private: boolean }
  /** Removes what `dir` holds besides `keep` (an earlier build's chunks). */
  | { kind: 'prune'; dir: string; keep: string[] }
  | { kind: 'copy'; from: string; to: string; quiet: boolean }
  /** Makes sure the pairing token exists there. */
  | { kind: 'token'; configDir: string }
  | { kind: 'file'; path: string; text: string; mode: number }
  /** A program of Windows (reg.exe, icacls.exe), which must succeed. */
  | { kind: 'run'; command: string[] };

export type UninstallStep =
  /** Removed only if it is Tether's manifest (its name says dev.tether.host). */
  | { kind: 'remove-manifest'; path: string }
  | { kind: 'remove'; path: string }
  /** Deleted (`remove`) when `query` finds it. */
  | { kind: 'unregister'; key: string; query: string[]; remove: string[] };

export interface InstallPlan {
  platform: NodeJS.Platform;
  home: string;
  configDir: string;
  extensionIds: string[];
  targets: BrowserTarget[];
  /** Every browser known here (uninstall looks in all of them). */
  known: BrowserTarget[];
  /** Browsers named on the command line that Tether does not know. */
  unknown: string[];
  node: string;
  hostSource: string;
  launcher: string;
  /** The MCP server's installed copy, when the bundle has one. */
  serverScript: string | null;
  dryRun: boolean;
  steps: InstallStep[];
  uninstall: UninstallStep[];
}

const EXTENSION_ID = /^[a-p]{32}$/;

/** The compiled host next to this program (dist-bridge/), or the repository's build when run from source. */
export function compiledHost(): string {
  // Compiled, this code is in a chunk: dist-bridge/chunks/ (scripts/buildBridge.mjs).
  const here = basename(import.meta.dirname) === 'chunks' ? hereResolve(import.meta.dirname, '..') : import.meta.dirname;
  const candidates = [hereJoin(here, 'tether-host.js'), hereResolve(here, '..', '..', 'dist-bridge', 'tether-host.js')];
  return candidates.find((path) => existsSync(path)) ?? (candidates[0] as string);
}

/** The MCP server and its chunks beside a compiled host, as the build left them. */
function bundleBeside(hostSource: string): InstallInputs['bundle'] {
  const server = hereJoin(hostSource, '..', 'tether-mcp.js');
  const chunks = hereJoin(hostSource, '..', 'chunks');
  return { server: existsSync(server), chunks: existsSync(server) && existsSync(chunks) ? readdirSync(chunks) : [] };
}

/**
 * This node, as the launcher should name it. fnm puts node in a folder per shell
 * (`fnm_multishells/<id>/`) that goes when the shell closes: its real path lasts.
 */
function thisNode(): string {
  if (!/fnm_multishells/i.test(process.execPath)) return process.execPath;
  try {
    return realpathSync.native(process.execPath);
  } catch {
    return process.execPath;
  }
}

/** The plan for this process: its platform, account, node and compiled host (overridable in tests). */
export function planInstall(argv: string[], env: NodeJS.ProcessEnv = process.env, overrides: Partial<InstallInputs> = {}): InstallPlan {
  const hostSource = overrides.hostSource ?? compiledHost();
  return planInstallFor({
    argv,
    platform: process.platform,
    env,
    account: currentAccount(),
    node: thisNode(),
    hostSource,
    bundle: bundleBeside(hostSource),
    exists: existsSync,
    ...overrides,
  });
}

/** What install and uninstall will do, from their inputs alone. */
export function planInstallFor(inputs: InstallInputs): InstallPlan {
  const { platform, env, account } = inputs;
  const paths = pathFor(platform);
  const windows = platform === 'win32';
  const { values } = parseArgs({
    args: inputs.argv,
    options: {
      browser: { type: 'string', multiple: true },
      'browser-profile-dir': { type: 'string', multiple: true },
      'extension-id': { type: 'string', multiple: true },
      'dry-run': { type: 'boolean' },
    },
    strict: true,
  });
  const extensionIds = values['extension-id'] ?? [TETHER_EXTENSION_ID];
  for (const id of extensionIds)
    if (!EXTENSION_ID.test(id)) throw new Error(`"${id}" is not an extension id (32 letters a–p, as chrome://extensions shows it).`);
  const profileDirs = values['browser-profile-dir'] ?? [];
  if (windows && profileDirs.length > 0)
    throw new Error(
      'On Windows, browsers find host manifests through the registry (HKCU), one key for every profile and every --user-data-dir: --browser-profile-dir is for Linux and macOS. Name the browser instead: --browser chrome|chromium|edge|brave|firefox|all.',
    );
  const home = tetherHomeOf(platform, env, account.home);
  const configDir = configDirOf(platform, env, account.home);
  // Linux and macOS browsers find their folders from $HOME, as the person's session sets it.
  const browserHome = windows ? account.home : (env.HOME ?? account.home);
  const known = browserTargets({ platform, home: browserHome, xdgConfigHome: env.XDG_CONFIG_HOME, tetherHome: home });
  const named = values.browser ?? [];
  // Without names, every browser used here; with only profile folders, just those.
  const wanted = named.includes('all')
    ? known
    : named.length > 0
      ? known.filter((target) => named.includes(target.id))
      : profileDirs.length > 0
        ? []
        : known.filter((target) => [target.userDataDir, ...(target.seenAt ?? [])].some((dir) => inputs.exists(dir)));
  const unknown = named.filter((name) => name !== 'all' && !known.some((target) => target.id === name));
  const targets = [...wanted, ...profileDirs.map((dir) => profileDirTarget(paths.resolve(dir), platform))];

  const hostDir = paths.join(home, 'host');
  const hostScript = paths.join(hostDir, 'tether-host.js');
  const runDir = runDirOf(home, platform);
  const launcher = paths.join(hostDir, windows ? 'tether-host.cmd' : 'tether-host');
  const serverScript = inputs.bundle.server ? paths.join(hostDir, 'tether-mcp.js') : null;
  const sourceDir = paths.dirname(inputs.hostSource);
  const steps: InstallStep[] = [{ kind: 'folder', path: home, private: true }];
  const homeProtection = folderProtection(platform, home, account, env);
  if (homeProtection.kind === 'restrict') steps.push({ kind: 'run', command: homeProtection.command });
  steps.push({ kind: 'folder', path: hostDir, private: true });
  if (serverScript) {
    // The server loads what its start does not need from chunks/ beside it (scripts/buildBridge.mjs):
    // copied before the server, so the server never runs without its chunks; earlier builds' go.
    const chunks = paths.join(hostDir, 'chunks');
    steps.push({ kind: 'folder', path: chunks, private: false }, { kind: 'prune', dir: chunks, keep: inputs.bundle.chunks });
    steps.push({ kind: 'copy', from: inputs.hostSource, to: hostScript, quiet: false });
    for (const name of inputs.bundle.chunks)
      steps.push({ kind: 'copy', from: paths.join(sourceDir, 'chunks', name), to: paths.join(chunks, name), quiet: true });
    steps.push({ kind: 'copy', from: paths.join(sourceDir, 'tether-mcp.js'), to: serverScript, quiet: false });
  } else {
    steps.push({ kind: 'copy', from: inputs.hostSource, to: hostScript, quiet: false });
  }
  steps.push({ kind: 'folder', path: runDir, private: true });
  // The host proves the same token the bridges hold: make sure it exists before any host starts.
  const configProtection = folderProtection(platform, configDir, account, env);
  // (Inside Tether's home, it inherits what icacls gave the home.)
  if (configProtection.kind === 'restrict' && !isInside(platform, configDir, home))
    steps.push({ kind: 'folder', path: configDir, private: true }, { kind: 'run', command: configProtection.command });
  steps.push({ kind: 'token', configDir });
  const spec = {
    node: inputs.node,
    hostScript,
    // One launcher serves every browser: an install for Chrome alone must not shut out a Firefox
    // installed before. Each browser starts it only for the callers its own manifest names.
    allow: [...extensionIds.map((id) => `chrome-extension://${id}/`), FIREFOX_ADDON_ID],
    runDir,
    configDir,
    logFile: paths.join(home, 'host.log'),
  };
  steps.push({ kind: 'file', path: launcher, text: windows ? windowsLauncher(spec, hostDir) : launcherScript(spec), mode: 0o700 });
  const reg = systemTool(env, 'reg.exe');
  for (const target of targets) {
    const callers = target.family === 'firefox' ? [FIREFOX_ADDON_ID] : extensionIds;
    steps.push(
      { kind: 'folder', path: target.manifestDir, private: false },
      { kind: 'file', path: target.manifestFile, text: `${JSON.stringify(hostManifest(target.family, launcher, callers), null, 2)}\n`, mode: 0o644 },
    );
    if (target.registryKey) steps.push({ kind: 'run', command: [reg, 'add', target.registryKey, '/ve', '/t', 'REG_SZ', '/d', target.manifestFile, '/f'] });
  }

  // Uninstall: the registry first (no browser is left pointing at a file about to go), then
  // Tether's manifests wherever a browser reads them, then the installed host.
  // Each browser once (the ones installed for are among the known ones, profile folders aside).
  const everywhere = [...new Map([...known, ...targets].map((target) => [target.manifestFile, target])).values()];
  const uninstallSteps: UninstallStep[] = [
    ...everywhere.flatMap((target): UninstallStep[] =>
      target.registryKey
        ? [{ kind: 'unregister', key: target.registryKey, query: [reg, 'query', target.registryKey, '/ve'], remove: [reg, 'delete', target.registryKey, '/f'] }]
        : [],
    ),
    ...everywhere.map((target): UninstallStep => ({ kind: 'remove-manifest', path: target.manifestFile })),
    ...[paths.basename(launcher), 'tether-host.js', 'tether-mcp.js', 'chunks', ...(windows ? ['manifests'] : [])].map((name): UninstallStep => ({
      kind: 'remove',
      path: paths.join(hostDir, name),
    })),
  ];
  return {
    platform,
    home,
    configDir,
    extensionIds,
    targets,
    known,
    unknown,
    node: inputs.node,
    hostSource: inputs.hostSource,
    launcher,
    serverScript,
    dryRun: values['dry-run'] === true,
    steps,
    uninstall: uninstallSteps,
  };
}

/** A command as a person would type it in cmd.exe (words with spaces or special letters quoted). */
export function commandLine(command: string[]): string {
  return command.map((word) => (/^[\w.:\\/=@-]+$/.test(word) ? word : `"${word}"`)).join(' ');
}

/** The plan in words, one line per step (`--dry-run`); file contents indented under their path. */
export function describePlan(plan: InstallPlan, which: 'install' | 'uninstall'): string[] {
  if (which === 'uninstall')
    return plan.uninstall.map((step) =>
      step.kind === 'unregister'
        ? `run     ${commandLine(step.remove)}   (if ${commandLine(step.query)} finds it)`
        : `remove  ${step.path}${step.kind === 'remove-manifest' ? '   (if it is Tether’s manifest)' : ''}`,
    );
  return plan.steps.flatMap((step) => {
    switch (step.kind) {
      case 'folder':
        return [`folder  ${step.path}${step.private ? '   (yours alone)' : ''}`];
      case 'prune':
        return [`prune   ${step.dir}   (all but this build's ${step.keep.length} chunk files)`];
      case 'copy':
        return step.quiet ? [] : [`copy    ${step.from} -> ${step.to}`];
      case 'token':
        return [`token   ${pathFor(plan.platform).join(step.configDir, 'token')}   (made if missing)`];
      case 'file':
        return [
          `write   ${step.path}`,
          ...step.text
            .replace(/\r?\n$/, '')
            .split(/\r?\n/)
            .map((line) => `        | ${line}`),
        ];
      case 'run':
        return [`run     ${commandLine(step.command)}`];
    }
  });
}

/** Runs a program of Windows; its exit status and what it said. */
export type Runner = (command: string[]) => { status: number | null; output: string };

const runProgram: Runner = (command) => {
  const result = spawnSync(command[0] as string, command.slice(1), { encoding: 'utf8', windowsHide: true });
  return { status: result.error ? null : result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim() };
};

function writeAtomically(path: string, text: string, mode: number): void {
  const aside = `${path}.${process.pid}.new`;
  writeFileSync(aside, text, { mode });
  renameSync(aside, path);
}

export function install(plan: InstallPlan, print: (line: string) => void, run: Runner = runProgram): string[] {
  if (!existsSync(plan.hostSource))
    throw new Error(`The compiled host is missing (${plan.hostSource}); run \`npm run build\` in the repository, or reinstall tether-mcp.`);
  for (const name of plan.unknown)
    print(
      `Unknown browser "${name}" (known: ${browserTargets({ platform: plan.platform, home: '' })
        .map((target) => target.id)
        .join(', ')}, all).`,
    );
  const written: string[] = [];
  for (const step of plan.steps) {
    switch (step.kind) {
      case 'folder':
        if (step.private) ensurePrivateDir(step.path, print);
        else mkdirSync(step.path, { recursive: true });
        break;
      case 'prune':
        for (const stale of readdirSync(step.dir)) if (!step.keep.includes(stale)) rmSync(pathFor(plan.platform).join(step.dir, stale), { force: true });
        break;
      case 'copy': {
        const aside = `${step.to}.${process.pid}.new`;
        copyFileSync(step.from, aside);
        renameSync(aside, step.to);
        if (!step.quiet) {
          written.push(step.to);
          print(`wrote ${step.to}`);
        }
        break;
      }
      case 'token':
        loadConfig({ TETHER_CONFIG_DIR: step.configDir }, { warn: print });
        break;
      case 'file':
        writeAtomically(step.path, step.text, step.mode);
        written.push(step.path);
        print(`wrote ${step.path}`);
        break;
      case 'run': {
        const result = run(step.command);
        if (result.status !== 0)
          throw new Error(
            `${commandLine(step.command)} failed (${result.status ?? 'did not start'}): ${result.output || 'no output'}. Run it yourself, then install again.`,
          );
        print(`ran ${commandLine(step.command)}`);
        break;
      }
    }
  }
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
  if (plan.serverScript) {
    const npx =
      plan.platform === 'win32'
        ? '{"command": "cmd", "args": ["/c", "npx", "-y", "tether-mcp"]} (npx is a .cmd on Windows, which a client cannot start directly)'
        : '{"command": "npx", "args": ["-y", "tether-mcp"]}';
    print(`MCP client configuration (fastest start): {"command": ${JSON.stringify(plan.node)}, "args": [${JSON.stringify(plan.serverScript)}]} — or ${npx}.`);
  }
  return written;
}

/** Removes the registry keys (Windows), the manifests (only Tether's) from every known browser and the given profile folders, and the installed host. */
export function uninstall(plan: InstallPlan, print: (line: string) => void, run: Runner = runProgram): string[] {
  const removed: string[] = [];
  for (const step of plan.uninstall) {
    if (step.kind === 'unregister') {
      if (run(step.query).status !== 0) continue; // not registered
      const result = run(step.remove);
      if (result.status !== 0)
        throw new Error(`${commandLine(step.remove)} failed (${result.status ?? 'did not start'}): ${result.output || 'no output'}. Run it yourself.`);
      removed.push(step.key);
      print(`ran ${commandLine(step.remove)}`);
      continue;
    }
    if (step.kind === 'remove-manifest') {
      try {
        const manifest = JSON.parse(readFileSync(step.path, 'utf8')) as { name?: unknown };
        if (manifest.name !== NATIVE_HOST_NAME) continue;
      } catch {
        continue;
      }
    } else if (!existsSync(step.path)) continue;
    rmSync(step.path, { recursive: true, force: true });
    removed.push(step.path);
    print(`removed ${step.path}`);
  }
  if (removed.length === 0) print('Nothing to remove: Tether’s native host was not installed here.');
  return removed;
}
