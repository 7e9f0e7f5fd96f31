import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverPairing } from '../../shared/link/pairingHandshake.ts';
import type { PairedConnection } from '../../shared/link/pairedConnection.ts';
import {
  hostChannelFor,
  isGoneError,
  isHostEntryName,
  listenAndPublish,
  publicationOf,
  resolveEntry,
  unpublish,
  userTag,
  windowsPipePrefix,
  type EntryFacts,
  type HostChannel,
} from './hostChannel.ts';
import { NativeHosts } from './hostClients.ts';
import { pairStream } from './streamFrames.ts';

/** A Windows user with a space and Korean letters in the name, as many have. */
const kim = { username: '김 철수', home: 'C:\\Users\\김 철수' };
const RUN = 'C:\\Users\\김 철수\\AppData\\Local\\Tether\\run';
const NONCE = '0123456789abcdef0123456789abcdef';

describe('which channel, and the pipe’s name', () => {
  it.each([
    ['win32', 'pipe'],
    ['linux', 'socket'],
    ['darwin', 'socket'],
  ] as const)('%s → %s', (platform, kind) => {
    expect(hostChannelFor(platform, '/r', kim).kind).toBe(kind);
  });

  it('names a Windows pipe per user: \\\\.\\pipe\\tether-<16 hex of the account>-<pid>-<128 random bits>, local, under 256 characters', () => {
    const prefix = windowsPipePrefix(kim);
    expect(prefix).toMatch(/^\\\\\.\\pipe\\tether-[0-9a-f]{16}-$/);
    const channel = hostChannelFor('win32', RUN, kim);
    const publication = publicationOf(channel, 4242, NONCE);
    expect(publication.listen).toBe(`${prefix}4242-${NONCE}`);
    expect(publication.listen.length).toBeLessThan(256);
    expect(publication.entry).toBe(`${RUN}\\h-4242.pipe`);
    expect(publication.aside).toBe(`${RUN}\\.h-4242.pipe.01234567.tmp`);
    expect(JSON.parse(publication.descriptor ?? '')).toEqual({ v: 1, pipe: publication.listen, pid: 4242 });
    // The same account however Windows spells its letters; another account, another tag.
    expect(userTag({ username: 'KIM', home: 'C:\\USERS\\KIM' })).toBe(userTag({ username: 'kim', home: 'c:\\users\\kim' }));
    expect(userTag({ username: 'lee', home: 'C:\\Users\\lee' })).not.toBe(userTag({ username: 'kim', home: 'C:\\Users\\kim' }));
    expect(userTag(kim)).not.toBe(userTag({ username: '김 철수', home: 'D:\\Users\\김 철수' }));
  });

  it('publishes a unix socket as itself: bound aside, renamed to h-<pid>.sock', () => {
    const publication = publicationOf(hostChannelFor('linux', '/home/a/.tether/run', { username: 'a', home: '/home/a' }), 4242, NONCE);
    expect(publication).toEqual({
      listen: '/home/a/.tether/run/.h-4242.sock.tmp',
      aside: '/home/a/.tether/run/.h-4242.sock.tmp',
      entry: '/home/a/.tether/run/h-4242.sock',
      descriptor: null,
    });
  });

  it.each([
    ['socket', 'h-12.sock', true],
    ['socket', 'h-12.pipe', false],
    ['socket', '.h-12.sock.tmp', false],
    ['socket', 'h-x.sock', false],
    ['pipe', 'h-12.pipe', true],
    ['pipe', 'h-12.sock', false],
    ['pipe', '.h-12.pipe.01234567.tmp', false],
    ['pipe', 'h-12345678901.pipe', false],
  ] as const)('a %s channel takes %s as a host entry: %s', (kind, name, expected) => {
    const channel = hostChannelFor(kind === 'pipe' ? 'win32' : 'linux', RUN, kim);
    expect(isHostEntryName(channel, name)).toBe(expected);
  });
});

