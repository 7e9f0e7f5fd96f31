import { describe, expect, it } from 'vitest';
import { folderProtection, isInside, runDirOf, tetherHomeOf } from './runDir.ts';

const kim = { username: '김 철수', home: 'C:\\Users\\김 철수' };

describe('Tether’s folders on each platform', () => {
  it.each([
    ['win32', {}, 'C:\\Users\\김 철수', 'C:\\Users\\김 철수\\AppData\\Local\\Tether', 'C:\\Users\\김 철수\\AppData\\Local\\Tether\\run'],
    ['linux', {}, '/home/a', '/home/a/.tether', '/home/a/.tether/run'],
    ['darwin', {}, '/Users/a', '/Users/a/.tether', '/Users/a/.tether/run'],
    ['win32', { TETHER_HOME: 'D:\\tether' }, 'C:\\Users\\a', 'D:\\tether', 'D:\\tether\\run'],
    ['linux', { TETHER_HOME: '/t' }, '/home/a', '/t', '/t/run'],
  ] as const)('%s with %j, home %s → %s', (platform, env, home, tether, run) => {
    expect(tetherHomeOf(platform, env, home)).toBe(tether);
    expect(runDirOf(tether, platform)).toBe(run);
  });

  it('tells inside from outside as Windows does (any letter case, no prefix tricks)', () => {
    expect(isInside('win32', 'c:\\users\\김 철수\\appdata\\local\\tether', kim.home)).toBe(true);
    expect(isInside('win32', 'C:\\Users\\김 철수', kim.home)).toBe(true);
    expect(isInside('win32', 'C:\\Users\\김 철수2\\x', kim.home)).toBe(false);
    expect(isInside('win32', 'C:\\Users\\김 철수\\..\\lee\\x', kim.home)).toBe(false);
    expect(isInside('linux', '/home/A/x', '/home/a')).toBe(false);
  });
});

describe('how a folder is kept the user’s alone', () => {
  it.each([
    ['linux', '/home/a/.config/tether', { kind: 'modes' }],
    ['darwin', '/Users/a/.config/tether', { kind: 'modes' }],
    // Under the profile: its ACL (the user, SYSTEM, Administrators) is inherited and relied on.
    ['win32', 'C:\\Users\\김 철수\\AppData\\Local\\Tether\\config', { kind: 'profile' }],
  ] as const)('%s: %s → %j', (platform, dir, expected) => {
    expect(folderProtection(platform, dir, kim, {})).toEqual(expected);
  });

  it('narrows a Windows folder outside the profile with icacls: inheritance off, full control for this account only', () => {
    expect(folderProtection('win32', 'D:\\tether config', kim, { SystemRoot: 'C:\\WINDOWS', USERDOMAIN: 'KIM-PC' })).toEqual({
      kind: 'restrict',
      command: ['C:\\WINDOWS\\System32\\icacls.exe', 'D:\\tether config', '/inheritance:r', '/grant:r', 'KIM-PC\\김 철수:(OI)(CI)F'],
    });
    expect(folderProtection('win32', 'D:\\t', kim, {})).toMatchObject({
      command: ['C:\\Windows\\System32\\icacls.exe', 'D:\\t', '/inheritance:r', '/grant:r', '김 철수:(OI)(CI)F'],
    });
  });
});
