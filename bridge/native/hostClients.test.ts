import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverPairing } from '../../shared/link/pairingHandshake.ts';
import type { PairedConnection } from '../../shared/link/pairedConnection.ts';
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { LOST_GRACE_MS, NativeHosts } from './hostClients.ts';
import { pairStream } from './streamFrames.ts';

const TOKEN = 'native-hosts-test-token-0123456789';
let next = 1;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface FakeHost {
  path: string;
  requests: Array<{ id: string; tool: string }>;
  /** The hub ports bridges offered this host (`hub` messages), in order. */
  hubs: Array<number | null>;
  close(): Promise<void>;
}

/** A host as far as bridges can tell: it pairs with `token`, says its profile, and answers with `answer` (or never). */
async function fakeHost(dir: string, profile: string, options: { token?: string; answer?: boolean } = {}): Promise<FakeHost> {
  const n = next++;
  const path = join(dir, `h-${90000 + n}.sock`);
  const aside = join(dir, `.h-${n}.tmp`);
  const requests: FakeHost['requests'] = [];
  const hubs: FakeHost['hubs'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const connection: PairedConnection = pairStream(
      socket,
      serverPairing(options.token ?? TOKEN, 'fake host', false),
      {
        paired: () => void connection.send({ type: 'profile', profile: { id: profile, label: profile } }),
        message: (value) => {
          if ((value as { type?: unknown }).type === 'hub') {
            hubs.push((value as { port: number | null }).port);
            return;
          }
          const request = value as { id: string; tool: string };
          requests.push(request);
          if (options.answer !== false)
            void connection.send({ type: 'response', id: request.id, envelope: { ok: true, result: { from: profile }, meta: { tool: request.tool } } });
        },
        failed: () => undefined,
        closed: () => sockets.delete(socket),
      },
      () => undefined,
    );
  });
  await new Promise<void>((done) => server.listen(aside, done));
  renameSync(aside, path);
  return {
    path,
    requests,
    hubs,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

function start(dir: string): { hosts: NativeHosts; logs: string[] } {
  const logs: string[] = [];
  const hosts = new NativeHosts(dir, TOKEN, 'test', (line) => logs.push(line));
  expect(hosts.start()).toBe(true);
  cleanups.push(() => hosts.close());
  return { hosts, logs };
}

const context = (profile: string) => ({ tool: 'context' as const, args: { profile } });

describe('NativeHosts', () => {
  it('finds hosts already there and those that appear later (fs.watch), and routes by profile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-run-'));
    const early = await fakeHost(dir, 'pr_a');
    const { hosts } = start(dir);
    const late = await fakeHost(dir, 'pr_b');
    cleanups.push(
      () => void early.close(),
      () => void late.close(),
    );
    await hosts.settle('pr_b');
    // Every host found has paired, or failed, once nothing is connecting any more.
    await hosts.settle(undefined);
    expect(
      hosts
        .serving()
        .map((peer) => peer.profile?.id)
        .sort(),
    ).toEqual(['pr_a', 'pr_b']);
    const answer = (await hosts.ask(hosts.peerFor('pr_b') ?? (null as never), context('pr_b'))) as Extract<Envelope, { ok: true }>;
    expect(answer.result).toEqual({ from: 'pr_b' });
    expect(early.requests).toEqual([]);
  });

  it('offers every host the hub port this bridge holds, to hosts found later too, and withdraws it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-run-'));
    const first = await fakeHost(dir, 'pr_a');
    const { hosts } = start(dir);
    await hosts.settle('pr_a');
    // Not the hub (yet): nothing offered.
    expect(first.hubs).toEqual([]);
    hosts.offerHub(17345);
    hosts.offerHub(17345);
    await expect.poll(() => first.hubs).toEqual([17345]);
    const second = await fakeHost(dir, 'pr_b');
    await hosts.settle('pr_b');
    await expect.poll(() => second.hubs).toEqual([17345]);
    hosts.offerHub(null);
    await expect
      .poll(() => [first.hubs, second.hubs])
      .toEqual([
        [17345, null],
        [17345, null],
      ]);
    await first.close();
    await second.close();
  });

  it('ends a call at once when its host goes, and waits a moment for the profile’s next host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-run-'));
    const silent = await fakeHost(dir, 'pr_a', { answer: false });
    const { hosts } = start(dir);
    await hosts.settle('pr_a');
    const asking = hosts.ask(hosts.peerFor('pr_a') ?? (null as never), context('pr_a'));
    await expect.poll(() => silent.requests.length).toBe(1);
    await silent.close();
    expect(await asking).toMatchObject({ ok: false, error: { code: 'browser_not_connected', details: { inFlight: true } } });
    // A call for the lost profile waits for its new host instead of failing.
    const waiting = hosts.settle('pr_a');
    const replacement = await fakeHost(dir, 'pr_a');
    cleanups.push(() => void replacement.close());
    await waiting;
    expect(hosts.peerFor('pr_a')?.path).toBe(replacement.path);
  });

  it('waits no longer than the grace for a profile that does not come back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-run-'));
    const host = await fakeHost(dir, 'pr_a');
    const { hosts } = start(dir);
    await hosts.settle('pr_a');
    await host.close();
    await expect.poll(() => hosts.peerFor('pr_a')).toBeNull();
    const started = Date.now();
    await hosts.settle('pr_a');
    expect(Date.now() - started).toBeLessThan(LOST_GRACE_MS + 500);
    // A profile never seen: no wait at all.
    const unknown = Date.now();
    await hosts.settle('pr_never');
    expect(Date.now() - unknown).toBeLessThan(200);
  });

  it('trusts no socket that cannot prove the token, and removes sockets nobody listens on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-run-'));
    const squatter = await fakeHost(dir, 'pr_evil', { token: 'a-token-the-squatter-guessed-000' });
    const stale = join(dir, 'h-1.sock');
    const { hosts, logs } = start(dir);
    cleanups.push(() => void squatter.close());
    // A socket file whose program was killed (nobody unlinked it): it refuses connections.
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((done) => holder.stdout?.once('data', done));
    holder.kill('SIGKILL');
    await new Promise((done) => holder.once('exit', done));
    hosts.scan();
    await hosts.settle(undefined);
    await expect.poll(() => logs.some((line) => line.includes(`${squatter.path} closed before pairing`))).toBe(true);
    expect(hosts.serving()).toEqual([]);
    expect(squatter.requests).toEqual([]);
    // Every later look at the folder (each call lists it) tries it again; one that refuses is removed.
    await expect
      .poll(() => {
        hosts.scan();
        return existsSync(stale);
      })
      .toBe(false);
  });
});
