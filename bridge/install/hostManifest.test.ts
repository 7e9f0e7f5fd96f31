import { describe, expect, it } from 'vitest';
import { callerAllowed, parseHostArgs } from '../native/hostArgs.ts';
import { batchWord, browserTargets, hostManifest, launcherScript, manifestFile, profileDirTarget, shellWord, windowsLauncher } from './hostManifest.ts';

describe('where each browser reads host manifests', () => {
  it.each([
    [
      'linux',
      undefined,
      ['/home/a/.config/google-chrome', '/home/a/.config/chromium', '/home/a/.config/microsoft-edge', '/home/a/.config/BraveSoftware/Brave-Browser'],
    ],
    ['linux', '/xdg', ['/xdg/google-chrome', '/xdg/chromium', '/xdg/microsoft-edge', '/xdg/BraveSoftware/Brave-Browser']],
    [
      'darwin',
      undefined,
      [
        '/home/a/Library/Application Support/Google/Chrome',
        '/home/a/Library/Application Support/Chromium',
        '/home/a/Library/Application Support/Microsoft Edge',
        '/home/a/Library/Application Support/BraveSoftware/Brave-Browser',
      ],
    ],
  ] as const)('%s (XDG_CONFIG_HOME %s)', (platform, xdg, dirs) => {
    const targets = browserTargets({ platform, home: '/home/a', xdgConfigHome: xdg }).filter((target) => target.family === 'chromium');
    expect(targets.map((target) => target.id)).toEqual(['chrome', 'chromium', 'edge', 'brave']);
    expect(targets.map((target) => target.userDataDir)).toEqual(dirs);
    expect(targets.map((target) => manifestFile(target))).toEqual(dirs.map((dir) => `${dir}/NativeMessagingHosts/dev.tether.host.json`));
  });

  it.each([
    ['linux', undefined, '/home/a/.mozilla', ['/home/a/.config/mozilla'], '/home/a/.mozilla/native-messaging-hosts/dev.tether.host.json'],
    // Firefox reads host manifests from ~/.mozilla whatever XDG_CONFIG_HOME says; that folder only tells it is used here.
    ['linux', '/xdg', '/home/a/.mozilla', ['/xdg/mozilla'], '/home/a/.mozilla/native-messaging-hosts/dev.tether.host.json'],
    [
      'darwin',
      undefined,
      '/home/a/Library/Application Support/Firefox',
      undefined,
      '/home/a/Library/Application Support/Mozilla/NativeMessagingHosts/dev.tether.host.json',
    ],
  ] as const)('Firefox on %s (XDG_CONFIG_HOME %s)', (platform, xdg, userDataDir, seenAt, file) => {
    const firefox = browserTargets({ platform, home: '/home/a', xdgConfigHome: xdg }).find((target) => target.id === 'firefox');
    expect(firefox).toMatchObject({ label: 'Firefox', family: 'firefox', userDataDir });
    expect(firefox?.seenAt).toEqual(seenAt);
    expect(firefox && manifestFile(firefox)).toBe(file);
  });

  it('knows no folders on other systems, and follows --user-data-dir for a profile folder', () => {
    expect(browserTargets({ platform: 'freebsd', home: '/home/a' })).toEqual([]);
    expect(manifestFile(profileDirTarget('/tmp/p'))).toBe('/tmp/p/NativeMessagingHosts/dev.tether.host.json');
  });

  it('on Windows: each browser’s registry key under HKCU, its manifest in Tether’s own folder, its profile folder where it keeps it', () => {
    const home = 'C:\\Users\\김 철수';
    const targets = browserTargets({ platform: 'win32', home });
    const local = `${home}\\AppData\\Local`;
    const manifests = `${local}\\Tether\\host\\manifests`;
    expect(targets.map((target) => [target.id, target.family, target.userDataDir, target.manifestFile, target.registryKey])).toEqual([
      [
        'chrome',
        'chromium',
        `${local}\\Google\\Chrome\\User Data`,
        `${manifests}\\chrome\\dev.tether.host.json`,
        'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.host',
      ],
      [
        'chromium',
        'chromium',
        `${local}\\Chromium\\User Data`,
        `${manifests}\\chromium\\dev.tether.host.json`,
        'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.tether.host',
      ],
      [
        'edge',
        'chromium',
        `${local}\\Microsoft\\Edge\\User Data`,
        `${manifests}\\edge\\dev.tether.host.json`,
        'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.host',
      ],
      [
        'brave',
        'chromium',
        `${local}\\BraveSoftware\\Brave-Browser\\User Data`,
        `${manifests}\\brave\\dev.tether.host.json`,
        'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\dev.tether.host',
      ],
      [
        'firefox',
        'firefox',
        `${home}\\AppData\\Roaming\\Mozilla\\Firefox`,
        `${manifests}\\firefox\\dev.tether.host.json`,
        'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.tether.host',
      ],
    ]);
    // TETHER_HOME moves Tether's folder, and the manifests with it.
    expect(browserTargets({ platform: 'win32', home, tetherHome: 'D:\\tether' })[0]?.manifestFile).toBe(
      'D:\\tether\\host\\manifests\\chrome\\dev.tether.host.json',
    );
  });
});

