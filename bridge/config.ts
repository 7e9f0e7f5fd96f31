/**
 * The bridge's settings: the loopback port and the pairing token. The token is generated on first
 * run and kept in the user's config directory (Linux `~/.config/tether`, macOS the same, Windows
 * `%LOCALAPPDATA%\Tether\config`); TETHER_TOKEN overrides it.
 *
 * Whoever can read the token file can pair with the browser, so it must be the user's alone
 * (folderProtection in runDir.ts decides how, per platform):
 * - Linux, macOS: a regular file of mode 0600 in a folder of mode 0700, both owned by the user.
 *   Looser modes on the user's own file and folder are tightened, with a warning; a file or folder
 *   of another user is refused.
 * - Windows: no mode check (Node makes modes up from the read-only flag there: they always look
 *   open). The default folder is under the user's profile, whose ACL (the user, SYSTEM,
 *   Administrators) it inherits, and that is relied on; it is in Local AppData, not Roaming, so
 *   the token never travels to another PC with a roaming profile. A TETHER_CONFIG_DIR outside the
 *   profile is narrowed by the installer (icacls) and warned about here, since Tether cannot read
 *   an ACL without a native module.
 * Everywhere: a link in the token's place is refused. The first run creates the file exclusively
 * (written aside, then linked into place, which fails if the name exists), so two first runs
 * cannot end up with different tokens: the second reads the first one's file. The token is never
 * logged.
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BRIDGE_PORT, TOKEN_MAX_LENGTH, TOKEN_MIN_LENGTH } from '../shared/link/bridgePort.ts';
import { currentAccount, folderProtection, localAppDataOf, pathFor, type Account } from './runDir.ts';

export interface BridgeConfig {
  port: number;
  token: string;
  tokenFile: string | null;
}

export interface ConfigOptions {
  /** Whose files to accept; null skips the owner and mode checks (Windows has neither). */
  uid?: number | null;
  /** Where warnings about fixed permissions go (the token is never in them). */
  warn?: (line: string) => void;
  /** The platform whose rules apply, and the account (tests pass them; by default this process's). */
  platform?: NodeJS.Platform;
  account?: Account;
}

/** The token's folder on `platform`, for an account whose home (Windows: profile folder) is `home`. */
export function configDirOf(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (env.TETHER_CONFIG_DIR) return env.TETHER_CONFIG_DIR;
  if (platform === 'win32') return pathFor('win32').join(localAppDataOf(home), 'Tether', 'config');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'tether');
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  // $HOME on Linux and macOS, as before; the profile folder of this account on Windows.
  return configDirOf(process.platform, env, process.platform === 'win32' ? currentAccount().home : homedir());
}

function currentUid(): number | null {
  return process.platform === 'win32' || typeof process.getuid !== 'function' ? null : process.getuid();
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/** Refuses what another user owns; tightens the user's own file or folder to `mode`. */
function keepPrivate(path: string, stats: Stats, mode: number, options: Required<ConfigOptions>): void {
  if (options.uid === null || options.platform === 'win32') return;
  if (stats.uid !== options.uid) {
    throw new Error(
      `${path} belongs to another user (uid ${stats.uid}). Tether will not use a token someone else could have chosen or read: remove it, or set TETHER_CONFIG_DIR to a folder of your own.`,
    );
  }
  if ((stats.mode & 0o077) === 0) return;
  chmodSync(path, mode);
  options.warn(
    `${path} was open to other users (mode ${octal(stats.mode)}); made it ${octal(mode)}. If someone else could have read the pairing token, remove the token file, run again for a new token and pair again.`,
  );
}

/** The stored token, or null when there is no token file yet. */
function readTokenFile(tokenFile: string, options: Required<ConfigOptions>): string | null {
  let stats: Stats;
  try {
    stats = lstatSync(tokenFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!stats.isFile())
    throw new Error(
      `${tokenFile} is not a regular file (a link, or something else). Tether keeps its token only in a file of its own: remove it, and the next run makes a new token.`,
    );
  keepPrivate(tokenFile, stats, 0o600, options);
  const token = readFileSync(tokenFile, 'utf8').trim();
  if (token.length < TOKEN_MIN_LENGTH || token.length > TOKEN_MAX_LENGTH)
    throw new Error(`${tokenFile} holds no usable pairing token. Remove it, and the next run makes a new one.`);
  return token;
}

/** node:crypto only when a token is made: loading it is a noticeable part of the MCP server's start. */
function randomBytes(size: number): Buffer {
  return process.getBuiltinModule('node:crypto').randomBytes(size);
}

/** Creates the token file with `token` unless another run created it first; returns the token in the file. */
export function publishToken(tokenFile: string, token: string, options: ConfigOptions = {}): string {
  const resolved: Required<ConfigOptions> = {
    uid: options.uid === undefined ? currentUid() : options.uid,
    warn: options.warn ?? (() => undefined),
    platform: options.platform ?? process.platform,
    account: options.account ?? currentAccount(),
  };
  // Written in full aside, then linked into place: the link fails if the name exists, and the file
  // under the name is never seen half written.
  const aside = `${tokenFile}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  writeFileSync(aside, `${token}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, tokenFile);
    return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = readTokenFile(tokenFile, resolved);
    if (winner === null) throw error;
    return winner;
  } finally {
    unlinkSync(aside);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: ConfigOptions = {}): BridgeConfig {
  const platform = options.platform ?? process.platform;
  const resolved: Required<ConfigOptions> = {
    uid: options.uid === undefined ? currentUid() : options.uid,
    warn: options.warn ?? ((line) => process.stderr.write(`[tether-mcp] ${line}\n`)),
    platform,
    account: options.account ?? currentAccount(),
  };
  const port = Number(env.TETHER_PORT ?? DEFAULT_BRIDGE_PORT);
  if (!Number.isInteger(port) || port < 1024 || port > 65535)
    throw new Error(`TETHER_PORT must be a port number from 1024 to 65535, not "${env.TETHER_PORT}".`);
  if (env.TETHER_TOKEN) {
    if (env.TETHER_TOKEN.length < TOKEN_MIN_LENGTH || env.TETHER_TOKEN.length > TOKEN_MAX_LENGTH)
      throw new Error(`TETHER_TOKEN must be ${TOKEN_MIN_LENGTH} to ${TOKEN_MAX_LENGTH} characters.`);
    return { port, token: env.TETHER_TOKEN, tokenFile: null };
  }
  const dir = options.account || options.platform ? configDirOf(platform, env, resolved.account.home) : configDir(env);
  const tokenFile = join(dir, 'token');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const protection = folderProtection(platform, dir, resolved.account, env);
  if (protection.kind === 'modes') keepPrivate(dir, statSync(dir), 0o700, resolved);
  else if (protection.kind === 'restrict')
    resolved.warn(
      `${dir} is outside your user profile: Windows gives it whatever its parent folder grants, and Tether cannot check that from here. Make sure it is yours alone (\`tether-mcp install\` runs ${protection.command.join(' ')}), or keep the token in the default folder (unset TETHER_CONFIG_DIR).`,
    );
  const stored = readTokenFile(tokenFile, resolved);
  if (stored !== null) return { port, token: stored, tokenFile };
  return { port, token: publishToken(tokenFile, randomBytes(24).toString('base64url'), resolved), tokenFile };
}
