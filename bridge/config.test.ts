import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirOf, loadConfig, publishToken } from './config.ts';

const uid = process.getuid?.() ?? 0;

function fresh(): { dir: string; env: NodeJS.ProcessEnv; warnings: string[]; options: { uid: number; warn(line: string): void } } {
  const dir = join(mkdtempSync(join(tmpdir(), 'tether-config-test-')), 'tether');
  const warnings: string[] = [];
  return { dir, env: { TETHER_CONFIG_DIR: dir, TETHER_PORT: '17345' }, warnings, options: { uid, warn: (line) => warnings.push(line) } };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the token file', () => {
  it('a first run makes a private folder (0700) and file (0600) with a fresh token; the next run reads it', () => {
    const { dir, env, warnings, options } = fresh();
    const first = loadConfig(env, options);
    expect(first.token.length).toBeGreaterThanOrEqual(32);
    expect(first.tokenFile).toBe(join(dir, 'token'));
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'token'))).toBe(0o600);
    expect(loadConfig(env, options).token).toBe(first.token);
    expect(warnings).toEqual([]);
    // Nothing written aside is left behind.
    expect(readdirSync(dir)).toEqual(['token']);
  });

  it('loose modes on the user’s own folder and file are tightened, with a warning that does not hold the token', () => {
    const { dir, env, warnings, options } = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'token'), 'an-existing-token-0123456789\n', { mode: 0o644 });
    chmodSync(join(dir, 'token'), 0o644);
    expect(loadConfig(env, options).token).toBe('an-existing-token-0123456789');
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'token'))).toBe(0o600);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('mode 0755');
    expect(warnings[1]).toContain('mode 0644');
    for (const line of warnings) expect(line).not.toContain('an-existing-token');
  });

  it('a file or folder owned by another user is refused, and left as it is', () => {
    const { dir, env, options } = fresh();
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'token'), 'someone-elses-token-0123456789\n', { mode: 0o644 });
    chmodSync(join(dir, 'token'), 0o644);
    expect(() => loadConfig(env, { ...options, uid: uid + 1 })).toThrow(/belongs to another user/);
    expect(mode(join(dir, 'token'))).toBe(0o644);
  });

  it('a link in the token file’s place is refused', () => {
    const { dir, env, options } = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const elsewhere = join(dir, '..', 'planted');
    writeFileSync(elsewhere, 'a-planted-token-0123456789\n', { mode: 0o600 });
    symlinkSync(elsewhere, join(dir, 'token'));
    expect(() => loadConfig(env, options)).toThrow(/not a regular file/);
  });

  it('a token file without a usable token is refused rather than replaced', () => {
    const { dir, env, options } = fresh();
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'token'), 'short\n', { mode: 0o600 });
    expect(() => loadConfig(env, options)).toThrow(/no usable pairing token/);
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('short\n');
  });

  it('two first runs: the file is created once, and the second one reads the first one’s token', () => {
    const { dir, options } = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'token');
    expect(publishToken(file, 'the-first-runs-token-0123456789', options)).toBe('the-first-runs-token-0123456789');
    expect(publishToken(file, 'the-second-runs-token-987654321', options)).toBe('the-first-runs-token-0123456789');
    expect(readFileSync(file, 'utf8')).toBe('the-first-runs-token-0123456789\n');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['token']);
  });

  it('TETHER_TOKEN overrides the file (none is made) and must be long enough; the port must be a port', () => {
    const { dir, options } = fresh();
    expect(loadConfig({ TETHER_CONFIG_DIR: dir, TETHER_TOKEN: 'a-token-from-the-environment' }, options)).toEqual({
      port: 17345,
      token: 'a-token-from-the-environment',
      tokenFile: null,
    });
    expect(existsSync(dir)).toBe(false);
    expect(() => loadConfig({ TETHER_CONFIG_DIR: dir, TETHER_TOKEN: 'short' }, options)).toThrow(/16 to 200 characters/);
    // No longer than a person can paste, or the native host can offer its worker.
    expect(() => loadConfig({ TETHER_CONFIG_DIR: dir, TETHER_TOKEN: 'x'.repeat(201) }, options)).toThrow(/16 to 200 characters/);
    for (const port of ['80', '70000', 'abc', '1.5']) expect(() => loadConfig({ TETHER_CONFIG_DIR: dir, TETHER_PORT: port }, options)).toThrow(/TETHER_PORT/);
  });
});

describe('the token file on Windows', () => {
  it.each([
    ['win32', {}, 'C:\\Users\\김 철수', 'C:\\Users\\김 철수\\AppData\\Local\\Tether\\config'],
    ['linux', {}, '/home/a', '/home/a/.config/tether'],
    ['linux', { XDG_CONFIG_HOME: '/x' }, '/home/a', '/x/tether'],
    ['darwin', {}, '/Users/a', '/Users/a/.config/tether'],
    ['win32', { TETHER_CONFIG_DIR: 'D:\\c' }, 'C:\\Users\\a', 'D:\\c'],
  ] as const)('%s with %j (home %s) keeps it in %s', (platform, env, home, dir) => {
    expect(configDirOf(platform, env, home)).toBe(dir);
  });

  it('checks no POSIX modes there (Node makes them up on Windows): a token file under the profile is read as it is, without a warning', () => {
    const { dir, env, warnings } = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'token'), 'a-token-made-on-windows-0123456789\n', { mode: 0o644 });
    chmodSync(join(dir, 'token'), 0o644);
    const account = { username: 'a', home: join(dir, '..') };
    const options = { uid, platform: 'win32' as const, account, warn: (line: string) => warnings.push(line) };
    expect(loadConfig(env, options).token).toBe('a-token-made-on-windows-0123456789');
    expect(warnings).toEqual([]);
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'token'))).toBe(0o644);
    // A first run there makes the token file as anywhere else, exclusively.
    const other = fresh();
    expect(loadConfig(other.env, { ...options, account: { username: 'a', home: join(other.dir, '..') } }).token.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(other.dir)).toEqual(['token']);
  });

  it('says so when the token’s folder is outside the profile (its ACL is then whatever its parent grants), with the icacls that narrows it', () => {
    const { env, warnings } = fresh();
    loadConfig(env, { uid, platform: 'win32', account: { username: 'a', home: '/somewhere/else' }, warn: (line) => warnings.push(line) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is outside your user profile.*icacls\.exe .* \/inheritance:r \/grant:r a:\(OI\)\(CI\)F/);
  });
});