describe('the manifest and the launcher', () => {
  it('lets only the given extension ids start the host (Chromium origins; Firefox add-on ids)', () => {
    expect(hostManifest('chromium', '/h/tether-host', ['abc'])).toMatchObject({
      name: 'dev.tether.host',
      path: '/h/tether-host',
      type: 'stdio',
      allowed_origins: ['chrome-extension://abc/'],
    });
    expect(hostManifest('firefox', '/h/tether-host', ['tether@example.org'])).toMatchObject({ allowed_extensions: ['tether@example.org'] });
    expect(hostManifest('firefox', '/h/tether-host', ['x'])).not.toHaveProperty('allowed_origins');
  });

  it('writes absolute paths, quoted so nothing in them is expanded', () => {
    expect(shellWord("/it's $HOME/`x`")).toBe("'/it'\\''s $HOME/`x`'");
    const script = launcherScript({
      node: '/usr/bin/node',
      hostScript: "/h/o'k/tether-host.js",
      allow: ['chrome-extension://abc/', 'tether@example.org'],
      runDir: '/h/run',
      configDir: '/c',
      logFile: '/h/host.log',
    });
    expect(script.split('\n')[0]).toBe('#!/bin/sh');
    expect(script).toContain(
      `exec '/usr/bin/node' '/h/o'\\''k/tether-host.js' --allow 'chrome-extension://abc/' --allow 'tether@example.org' --run-dir '/h/run' --config-dir '/c' --log '/h/host.log' -- "$@"`,
    );
  });
});

describe('the Windows launcher (tether-host.cmd)', () => {
  const spec = (home: string, node = 'C:\\Program Files\\nodejs\\node.exe') => ({
    node,
    hostScript: `${home}\\AppData\\Local\\Tether\\host\\tether-host.js`,
    allow: ['chrome-extension://abc/', 'tether@example.org'],
    runDir: `${home}\\AppData\\Local\\Tether\\run`,
    configDir: `${home}\\AppData\\Local\\Tether\\config`,
    logFile: `${home}\\AppData\\Local\\Tether\\host.log`,
  });
  const hostDir = (home: string) => `${home}\\AppData\\Local\\Tether\\host`;

  it('quotes paths with spaces, names node by absolute path, echoes nothing, and passes the browser’s arguments after "--"', () => {
    const home = 'C:\\Users\\Kim Chul';
    const text = windowsLauncher(spec(home), hostDir(home));
    expect(text.split('\r\n')[0]).toBe('@echo off');
    expect(text.split('\r\n')).toContain(
      `"C:\\Program Files\\nodejs\\node.exe" "${home}\\AppData\\Local\\Tether\\host\\tether-host.js" --allow "chrome-extension://abc/" --allow "tether@example.org" --run-dir "${home}\\AppData\\Local\\Tether\\run" --config-dir "${home}\\AppData\\Local\\Tether\\config" --log "${home}\\AppData\\Local\\Tether\\host.log" -- %*`,
    );
  });

  it('stays ASCII for a Korean user name: paths in the profile are written relative to the launcher’s folder (%~dp0)', () => {
    const home = 'C:\\Users\\김 철수';
    // node from nvm-windows, in the profile too.
    const text = windowsLauncher(spec(home, `${home}\\AppData\\Roaming\\nvm\\v22.12.0\\node.exe`), hostDir(home));
    expect(text).toMatch(/^[\x20-\x7e\r\n]*$/);
    expect(text.split('\r\n')).toContain(
      '"%~dp0..\\..\\..\\Roaming\\nvm\\v22.12.0\\node.exe" "%~dp0tether-host.js" --allow "chrome-extension://abc/" --allow "tether@example.org" --run-dir "%~dp0..\\run" --config-dir "%~dp0..\\config" --log "%~dp0..\\host.log" -- %*',
    );
  });

  it('refuses, saying what to do, a path it can write neither in ASCII nor relative to its folder; doubles % signs', () => {
    const home = 'C:\\Users\\김 철수';
    expect(() => windowsLauncher(spec(home, 'D:\\도구\\node.exe'), hostDir(home))).toThrow(/cannot be written into the Windows launcher.*C:\\Program Files/);
    expect(batchWord('C:\\50%\\node.exe', 'C:\\x')).toBe('"C:\\50%%\\node.exe"');
    expect(batchWord('C:\\Users\\김\\a b\\x.js', 'C:\\Users\\김\\t')).toBe('"%~dp0..\\a b\\x.js"');
    expect(batchWord('C:\\Users\\김\\x.js', 'D:\\t')).toBeNull();
  });
});

