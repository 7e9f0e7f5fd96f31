/**
 * Where Tether keeps its per-user files outside the browser, on each platform, and what keeps those
 * folders the user's alone.
 *
 * - Linux and macOS: `~/.tether` (the installed native host, its log) and `~/.tether/run` (one unix
 *   socket per running host, where MCP bridges find them).
 * - Windows: `%LOCALAPPDATA%\Tether` and `%LOCALAPPDATA%\Tether\run` (one small file per running
 *   host naming its pipe: hostChannel.ts). Local, not Roaming: nothing here may follow the person
 *   to another PC (a roaming profile copies Roaming to a server and back).
 *
 * The home comes from the user database (`os.userInfo()`: on Windows the profile folder of the
 * process's own account, whatever USERPROFILE says), not from the environment: the browser (which
 * starts the host) and the agent (which starts the bridge) are started with different environments,
 * and both must arrive at the same folder. TETHER_HOME overrides it explicitly (tests, several
 * installs side by side); the installer bakes the resolved run folder into the host's launcher, so
 * the host never depends on the browser's environment.
 *
 * POSIX: the folders are 0700 and the sockets in them 0600: nobody else may reach, list or replace
 * them. Windows has no modes; a folder under the user's profile inherits the profile's ACL (the
 * user, SYSTEM and Administrators), which keeps other users out; a folder elsewhere gets whatever
 * its parent grants, so the installer narrows it with icacls (folderProtection below).
 */
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { posix, win32 } from 'node:path';

/** The account the process runs as, from the user database. */
export interface Account {
  /** Its home (Windows: its profile folder, `C:\Users\<name>`). */
  home: string;
  username: string;
}

export function currentAccount(): Account {
  try {
    const info = userInfo();
    return { home: info.homedir, username: info.username };
  } catch {
    // A uid with no entry in the user database (some containers): the environment is all there is.
    return { home: homedir(), username: process.env.USER ?? process.env.USERNAME ?? '' };
  }
}

/** The path rules of a platform (the installer plans Windows paths on any machine, in tests). */
export function pathFor(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/** `%LOCALAPPDATA%` of this account (its profile's AppData\Local). */
export function localAppDataOf(home: string): string {
  return win32.join(home, 'AppData', 'Local');
}

export function tetherHomeOf(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (env.TETHER_HOME) return env.TETHER_HOME;
  return platform === 'win32' ? win32.join(localAppDataOf(home), 'Tether') : posix.join(home, '.tether');
}

export function tetherHome(env: NodeJS.ProcessEnv = process.env): string {
  return tetherHomeOf(process.platform, env, currentAccount().home);
}

export function runDirOf(home: string, platform: NodeJS.Platform = process.platform): string {
  return pathFor(platform).join(home, 'run');
}

/** Whether `path` is `folder` or inside it (Windows: letters in any case, either slash). */
export function isInside(platform: NodeJS.Platform, path: string, folder: string): boolean {
  const paths = pathFor(platform);
  const norm = (value: string) => {
    const resolved = paths.resolve(value);
    return platform === 'win32' ? resolved.toLowerCase() : resolved;
  };
  const inner = norm(path);
  const outer = norm(folder);
  return inner === outer || inner.startsWith(outer.endsWith(paths.sep) ? outer : `${outer}${paths.sep}`);
}

/**
 * How a folder of Tether's (its home, the token's folder) is kept the user's alone:
 * - `modes` (Linux, macOS): 0700 folders and 0600 files, owner checked (ensurePrivateDir, config.ts).
 * - `profile` (Windows, under the user's profile): nothing to do; the folder inherits the
 *   profile's ACL, which grants the user, SYSTEM and Administrators and nobody else.
 * - `restrict` (Windows, elsewhere): the installer runs `command` (icacls: inheritance off, only
 *   this account), and the bridge says it cannot check it. No POSIX mode check on Windows: the modes
 *   Node reports there are made up from the read-only flag and would always look "open".
 */
export type FolderProtection = { kind: 'modes' } | { kind: 'profile' } | { kind: 'restrict'; command: string[] };

export function folderProtection(platform: NodeJS.Platform, dir: string, account: Account, env: NodeJS.ProcessEnv): FolderProtection {
  if (platform !== 'win32') return { kind: 'modes' };
  if (isInside('win32', dir, account.home)) return { kind: 'profile' };
  const domain = env.USERDOMAIN ?? env.userdomain;
  const who = domain ? `${domain}\\${account.username}` : account.username;
  return { kind: 'restrict', command: [systemTool(env, 'icacls.exe'), dir, '/inheritance:r', '/grant:r', `${who}:(OI)(CI)F`] };
}

/** A program of Windows itself, by absolute path (an agent's PATH may be anything). */
export function systemTool(env: NodeJS.ProcessEnv, name: string): string {
  return win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows', 'System32', name);
}

export function currentUid(): number | null {
  return process.platform === 'win32' || typeof process.getuid !== 'function' ? null : process.getuid();
}

/**
 * Makes `path` a folder only this user can enter: created 0700 if missing; the user's own folder
 * with looser modes is tightened (with a warning); a link, a file, or another user's folder is
 * refused with an error that says what to do. On Windows (uid null) only "a folder, not a link"
 * is checked: its ACL is the profile's (folderProtection).
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