describe('what a run-folder entry announces', () => {
  const pipe = hostChannelFor('win32', RUN, kim);
  const socket = hostChannelFor('linux', '/r', { username: 'a', home: '/home/a' });
  const good = `${windowsPipePrefix(kim)}4242-${NONCE}`;
  const file = (text: string, extra: Partial<EntryFacts> = {}): EntryFacts => ({ type: 'file', uid: null, size: Buffer.byteLength(text), text, ...extra });
  const descriptor = (value: unknown) => JSON.stringify(value);

  it('follows a descriptor of this user’s host to its pipe', () => {
    const text = `${descriptor({ v: 1, pipe: good, pid: 4242 })}\n`;
    expect(resolveEntry(pipe, 'h-4242.pipe', file(text), null)).toEqual({ address: good, descriptor: text });
  });

  it.each([
    ['a remote pipe (would send the user’s credentials over SMB)', descriptor({ v: 1, pipe: `\\\\evil\\pipe\\${good.slice(9)}`, pid: 4242 })],
    ['another user’s pipe', descriptor({ v: 1, pipe: `${windowsPipePrefix({ username: 'lee', home: 'C:\\Users\\lee' })}4242-${NONCE}`, pid: 4242 })],
    ['a pipe of another pid', descriptor({ v: 1, pipe: `${windowsPipePrefix(kim)}4243-${NONCE}`, pid: 4242 })],
    ['a pid that is not the file’s', descriptor({ v: 1, pipe: good, pid: 4243 })],
    ['a pipe with a short random part', descriptor({ v: 1, pipe: `${windowsPipePrefix(kim)}4242-0123`, pid: 4242 })],
    ['a pipe with more after it', descriptor({ v: 1, pipe: `${good}\\..\\other`, pid: 4242 })],
    ['a file path instead of a pipe', descriptor({ v: 1, pipe: 'C:\\Users\\김 철수\\x', pid: 4242 })],
    ['extra keys', descriptor({ v: 1, pipe: good, pid: 4242, also: 'x' })],
    ['another version', descriptor({ v: 2, pipe: good, pid: 4242 })],
    ['not JSON', 'pipe=\\\\.\\pipe\\x'],
    ['an empty file', ''],
  ])('ignores a descriptor naming %s', (_what, text) => {
    expect(resolveEntry(pipe, 'h-4242.pipe', file(text), null)).toMatchObject({ ignore: expect.any(String) });
  });

  it('ignores what is not a small file of this user, and what is gone', () => {
    const text = descriptor({ v: 1, pipe: good, pid: 4242 });
    expect(resolveEntry(pipe, 'h-4242.pipe', file(text, { type: 'other' }), null)).toEqual({ ignore: 'not a file of this user' });
    expect(resolveEntry(pipe, 'h-4242.pipe', file(text, { uid: 1001 }), 1000)).toEqual({ ignore: 'not a file of this user' });
    expect(resolveEntry(pipe, 'h-4242.pipe', file(text, { size: 4096, text: null }), null)).toEqual({ ignore: 'too large for a host descriptor' });
    expect(resolveEntry(pipe, 'h-4242.pipe', null, null)).toEqual({ ignore: 'gone' });
  });

  it('takes a unix socket of this user as its own address, nothing else', () => {
    const facts: EntryFacts = { type: 'socket', uid: 1000, size: 0, text: null };
    expect(resolveEntry(socket, 'h-1.sock', facts, 1000)).toEqual({ address: '/r/h-1.sock', descriptor: null });
    expect(resolveEntry(socket, 'h-1.sock', { ...facts, uid: 0 }, 1000)).toEqual({ ignore: 'not a socket of this user' });
    expect(resolveEntry(socket, 'h-1.sock', { ...facts, type: 'file' }, 1000)).toEqual({ ignore: 'not a socket of this user' });
  });

  it.each([
    ['socket', 'ECONNREFUSED', true],
    ['socket', 'ENOENT', false],
    ['socket', 'EACCES', false],
    ['pipe', 'ENOENT', true],
    ['pipe', 'ECONNREFUSED', false],
    ['pipe', 'EBUSY', false],
    ['pipe', 'EACCES', false],
  ] as const)('a %s whose connect fails with %s is gone: %s', (kind, code, gone) => {
    expect(isGoneError(kind === 'pipe' ? pipe : socket, code)).toBe(gone);
  });
});

// The Windows discovery for real, on this machine: a pipe channel whose "pipes" are unix sockets in
// a folder of their own, so the descriptor is written, watched, read, followed and cleaned up by
// the same code a Windows bridge runs; only the address differs.
const TOKEN = 'host-channel-test-token-0123456789';
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function pipeChannel(): { channel: HostChannel; pipes: string } {
  const runDir = join(mkdtempSync(join(tmpdir(), 'tether-run-')), 'run');
  const pipes = mkdtempSync(join(tmpdir(), 'tether-pipes-'));
  return { channel: { kind: 'pipe', platform: 'linux', runDir, pipePrefix: join(pipes, 'tether-0123456789abcdef-') }, pipes };
}

