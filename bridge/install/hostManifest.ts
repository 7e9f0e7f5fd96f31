/**
 * Where each browser looks for native messaging host manifests, and what Tether's manifest and
 * launcher say. Pure: paths in, paths, registry keys and text out (install.ts does the writing).
 *
 * Linux and macOS: Chromium-family browsers read `<their user data folder>/NativeMessagingHosts/
 * <name>.json` (for a browser started with --user-data-dir, that folder's: tests and `npm start`
 * use it), and the manifest names the allowed callers in `allowed_origins`. Firefox reads one
 * per-user folder (`~/.mozilla/native-messaging-hosts/` on Linux, from $HOME — also Firefox 147 and
 * later, whose profiles may live under $XDG_CONFIG_HOME/mozilla — and `~/Library/Application
 * Support/Mozilla/NativeMessagingHosts/` on macOS) and names them in `allowed_extensions` (add-on ids).
 *
 * Windows: no browser looks in a folder; each reads the default value of a registry key under
 * HKEY_CURRENT_USER (then HKLM), which holds the manifest's absolute path. The manifests live in
 * Tether's own folder (`%LOCALAPPDATA%\Tether\host\manifests\<browser>\`), one per browser, so
 * uninstalling one removes only its own. The keys, checked 2026-12-01:
 * - Chrome `Software\Google\Chrome\NativeMessagingHosts`, Chromium `Software\Chromium\…` (and
 *   Chrome's as a fallback): Chromium's chrome/browser/extensions/api/messaging/launch_context_win.cc,
 *   which also shows that a host that is not an .exe is started as `%COMSPEC% /d /s /c "<path>
 *   <args>" < \\.\pipe\chrome.nativeMessaging.in.<random> > …out.<random>`.
 * - Edge `Software\Microsoft\Edge\NativeMessagingHosts`: Microsoft's Edge native-messaging guide.
 * - Firefox `Software\Mozilla\NativeMessagingHosts`: MDN "Native manifests"; Firefox starts the
 *   manifest's path with the manifest's path and the add-on id as arguments (NativeMessaging.sys.mjs).
 * - Brave `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts`: what other hosts' installers
 *   write; not checked against Brave's own source.
 */
import { NATIVE_HOST_NAME } from '../../shared/native/nativeProtocol.ts';
import { localAppDataOf, pathFor } from '../runDir.ts';

export type BrowserFamily = 'chromium' | 'firefox';

export interface BrowserTarget {
  /** The name `--browser` takes. */
  id: string;
  label: string;
  family: BrowserFamily;
  /** The browser's own user data folder (its existence says the browser is used here). */
  userDataDir: string;
  /** Where its host manifest goes (Windows: Tether's own folder for it). */
  manifestDir: string;
  /** The manifest file itself. */
  manifestFile: string;
  /** Windows: the key whose default value names the manifest (`HKCU\…\dev.tether.host`). */
  registryKey?: string;
  /** Other folders whose existence also says the browser is used here. */
  seenAt?: string[];
}

export interface Places {
  platform: NodeJS.Platform;
  home: string;
  /** $XDG_CONFIG_HOME on Linux, when set (Chromium-family browsers honour it). */
  xdgConfigHome?: string | undefined;
  /** Tether's folder (Windows keeps the manifests there); by default the platform's. */
  tetherHome?: string | undefined;
}

const CHROMIUM_FAMILY: Array<{ id: string; label: string; linux: string; mac: string; windows: { userData: string; key: string } }> = [
  {
    id: 'chrome',
    label: 'Google Chrome',
    linux: 'google-chrome',
    mac: 'Google/Chrome',
    windows: { userData: 'Google\\Chrome\\User Data', key: 'Software\\Google\\Chrome\\NativeMessagingHosts' },
  },
  {
    id: 'chromium',
    label: 'Chromium',
    linux: 'chromium',
    mac: 'Chromium',
    windows: { userData: 'Chromium\\User Data', key: 'Software\\Chromium\\NativeMessagingHosts' },
  },
  {
    id: 'edge',
    label: 'Microsoft Edge',
    linux: 'microsoft-edge',
    mac: 'Microsoft Edge',
    windows: { userData: 'Microsoft\\Edge\\User Data', key: 'Software\\Microsoft\\Edge\\NativeMessagingHosts' },
  },
  {
    id: 'brave',
    label: 'Brave',
    linux: 'BraveSoftware/Brave-Browser',
    mac: 'BraveSoftware/Brave-Browser',
    windows: { userData: 'BraveSoftware\\Brave-Browser\\User Data', key: 'Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts' },
  },
];

