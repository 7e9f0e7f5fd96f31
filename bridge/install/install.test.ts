import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIREFOX_ADDON_ID, TETHER_EXTENSION_ID } from '../../shared/native/nativeProtocol.ts';
import { describePlan, install, planInstall, planInstallFor, uninstall, type InstallInputs, type InstallPlan } from './install.ts';

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
  const plan = (argv: string[]) => planInstall(argv, env, { hostSource: join(built, 'tether-host.js') });
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

/** The plan alone (nothing touched): a made-up account on each platform, with these browser folders present. */
function planFor(
  platform: NodeJS.Platform,
  account: { username: string; home: string },
  present: string[],
  argv: string[] = [],
  env: NodeJS.ProcessEnv = {},
): InstallPlan {
  const win = platform === 'win32';
  const inputs: InstallInputs = {
    argv,
    platform,
    env,
    account,
    node: win ? 'C:\\Program Files\\nodejs\\node.exe' : '/usr/bin/node',
    hostSource: win
      ? `${account.home}\\AppData\\Local\\npm-cache\\_npx\\1a2b\\node_modules\\tether-mcp\\dist-bridge\\tether-host.js`
      : '/opt/tether/dist-bridge/tether-host.js',
    bundle: { server: true, chunks: ['browserLinks-AB12.js'] },
    exists: (path) => present.includes(path),
  };
  return planInstallFor(inputs);
}

const runs = (plan: InstallPlan) => plan.steps.flatMap((step) => (step.kind === 'run' ? [step.command] : []));
const files = (plan: InstallPlan) => plan.steps.flatMap((step) => (step.kind === 'file' ? [step.path] : step.kind === 'copy' && !step.quiet ? [step.to] : []));
const fileText = (plan: InstallPlan, path: string) => {
  const step = plan.steps.find((one) => one.kind === 'file' && one.path === path);
  return step?.kind === 'file' ? step.text : '';
};

