import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIREFOX_ADDON_ID, TETHER_EXTENSION_ID } from '../shared/nativeProtocol.ts';
import { install, planInstall, uninstall } from './install.ts';

/** A person's home of the test's own (browsers' folders, TETHER_HOME, the config folder), and a compiled host to copy. */
function sandbox(folders: string[] = []) {
  const root = mkdtempSync(join(tmpdir(), 'tether-install-test-'));
  const home = join(root, 'home');
  for (const folder of folders) mkdirSync(join(home, folder), { recursive: true });
  const built = join(root, 'dist-bridge');
  mkdirSync(built);
  writeFileSync(join(built, 'tether-host.js'), '// host\n');
  writeFileSync(join(built, 'tether-mcp.js'), '// server\n');
  mkdirSync(join(built, 'chunks'));
  writeFileSync(join(built, 'chunks', 'browserLinks-NEW.js'), '// chunk\n');
  const env: NodeJS.ProcessEnv = { HOME: home, TETHER_HOME: join(root, 'tether'), TETHER_CONFIG_DIR: join(root, 'config') };
  const plan = (argv: string[]) => ({ ...planInstall(argv, env), hostSource: join(built, 'tether-host.js') });
  const lines: string[] = [];
  return { home, root, plan, lines, print: (line: string) => void lines.push(line) };
}

const firefoxManifestFile = (home: string) => join(home, '.mozilla', 'native-messaging-hosts', 'dev.tether.host.json');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe.runIf(process.platform === 'linux')('tether-mcp install and uninstall (Linux)', () => {
  it('writes Firefox’s manifest in ~/.mozilla/native-messaging-hosts/ when Firefox is used here, naming only Tether’s add-on id', () => {
    const s = sandbox(['.mozilla/firefox', '.config/chromium']);
    const plan = s.plan([]);
    expect(plan.targets.map((target) => target.id)).toEqual(['chromium', 'firefox']);
    const written = install(plan, s.print);
    const file = firefoxManifestFile(s.home);
    expect(written).toContain(file);
    const launcher = join(s.root, 'tether', 'host', 'tether-host');
    expect(json(file)).toEqual({
      name: 'dev.tether.host',
      description: expect.any(String),
      path: launcher,
      type: 'stdio',
      allowed_extensions: [FIREFOX_ADDON_ID],
    });
    expect(statSync(file).mode & 0o777).toBe(0o644);
    // Chromium's names the extension id, never the add-on id.
    expect(json(join(s.home, '.config', 'chromium', 'NativeMessagingHosts', 'dev.tether.host.json'))).toMatchObject({
      allowed_origins: [`chrome-extension://${TETHER_EXTENSION_ID}/`],
    });
    expect(s.lines).toContain(`wrote ${file}`);
    expect(s.lines.join('\n')).toMatch(/installed for Chromium, Firefox \(extension lmdeipcgcniedmmnmekpfbklipnogfgp, tether@tether-mcp\)/);
  });

  it('admits Firefox’s add-on id in the launcher, which serves every browser', () => {
    const s = sandbox();
    install(s.plan(['--browser', 'chrome']), s.print);
    const script = readFileSync(join(s.root, 'tether', 'host', 'tether-host'), 'utf8');
    expect(script).toContain(`--allow 'chrome-extension://${TETHER_EXTENSION_ID}/' --allow '${FIREFOX_ADDON_ID}'`);
  });

  it('finds Firefox 147+ by its XDG folder, and still writes where Firefox reads (~/.mozilla)', () => {
    const s = sandbox(['.config/mozilla/firefox']);
    const plan = s.plan([]);
    expect(plan.targets.map((target) => target.id)).toEqual(['firefox']);
    install(plan, s.print);
    expect(existsSync(firefoxManifestFile(s.home))).toBe(true);
  });

  it('writes Firefox’s manifest for --browser firefox even before Firefox ever ran, and nothing for browsers not named', () => {
    const s = sandbox(['.config/google-chrome']);
    const written = install(s.plan(['--browser', 'firefox']), s.print);
    expect(written.filter((path) => path.endsWith('dev.tether.host.json'))).toEqual([firefoxManifestFile(s.home)]);
  });

  it('gives Firefox Tether’s add-on id whatever --extension-id names (that flag is for Chromium store builds)', () => {
    const s = sandbox();
    install(s.plan(['--browser', 'all', '--extension-id', 'abcdefghijklmnopabcdefghijklmnop']), s.print);
    expect(json(firefoxManifestFile(s.home))).toMatchObject({ allowed_extensions: [FIREFOX_ADDON_ID] });
    expect(json(join(s.home, '.config', 'google-chrome', 'NativeMessagingHosts', 'dev.tether.host.json'))).toMatchObject({
      allowed_origins: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'],
    });
  });

  it('copies the server with its chunks (replacing an earlier build’s), and uninstall removes them', () => {
    const s = sandbox();
    const chunks = join(s.root, 'tether', 'host', 'chunks');
    mkdirSync(chunks, { recursive: true });
    writeFileSync(join(chunks, 'browserLinks-OLD.js'), '// an earlier build\n');
    const written = install(s.plan(['--browser', 'chrome']), s.print);
    expect(written).toContain(join(s.root, 'tether', 'host', 'tether-mcp.js'));
    expect(readdirSync(chunks)).toEqual(['browserLinks-NEW.js']);
    expect(uninstall(s.plan([]), s.print)).toContain(chunks);
    expect(existsSync(chunks)).toBe(false);
  });

  it('finds no Firefox where neither folder exists, and says how to name it', () => {
    const s = sandbox();
    const plan = s.plan([]);
    expect(plan.targets).toEqual([]);
    install(plan, s.print);
    expect(s.lines.join('\n')).toContain('--browser chrome|chromium|edge|brave|firefox|all');
  });

  it('uninstall removes Firefox’s manifest (only Tether’s) from the same home, and leaves another host’s alone', () => {
    const s = sandbox(['.mozilla']);
    install(s.plan([]), s.print);
    const other = join(s.home, '.mozilla', 'native-messaging-hosts', 'other.host.json');
    writeFileSync(other, JSON.stringify({ name: 'other.host' }));
    const removed = uninstall(s.plan([]), s.print);
    expect(removed).toContain(firefoxManifestFile(s.home));
    expect(existsSync(firefoxManifestFile(s.home))).toBe(false);
    expect(existsSync(other)).toBe(true);
  });
});
