/**
 * Where Tether keeps its per-user files outside the browser: `~/.tether` (the installed native
 * host, its log) and `~/.tether/run` (one unix socket per running host, where MCP bridges find
 * them). The home comes from the user database (`os.userInfo()`), not from the environment: the
 * browser (which starts the host) and the agent (which starts the bridge) are started with
 * different environments, and both must arrive at the same folder. TETHER_HOME overrides it
 * explicitly (tests, several installs side by side); the installer bakes the resolved run folder
 * into the host's launcher, so the host never depends on the browser's environment.
 *
 * The folders are the user's alone (0700): the sockets in them (0600) are the channel to the
 * browser, so nobody else may reach, list or replace them.
 */
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

export const SOCKET_PREFIX = 'h-';
export const SOCKET_SUFFIX = '.sock';

export function tetherHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TETHER_HOME) return env.TETHER_HOME;
  let home: string;
  try {
    home = userInfo().homedir;
  } catch {
    // A uid with no entry in the user database (some containers): $HOME is all there is.
    home = homedir();
  }
  return join(home, '.tether');
}

export function runDirOf(home: string): string {
  return join(home, 'run');
}

/** The socket name a host with this pid publishes. */
export function hostSocketName(pid: number): string {
  return `${SOCKET_PREFIX}${pid}${SOCKET_SUFFIX}`;
}

export function isHostSocketName(name: string): boolean {
  return name.startsWith(SOCKET_PREFIX) && name.endsWith(SOCKET_SUFFIX);
}

export function currentUid(): number | null {
  return process.platform === 'win32' || typeof process.getuid !== 'function' ? null : process.getuid();
}

/**
 * Makes `path` a folder only this user can enter: created 0700 if missing; the user's own folder
 * with looser modes is tightened (with a warning); a link, a file, or another user's folder is
 * refused with an error that says what to do.
 */
export function ensurePrivateDir(path: string, warn: (line: string) => void = () => undefined, uid: number | null = currentUid()): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stats: Stats = lstatSync(path);
  if (!stats.isDirectory()) throw new Error(`${path} is not a folder (a link or a file is in its place). Remove it; Tether makes its own.`);
  if (uid === null) return;
  if (stats.uid !== uid)
    throw new Error(
      `${path} belongs to another user (uid ${stats.uid}). Tether will not publish or look for its sockets there: remove it, or set TETHER_HOME to a folder of your own.`,
    );
  if ((stats.mode & 0o077) === 0) return;
  chmodSync(path, 0o700);
  warn(`${path} was open to other users (mode 0${(stats.mode & 0o777).toString(8)}); made it 0700.`);
}