const FIREFOX_WINDOWS_KEY = 'Software\\Mozilla\\NativeMessagingHosts';

const manifestName = `${NATIVE_HOST_NAME}.json`;

/** Every browser Tether knows on this platform (Linux, macOS, Windows). */
export function browserTargets(places: Places): BrowserTarget[] {
  if (places.platform === 'win32') return windowsTargets(places);
  if (places.platform !== 'linux' && places.platform !== 'darwin') return [];
  const { join } = pathFor(places.platform);
  const configRoot =
    places.platform === 'darwin' ? join(places.home, 'Library', 'Application Support') : (places.xdgConfigHome ?? join(places.home, '.config'));
  const chromium = CHROMIUM_FAMILY.map((browser) => {
    const userDataDir = join(configRoot, places.platform === 'darwin' ? browser.mac : browser.linux);
    const manifestDir = join(userDataDir, 'NativeMessagingHosts');
    return { id: browser.id, label: browser.label, family: 'chromium' as const, userDataDir, manifestDir, manifestFile: join(manifestDir, manifestName) };
  });
  return [...chromium, firefoxTarget(places)];
}

function windowsTargets(places: Places): BrowserTarget[] {
  const { join } = pathFor('win32');
  const local = localAppDataOf(places.home);
  const manifests = join(places.tetherHome ?? join(local, 'Tether'), 'host', 'manifests');
  const target = (id: string, label: string, family: BrowserFamily, userDataDir: string, key: string): BrowserTarget => {
    const manifestDir = join(manifests, id);
    return { id, label, family, userDataDir, manifestDir, manifestFile: join(manifestDir, manifestName), registryKey: `HKCU\\${key}\\${NATIVE_HOST_NAME}` };
  };
  return [
    ...CHROMIUM_FAMILY.map((browser) => target(browser.id, browser.label, 'chromium', join(local, browser.windows.userData), browser.windows.key)),
    // Firefox keeps its profiles in the roaming AppData.
    target('firefox', 'Firefox', 'firefox', join(places.home, 'AppData', 'Roaming', 'Mozilla', 'Firefox'), FIREFOX_WINDOWS_KEY),
  ];
}

function firefoxTarget(places: Places): BrowserTarget {
  const { join } = pathFor(places.platform);
  const common = { id: 'firefox', label: 'Firefox', family: 'firefox' as const };
  if (places.platform === 'darwin') {
    const support = join(places.home, 'Library', 'Application Support');
    const manifestDir = join(support, 'Mozilla', 'NativeMessagingHosts');
    return { ...common, userDataDir: join(support, 'Firefox'), manifestDir, manifestFile: join(manifestDir, manifestName) };
  }
  // Firefox reads host manifests from ~/.mozilla even where it keeps its profiles in the XDG folder.
  const userDataDir = join(places.home, '.mozilla');
  const manifestDir = join(userDataDir, 'native-messaging-hosts');
  return {
    ...common,
    userDataDir,
    manifestDir,
    manifestFile: join(manifestDir, manifestName),
    seenAt: [join(places.xdgConfigHome ?? join(places.home, '.config'), 'mozilla')],
  };
}

/** A browser started with `--user-data-dir=<dir>` (a test profile, `npm start`'s): Linux and macOS only. */
export function profileDirTarget(userDataDir: string, platform: NodeJS.Platform = process.platform): BrowserTarget {
  const manifestDir = pathFor(platform).join(userDataDir, 'NativeMessagingHosts');
  return {
    id: 'profile',
    label: `the browser profile folder ${userDataDir}`,
    family: 'chromium',
    userDataDir,
    manifestDir,
    manifestFile: pathFor(platform).join(manifestDir, manifestName),
  };
}

export function manifestFile(target: BrowserTarget): string {
  return target.manifestFile;
}