describe('the host’s command line', () => {
  it('reads the launcher’s flags, then the browser’s arguments', () => {
    const options = parseHostArgs([
      '--allow',
      'chrome-extension://abc/',
      '--run-dir',
      '/r',
      '--config-dir',
      '/c',
      '--log',
      '/l',
      '--',
      'chrome-extension://abc/',
      '--parent-window=0',
    ]);
    expect(options).toEqual({
      allow: ['chrome-extension://abc/'],
      runDir: '/r',
      configDir: '/c',
      logFile: '/l',
      browserArgs: ['chrome-extension://abc/', '--parent-window=0'],
    });
  });

  it('allows Tether’s own ids when the launcher names none', () => {
    expect(parseHostArgs(['chrome-extension://x/']).allow).toEqual(['chrome-extension://lmdeipcgcniedmmnmekpfbklipnogfgp/', 'tether@tether-mcp']);
  });

  it('reads Firefox’s arguments (the manifest’s path, the add-on id) after the launcher’s flags', () => {
    const firefox = ['/home/a/.mozilla/native-messaging-hosts/dev.tether.host.json', 'tether@tether-mcp'];
    const options = parseHostArgs(['--allow', 'chrome-extension://abc/', '--allow', 'tether@tether-mcp', '--run-dir', '/r', '--', ...firefox]);
    expect(options.browserArgs).toEqual(firefox);
    expect(callerAllowed(options.browserArgs, options.allow)).toBe(true);
  });

  it('reads Firefox’s arguments on Windows (a C:\\ path to Tether’s manifest, the add-on id)', () => {
    const manifest = 'C:\\Users\\김 철수\\AppData\\Local\\Tether\\host\\manifests\\firefox\\dev.tether.host.json';
    expect(callerAllowed([manifest, 'tether@example.org'], ['tether@example.org'], 'win32')).toBe(true);
    expect(callerAllowed(['manifests\\firefox\\dev.tether.host.json', 'tether@example.org'], ['tether@example.org'], 'win32')).toBe(false);
    expect(callerAllowed([manifest.replace('dev.tether.host', 'other.host'), 'tether@example.org'], ['tether@example.org'], 'win32')).toBe(false);
    expect(callerAllowed(['chrome-extension://abc/', '--parent-window=0'], ['chrome-extension://abc/'], 'win32')).toBe(true);
  });

  it.each([
    [['chrome-extension://abc/'], true],
    [['chrome-extension://abc/', '--parent-window=12'], true],
    [['/home/a/.mozilla/native-messaging-hosts/dev.tether.host.json', 'tether@example.org'], true],
    [['chrome-extension://abd/'], false],
    [['chrome-extension://abc'], false],
    [['chrome-extension://abc/x'], false],
    [['/manifest.json', 'other@example.org'], false],
    [['/manifest.json', 'chrome-extension://abc/'], false],
    // Firefox's form, and only it: Tether's manifest by absolute path, then an allowed add-on id, nothing more.
    [['/manifest.json', 'tether@example.org'], false],
    [['/m/other.host.json', 'tether@example.org'], false],
    [['dev.tether.host.json', 'tether@example.org'], false],
    [['/m/dev.tether.host.json', 'tether@example.org', 'more'], false],
    [['/m/dev.tether.host.json', 'chrome-extension://abc/'], false],
    [['/m/dev.tether.host.json', 'tether@example.org/'], false],
    [['tether@example.org'], false],
    [['tether@example.org', 'tether@example.org'], false],
    [['chrome-extension://abd/', 'tether@example.org'], false],
    [[], false],
  ])('%j → %s', (args, allowed) => {
    expect(callerAllowed(args, ['chrome-extension://abc/', 'tether@example.org'])).toBe(allowed);
  });
});
