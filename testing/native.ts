/**
 * The native path as a person sets it up, in folders of the test's own: `tether-mcp install` (the
 * compiled bin) with a home and config folder of its own, for a browser profile folder that
 * Chromium is then launched with (it reads `<profile>/NativeMessagingHosts/`). Bridges started
 * with `env` find that browser's host; nothing touches the user's real ~/.tether or browsers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TETHER_MCP } from './paths.ts';

const run = promisify(execFile);

export interface NativeSandbox {
  home: string;
  configDir: string;
  runDir: string;
  /** Environment for bridges and the installer: TETHER_HOME and TETHER_CONFIG_DIR, no TETHER_TOKEN. */
  env: NodeJS.ProcessEnv;
}

/**
 * A home and a config folder of their own (temporary ones by default). Kept short: the host's
 * unix socket lives in `<home>/run/`, and a socket's path may not exceed 107 bytes.
 */
export function nativeSandbox(folders: { home?: string; configDir?: string } = {}): NativeSandbox {
  const home = folders.home ?? mkdtempSync(join(tmpdir(), 'tether-home-'));
  const configDir = folders.configDir ?? mkdtempSync(join(tmpdir(), 'tether-config-'));
  const env: NodeJS.ProcessEnv = { ...process.env, TETHER_HOME: home, TETHER_CONFIG_DIR: configDir };
  delete env.TETHER_TOKEN;
  return { home, configDir, runDir: join(home, 'run'), env };
}

/** Runs the compiled `tether-mcp` with these arguments (an `undefined` in `env` removes that variable); its output. */
export async function tetherMcp(sandbox: NativeSandbox, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  const merged: NodeJS.ProcessEnv = Object.fromEntries(Object.entries({ ...sandbox.env, ...env }).filter(([key]) => !(key in env) || env[key] !== undefined));
  return run(process.execPath, [TETHER_MCP, ...args], { env: merged, encoding: 'utf8' });
}

/** Installs the host for a browser profile folder (before the browser starts with it); what the installer printed. */
export async function installFor(sandbox: NativeSandbox, userDataDir: string, extra: string[] = []): Promise<string> {
  return (await tetherMcp(sandbox, ['install', '--browser-profile-dir', userDataDir, ...extra])).stdout;
}

/** The host sockets published right now. */
export function hostSockets(sandbox: NativeSandbox): string[] {
  try {
    return readdirSync(sandbox.runDir).filter((name) => /^h-\d+\.sock$/.test(name));
  } catch {
    return [];
  }
}

/** The pids of the hosts that published a socket. */
export function hostPids(sandbox: NativeSandbox): number[] {
  return hostSockets(sandbox).map((name) => Number(/^h-(\d+)\.sock$/.exec(name)?.[1]));
}

/** What the native host logged (`<home>/host.log`), or "" when it logged nothing. */
export function hostLog(sandbox: NativeSandbox): string {
  try {
    return readFileSync(join(sandbox.home, 'host.log'), 'utf8');
  } catch {
    return '';
  }
}