/** Tether's host manifest for one browser family: only Tether's extension may start the host. */
export function hostManifest(family: BrowserFamily, launcher: string, extensionIds: string[]): Record<string, unknown> {
  const common = { name: NATIVE_HOST_NAME, description: 'Tether: connects AI agents’ MCP servers to the Tether extension', path: launcher, type: 'stdio' };
  return family === 'firefox'
    ? { ...common, allowed_extensions: extensionIds }
    : { ...common, allowed_origins: extensionIds.map((id) => `chrome-extension://${id}/`) };
}

/** A word for the shell: single-quoted, so nothing in a path is expanded. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export interface LauncherSpec {
  node: string;
  hostScript: string;
  /** The callers the host admits: Chromium origins and Firefox add-on ids (see hostArgs.ts). */
  allow: string[];
  runDir: string;
  configDir: string;
  logFile: string;
}

/**
 * The launcher the manifest names on Linux and macOS: a shell script with absolute paths only. The
 * browser starts hosts with its own environment, whose PATH may have no node (`#!/usr/bin/env
 * node` then fails); `exec` keeps the pid, so the browser's signals reach node itself.
 */
export function launcherScript(spec: LauncherSpec): string {
  const words = [
    shellWord(spec.node),
    shellWord(spec.hostScript),
    ...spec.allow.flatMap((caller) => ['--allow', shellWord(caller)]),
    '--run-dir',
    shellWord(spec.runDir),
    '--config-dir',
    shellWord(spec.configDir),
    '--log',
    shellWord(spec.logFile),
    '--',
    '"$@"',
  ];
  return `#!/bin/sh\n# Tether's native messaging host, written by \`tether-mcp install\`. Absolute paths only: the browser's PATH may not have node.\nexec ${words.join(' ')}\n`;
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * A path as one word of a Windows batch file, in double quotes (spaces are common: "C:\Program
 * Files", "C:\Users\Kim Chul"), `%` doubled. cmd.exe reads a batch file in the console's code page,
 * so the file must be ASCII: a path with other letters (a Korean user name) is written relative to
 * the launcher's own folder, `%~dp0` — which cmd.exe expands from the file's real (Unicode) path —
 * when that relative form is ASCII; null when neither form is.
 */
export function batchWord(path: string, launcherDir: string): string | null {
  const { relative, isAbsolute } = pathFor('win32');
  const quoted = (text: string) => `"${text.replaceAll('%', '%%')}"`;
  if (ASCII.test(path)) return quoted(path);
  const rel = relative(launcherDir, path);
  if (rel === '' || isAbsolute(rel) || !ASCII.test(rel)) return null;
  return `"%~dp0${rel.replaceAll('%', '%%')}"`;
}

/**
 * The launcher the manifest names on Windows: `tether-host.cmd`, which Chrome and Edge start through
 * cmd.exe (`/d /s /c`, stdin and stdout on the browser's pipes) and Firefox starts as a batch file.
 * `@echo off` first: an echoed command would land on stdout, in the middle of the native messages.
 * Node and the host by absolute path (or `%~dp0`-relative, see batchWord), quoted; the browser's
 * arguments (`%*`) after "--". Throws when a path cannot be written in ASCII either way.
 */
export function windowsLauncher(spec: LauncherSpec, launcherDir: string): string {
  const word = (path: string) => {
    const result = batchWord(path, launcherDir);
    if (result === null)
      throw new Error(
        `${path} cannot be written into the Windows launcher (a .cmd file, which cmd.exe reads in the console's code page, so only ASCII letters, or paths inside your profile next to Tether's own folder, can be named). Install Node under C:\\Program Files (the installer from nodejs.org does), or set TETHER_HOME and TETHER_CONFIG_DIR to folders with ASCII names.`,
      );
    return result;
  };
  const words = [
    word(spec.node),
    word(spec.hostScript),
    ...spec.allow.flatMap((caller) => ['--allow', `"${caller}"`]),
    '--run-dir',
    word(spec.runDir),
    '--config-dir',
    word(spec.configDir),
    '--log',
    word(spec.logFile),
    '--',
    '%*',
  ];
  return [
    '@echo off',
    "rem Tether's native messaging host, written by `tether-mcp install`. ASCII only: cmd.exe reads this",
    "rem file in the console's code page. Paths with other letters are written relative to this file's own folder.",
    words.join(' '),
    '',
  ].join('\r\n');
}
