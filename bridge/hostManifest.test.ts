import { describe, expect, it } from 'vitest';
import { callerAllowed, parseHostArgs } from './hostArgs.ts';
import { browserTargets, hostManifest, launcherScript, manifestFile, profileDirTarget, shellWord } from './hostManifest.ts';

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
    const targets = browserTargets({ platform, home: '/home/a', xdgConfigHome: xdg });
    expect(targets.map((target) => target.id)).toEqual(['chrome', 'chromium', 'edge', 'brave']);
    expect(targets.map((target) => target.userDataDir)).toEqual(dirs);
    expect(targets.map((target) => manifestFile(target))).toEqual(dirs.map((dir) => `${dir}/NativeMessagingHosts/dev.tether.host.json`));
  });

  it('knows no folders on other systems, and follows --user-data-dir for a profile folder', () => {
    expect(browserTargets({ platform: 'win32', home: 'C:\\Users\\a' })).toEqual([]);
    expect(manifestFile(profileDirTarget('/tmp/p'))).toBe('/tmp/p/NativeMessagingHosts/dev.tether.host.json');
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
      allowOrigins: ['chrome-extension://abc/'],
      runDir: '/h/run',
      configDir: '/c',
      logFile: '/h/host.log',
    });
    expect(script.split('\n')[0]).toBe('#!/bin/sh');
    expect(script).toContain(
      `exec '/usr/bin/node' '/h/o'\\''k/tether-host.js' --allow 'chrome-extension://abc/' --run-dir '/h/run' --config-dir '/c' --log '/h/host.log' -- "$@"`,
    );
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

  it('allows Tether’s own id when the launcher names none', () => {
    expect(parseHostArgs(['chrome-extension://x/']).allow).toEqual(['chrome-extension://lmdeipcgcniedmmnmekpfbklipnogfgp/']);
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
    [[], false],
  ])('%j → %s', (args, allowed) => {
    expect(callerAllowed(args, ['chrome-extension://abc/', 'tether@example.org'])).toBe(allowed);
  });
});