describe('the install plan, by platform (nothing is touched)', () => {
  const kim = { username: '김 철수', home: 'C:\\Users\\김 철수' };
  const local = 'C:\\Users\\김 철수\\AppData\\Local';
  const tether = `${local}\\Tether`;
  const env = { SystemRoot: 'C:\\WINDOWS', USERDOMAIN: 'KIM-PC' };

  it('win32: the host, a .cmd launcher, a manifest per browser found in Tether’s folder, each registered with reg.exe under HKCU', () => {
    const plan = planFor('win32', kim, [`${local}\\Google\\Chrome\\User Data`, `${local}\\Microsoft\\Edge\\User Data`], [], env);
    expect(plan.targets.map((target) => target.id)).toEqual(['chrome', 'edge']);
    expect(plan.home).toBe(tether);
    expect(plan.configDir).toBe(`${tether}\\config`);
    expect(files(plan)).toEqual([
      `${tether}\\host\\tether-host.js`,
      `${tether}\\host\\tether-mcp.js`,
      `${tether}\\host\\tether-host.cmd`,
      `${tether}\\host\\manifests\\chrome\\dev.tether.host.json`,
      `${tether}\\host\\manifests\\edge\\dev.tether.host.json`,
    ]);
    expect(runs(plan)).toEqual([
      [
        'C:\\WINDOWS\\System32\\reg.exe',
        'add',
        'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host',
        '/ve',
        '/t',
        'REG_SZ',
        '/d',
        `${tether}\\host\\manifests\\chrome\\dev.tether.host.json`,
        '/f',
      ],
      [
        'C:\\WINDOWS\\System32\\reg.exe',
        'add',
        'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.host',
        '/ve',
        '/t',
        'REG_SZ',
        '/d',
        `${tether}\\host\\manifests\\edge\\dev.tether.host.json`,
        '/f',
      ],
    ]);
    // The manifests name the launcher by absolute path, and only Tether's extension.
    expect(JSON.parse(fileText(plan, `${tether}\\host\\manifests\\edge\\dev.tether.host.json`))).toEqual({
      name: 'dev.tether.host',
      description: expect.any(String),
      path: `${tether}\\host\\tether-host.cmd`,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${TETHER_EXTENSION_ID}/`],
    });
    // The launcher: ASCII, CRLF, the Korean profile reached through %~dp0.
    const launcher = fileText(plan, `${tether}\\host\\tether-host.cmd`);
    expect(launcher).toMatch(/^[\x20-\x7e\r\n]*$/);
    expect(launcher).toContain('"C:\\Program Files\\nodejs\\node.exe" "%~dp0tether-host.js" --allow');
    expect(launcher).toContain('--run-dir "%~dp0..\\run" --config-dir "%~dp0..\\config" --log "%~dp0..\\host.log" -- %*');
    // Under the profile: no icacls (the profile's ACL is inherited); the printed plan says what runs.
    expect(describePlan(plan, 'install')).toContain(
      `run     C:\\WINDOWS\\System32\\reg.exe add HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host /ve /t REG_SZ /d "${tether}\\host\\manifests\\chrome\\dev.tether.host.json" /f`,
    );
  });

  it('win32: Firefox too (its own key, its manifest naming the add-on id, in a file Firefox passes back by name)', () => {
    const plan = planFor('win32', kim, [`${kim.home}\\AppData\\Roaming\\Mozilla\\Firefox`], [], env);
    expect(plan.targets.map((target) => target.id)).toEqual(['firefox']);
    const manifest = `${tether}\\host\\manifests\\firefox\\dev.tether.host.json`;
    expect(JSON.parse(fileText(plan, manifest))).toMatchObject({ path: `${tether}\\host\\tether-host.cmd`, allowed_extensions: [FIREFOX_ADDON_ID] });
    expect(runs(plan)).toEqual([
      ['C:\\WINDOWS\\System32\\reg.exe', 'add', 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.tether.host', '/ve', '/t', 'REG_SZ', '/d', manifest, '/f'],
    ]);
  });

  it('win32: uninstall deletes every browser’s key (when reg query finds it), Tether’s manifests and the installed host', () => {
    const plan = planFor('win32', kim, [`${local}\\Google\\Chrome\\User Data`], [], env);
    // Each browser once, the one installed for among them.
    expect(plan.uninstall.filter((step) => step.kind === 'remove-manifest')).toHaveLength(5);
    const unregister = plan.uninstall.flatMap((step) => (step.kind === 'unregister' ? [step.remove] : []));
    expect(unregister.map((command) => command[2])).toEqual([
      'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host',
      'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.tether.host',
      'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.host',
      'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\dev.tether.host',
      'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.tether.host',
    ]);
    expect(unregister.every((command) => command[0] === 'C:\\WINDOWS\\System32\\reg.exe' && command[1] === 'delete' && command[3] === '/f')).toBe(true);
    expect(plan.uninstall.filter((step) => step.kind === 'remove').map((step) => step.path)).toEqual(
      ['tether-host.cmd', 'tether-host.js', 'tether-mcp.js', 'chunks', 'manifests'].map((name) => `${tether}\\host\\${name}`),
    );
    // Carried out with a stand-in for reg.exe: only the key that is there is deleted, and the command printed.
    const ran: string[][] = [];
    const lines: string[] = [];
    const run = (command: string[]) => {
      ran.push(command);
      const isChrome = command[2]?.includes('Google\\Chrome') === true;
      return { status: command[1] === 'query' ? (isChrome ? 0 : 1) : 0, output: '' };
    };
    expect(uninstall(plan, (line) => lines.push(line), run)).toEqual(['HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host']);
    expect(ran.filter((command) => command[1] === 'delete')).toHaveLength(1);
    expect(lines).toEqual(['ran C:\\WINDOWS\\System32\\reg.exe delete HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host /f']);
  });

  it('win32: a Tether folder outside the profile is narrowed with icacls before anything is written there; --browser-profile-dir is refused', () => {
    const plan = planFor('win32', kim, [], ['--browser', 'chrome'], { ...env, TETHER_HOME: 'D:\\tether', TETHER_CONFIG_DIR: 'E:\\tether config' });
    expect(runs(plan).filter((command) => command[0]?.endsWith('icacls.exe'))).toEqual([
      ['C:\\WINDOWS\\System32\\icacls.exe', 'D:\\tether', '/inheritance:r', '/grant:r', 'KIM-PC\\김 철수:(OI)(CI)F'],
      ['C:\\WINDOWS\\System32\\icacls.exe', 'E:\\tether config', '/inheritance:r', '/grant:r', 'KIM-PC\\김 철수:(OI)(CI)F'],
    ]);
    const kinds = plan.steps.map((step) => (step.kind === 'run' ? `run ${step.command[0]?.split('\\').pop()}` : step.kind));
    expect(kinds.slice(0, 2)).toEqual(['folder', 'run icacls.exe']);
    expect(kinds.indexOf('token')).toBeGreaterThan(kinds.lastIndexOf('run icacls.exe'));
    expect(() => planFor('win32', kim, [], ['--browser-profile-dir', 'C:\\p'], env)).toThrow(/registry.*--browser-profile-dir is for Linux and macOS/);
  });

  it.each([
    [
      'linux',
      { username: 'a', home: '/home/a' },
      '/home/a/.config/google-chrome',
      '/home/a/.tether',
      '/home/a/.config/google-chrome/NativeMessagingHosts/dev.tether.host.json',
    ],
    [
      'darwin',
      { username: 'a', home: '/Users/a' },
      '/Users/a/Library/Application Support/Google/Chrome',
      '/Users/a/.tether',
      '/Users/a/Library/Application Support/Google/Chrome/NativeMessagingHosts/dev.tether.host.json',
    ],
  ] as const)('%s: files only — the manifest in the browser’s own folder, a shell launcher, no command run', (platform, account, chrome, home, manifest) => {
    const plan = planFor(platform, account, [chrome]);
    expect(files(plan)).toEqual([`${home}/host/tether-host.js`, `${home}/host/tether-mcp.js`, `${home}/host/tether-host`, manifest]);
    expect(runs(plan)).toEqual([]);
    expect(plan.uninstall.some((step) => step.kind === 'unregister')).toBe(false);
    expect(fileText(plan, `${home}/host/tether-host`)).toMatch(/^#!\/bin\/sh\n/);
    expect(JSON.parse(fileText(plan, manifest))).toMatchObject({ path: `${home}/host/tether-host` });
  });
});