async function publishedHost(channel: HostChannel, pid: number, profile: string): Promise<{ entry: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const connection: PairedConnection = pairStream(
      socket,
      serverPairing(TOKEN, 'fake host', false),
      {
        paired: () => void connection.send({ type: 'profile', profile: { id: profile, label: profile } }),
        message: () => undefined,
        failed: () => undefined,
        closed: () => sockets.delete(socket),
      },
      () => undefined,
    );
  });
  const published = await listenAndPublish(channel, server, pid, () => undefined);
  if (!published) throw new Error('not published');
  return {
    entry: published.entry,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

describe('bridges find hosts by their descriptors (the Windows way, over unix sockets here)', () => {
  it('a host publishes h-<pid>.pipe naming its pipe; a bridge finds it at start and by the watch, pairs, and serves its profile', async () => {
    const { channel, pipes } = pipeChannel();
    const early = await publishedHost(channel, 91001, 'pr_a');
    const logs: string[] = [];
    const hosts = new NativeHosts(channel.runDir, TOKEN, 'test', (line) => logs.push(line), channel);
    expect(hosts.start()).toBe(true);
    cleanups.push(() => hosts.close());
    const late = await publishedHost(channel, 91002, 'pr_b');
    cleanups.push(
      () => void early.close(),
      () => void late.close(),
    );
    await hosts.settle('pr_b');
    await hosts.settle(undefined);
    expect(
      hosts
        .serving()
        .map((peer) => peer.profile?.id)
        .sort(),
    ).toEqual(['pr_a', 'pr_b']);
    // The run folder holds only the descriptors; the "pipes" are elsewhere, as on Windows.
    expect(readdirSync(channel.runDir).sort()).toEqual(['h-91001.pipe', 'h-91002.pipe']);
    const named = JSON.parse(readFileSync(early.entry, 'utf8')) as { pipe: string };
    expect(named.pipe.startsWith(join(pipes, 'tether-0123456789abcdef-91001-'))).toBe(true);
    expect(hosts.peerFor('pr_a')?.path).toBe(early.entry);
  });

  it('removes a descriptor whose pipe is gone, and ignores (and keeps) descriptors naming a pipe that is not its user’s', async () => {
    const { channel, pipes } = pipeChannel();
    const host = await publishedHost(channel, 91003, 'pr_a');
    await host.close();
    // The host died without taking its descriptor: its pipe is gone (ENOENT, as on Windows).
    expect(existsSync(host.entry)).toBe(true);
    const foreign = join(channel.runDir, 'h-91004.pipe');
    writeFileSync(foreign, JSON.stringify({ v: 1, pipe: join(pipes, `tether-fedcba9876543210-91004-${NONCE}`), pid: 91004 }));
    const garbage = join(channel.runDir, 'h-91005.pipe');
    writeFileSync(garbage, 'x'.repeat(2000));
    const logs: string[] = [];
    const hosts = new NativeHosts(channel.runDir, TOKEN, 'test', (line) => logs.push(line), channel);
    expect(hosts.start()).toBe(true);
    cleanups.push(() => hosts.close());
    await expect
      .poll(() => {
        hosts.scan();
        return existsSync(host.entry);
      })
      .toBe(false);
    expect(logs).toContain(
      `ignored ${foreign}: names a pipe that is not this user's Tether host (${JSON.stringify(join(pipes, `tether-fedcba9876543210-91004-${NONCE}`).slice(0, 80))})`,
    );
    expect(logs).toContain(`ignored ${garbage}: too large for a host descriptor`);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(garbage)).toBe(true);
    expect(hosts.serving()).toEqual([]);
  });

  it('a host that stops takes its descriptor away', async () => {
    const { channel } = pipeChannel();
    const server = createServer();
    const published = await listenAndPublish(channel, server, 91006, () => undefined);
    expect(published && existsSync(published.entry)).toBe(true);
    if (published) unpublish(published);
    expect(readdirSync(channel.runDir)).toEqual([]);
    await new Promise<void>((done) => server.close(() => done()));
  });
});
