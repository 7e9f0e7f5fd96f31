/**
 * Where each browser looks for native messaging host manifests, and what Tether's manifest says.
 * Pure: paths in, paths and JSON out (install.ts does the writing).
 *
 * Chromium-family browsers read `<their user data folder>/NativeMessagingHosts/<name>.json` (for a
 * browser started with --user-data-dir, that folder's: tests and `npm start` use it), and the
 * manifest names the allowed callers in `allowed_origins`. Firefox reads one per-user folder
 * (`~/.mozilla/native-messaging-hosts/` on Linux, from $HOME — also Firefox 147 and later, whose
 * profiles may live under $XDG_CONFIG_HOME/mozilla — and `~/Library/Application Support/Mozilla/
 * NativeMessagingHosts/` on macOS) and names them in `allowed_extensions` (add-on ids).
 */
import { join } from 'node:path';
import { NATIVE_HOST_NAME } from '../shared/nativeProtocol.ts';

export type BrowserFamily = 'chromium' | 'firefox';

export interface BrowserTarget {
  /** The name `--browser` takes. */
  id: string;
  label: string;
  family: BrowserFamily;
  /** The browser's own user data folder (its existence says the browser is used here). */
  userDataDir: string;
  /** Where its per-user host manifests go. */
  manifestDir: string;
  /** Other folders whose existence also says the browser is used here. */
  seenAt?: string[];
}

export interface Places {
  platform: NodeJS.Platform;
  home: string;
  /** $XDG_CONFIG_HOME on Linux, when set (Chromium-family browsers honour it). */
  xdgConfigHome?: string | undefined;
}

const CHROMIUM_FAMILY: Array<{ id: string; label: string; linux: string; mac: string }> = [
  { id: 'chrome', label: 'Google Chrome', linux: 'google-chrome', mac: 'Google/Chrome' },
  { id: 'chromium', label: 'Chromium', linux: 'chromium', mac: 'Chromium' },
  { id: 'edge', label: 'Microsoft Edge', linux: 'microsoft-edge', mac: 'Microsoft Edge' },
  { id: 'brave', label: 'Brave', linux: 'BraveSoftware/Brave-Browser', mac: 'BraveSoftware/Brave-Browser' },
];

/** Every browser Tether knows on this platform (Linux and macOS). */
export function browserTargets(places: Places): BrowserTarget[] {
  if (places.platform !== 'linux' && places.platform !== 'darwin') return [];
  const configRoot =
    places.platform === 'darwin' ? join(places.home, 'Library', 'Application Support') : (places.xdgConfigHome ?? join(places.home, '.config'));
  const chromium = CHROMIUM_FAMILY.map((browser) => {
    const userDataDir = join(configRoot, places.platform === 'darwin' ? browser.mac : browser.linux);
    return { id: browser.id, label: browser.label, family: 'chromium' as const, userDataDir, manifestDir: join(userDataDir, 'NativeMessagingHosts') };
  });
  return [...chromium, firefoxTarget(places)];
}

function firefoxTarget(places: Places): BrowserTarget {
  const common = { id: 'firefox', label: 'Firefox', family: 'firefox' as const };
  if (places.platform === 'darwin') {
    const support = join(places.home, 'Library', 'Application Support');
    return { ...common, userDataDir: join(support, 'Firefox'), manifestDir: join(support, 'Mozilla', 'NativeMessagingHosts') };
  }
  // Firefox reads host manifests from ~/.mozilla even where it keeps its profiles in the XDG folder.
  const userDataDir = join(places.home, '.mozilla');
  return {
    ...common,
    userDataDir,
    manifestDir: join(userDataDir, 'native-messaging-hosts'),
    seenAt: [join(places.xdgConfigHome ?? join(places.home, '.config'), 'mozilla')],
  };
}

/** A browser started with `--user-data-dir=<dir>` (a test profile, `npm start`'s). */
export function profileDirTarget(userDataDir: string): BrowserTarget {
  return {
    id: 'profile',
    label: `the browser profile folder ${userDataDir}`,
    family: 'chromium',
    userDataDir,
    manifestDir: join(userDataDir, 'NativeMessagingHosts'),
  };
}

export function manifestFile(target: BrowserTarget): string {
  return join(target.manifestDir, `${NATIVE_HOST_NAME}.json`);
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
 * The launcher the manifest names: a shell script with absolute paths only. The browser starts
 * hosts with its own environment, whose PATH may have no node (`#!/usr/bin/env node` then fails);
 * `exec` keeps the pid, so the browser's signals reach node itself.
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
