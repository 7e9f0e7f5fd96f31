/**
 * Scenario 10: the network side of the bridge under attack, against the real hub process
 * (`tether-mcp --hub`) and the real extension. A local program without the token sends frames no
 * client library would, opens connections it never pairs, sits between the extension and the hub
 * passing the handshake through, or holds the port without ever challenging; the token file is
 * found readable by others. The hub lives on and keeps serving, the extension obeys and reveals
 * nothing, and no log line holds the token.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { CLOSE_BROKEN_SESSION, CLOSE_BUSY } from '../../shared/link/bridgeProtocol.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { blogModel, blogScene } from '../support/blogFlow.ts';
import { BIN, freePort, HubProcess } from '../support/hubProcess.ts';
import { McpAgent } from '../support/mcpAgent.ts';
import { Middleman } from '../support/middleman.ts';
import { clientFrame, closeCodeOf, openRaw, writeAll } from '../support/rawWebSocket.ts';
import type { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

const newToken = () => `net-${Date.now()}-${Math.random().toString(36).slice(2)}-token`;

async function pairWith(tether: TetherDriver, port: number, token: string): Promise<void> {
  await tether.must({ type: 'connection.set', token, port });
  await expect.poll(async () => (await tether.state()).connection.state, { timeout: 20_000 }).toBe('connected');
}

/** Context through a fresh agent process (a relay to the hub): the hub still serves, and sees this browser. */
async function hubServes(tether: TetherDriver, port: number, token: string): Promise<void> {
  const agent = await McpAgent.start({ port, token });
  try {
    const context = ok(await agent.call('context'));
    expect(context.profiles.map((profile) => profile.id)).toEqual([await tether.profileId()]);
  } finally {
    await agent.close();
  }
}

test('one hostile frame closes only its own socket: the hub lives on and keeps serving', async ({ tether }) => {
  const counts = scenarioCounts('one hostile frame never crashes the hub');
  const token = newToken();
  const hub = await HubProcess.start({ token });
  try {
    await pairWith(tether, hub.port, token);
    const attacks: Array<[string, Buffer]> = [
      ['a reserved opcode (83 80 01 02 03 04)', Buffer.from([0x83, 0x80, 0x01, 0x02, 0x03, 0x04])],
      ['invalid UTF-8 in a text frame', clientFrame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0xfd, 0x7d]), undefined, Buffer.from([1, 2, 3, 4]))],
      ['a 17 MB frame', clientFrame(0x2, Buffer.alloc(17 * 1024 * 1024, 0x61))],
      ['an unmasked client frame', Buffer.from([0x81, 0x02, 0x7b, 0x7d])],
      ['a continuation with nothing to continue', clientFrame(0x0, Buffer.from('{}'))],
      ['a fragmented ping', Buffer.from([0x09, 0x80, 0, 0, 0, 0])],
      ['a close frame with an invalid code', clientFrame(0x8, Buffer.from([0x03, 0xe7]))],
      ['RSV1 set without an extension', Buffer.from([0xc1, 0x80, 0, 0, 0, 0])],
    ];
    for (const [name, bytes] of attacks) {
      const raw = await openRaw(hub.port);
      await writeAll(raw, bytes);
      await raw.closed;
      // Still there: it completes a new upgrade, and its process has not exited.
      const probe = await openRaw(hub.port).catch(() => null);
      probe?.socket.destroy();
      expect(probe !== null && hub.alive(), `the hub after ${name}`).toBe(true);
    }
    // The browser's link was not disturbed, and a new agent is served.
    expect((await tether.state()).connection.state).toBe('connected');
    await hubServes(tether, hub.port, token);
    expect(hub.alive()).toBe(true);
    counts.sent(attacks.length);
    counts.save();
  } finally {
    await hub.stop();
  }
});

test('a program in the middle that passes the handshake through reads nothing and is not obeyed', async ({ tether, sites }) => {
  const counts = scenarioCounts('a program in the middle');
  const token = newToken();
  const hub = await HubProcess.start({ token });
  const middleman = await Middleman.start(hub.port);
  const agent = await McpAgent.start({ port: hub.port, token });
  try {
    const scene = await blogScene(tether);
    // The extension is paired with the real token, but the port it was given is the middleman's.
    await pairWith(tether, middleman.port, token);
    const watch = await untouched([scene.blog, scene.cafe], sites);
    const journalBefore = (await tether.must({ type: 'journal.list', limit: 500 })).length;

    // The agent's own read works through the middleman, which learns nothing from it.
    const page = ok(await agent.call('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.reference, read: ['post.body'] }));
    expect(page.text?.['post.body']).toContain('Volunteers meet at the north gate');
    expect(middleman.frames.some((frame) => frame.from === 'browser' && frame.binary)).toBe(true);
    for (const secret of ['Volunteers meet', 'north gate', 'post.body', scene.reference]) expect(middleman.transcript()).not.toContain(secret);

    const request = (id: string, tool: string, args: Record<string, unknown>) =>
      JSON.stringify({ type: 'request', id, tool, args: { profile: scene.profile, workspace: scene.workspace, ...args } });
    const lastSealedFromHub = () => middleman.frames.filter((frame) => frame.from === 'hub' && frame.binary).at(-1)?.data;
    const injections: Array<[string, () => string | Buffer | undefined]> = [
      [
        'a write in clear text',
        () =>
          request('mitm-write', 'act', {
            handle: scene.write,
            plan: { steps: [{ op: 'fill', field: 'title', text: 'Written by a process that never had the token', expect: { text: '' } }] },
          }),
      ],
      ['a read in clear text', () => request('mitm-read', 'inspect', { handle: scene.reference, read: ['post.body'] })],
      ['a sealed frame of the hub’s, replayed', lastSealedFromHub],
      ['bytes that look sealed', () => Buffer.from(crypto.getRandomValues(new Uint8Array(300)))],
    ];
    for (const [name, frame] of injections) {
      await expect.poll(async () => middleman.current() !== null && (await tether.state()).connection.state === 'connected', { timeout: 20_000 }).toBe(true);
      // A real request first, so the replayed frame is one the extension has seen in this session.
      ok(await agent.call('context', { profile: scene.profile }));
      const pair = middleman.current();
      const heardBefore = middleman.frames.length;
      const injected = frame();
      expect(injected, name).toBeDefined();
      middleman.inject(injected ?? '');
      // The extension drops this connection instead of answering.
      await expect.poll(() => pair?.browserClosed ?? null, { message: name }).toBe(CLOSE_BROKEN_SESSION);
      const answered = middleman.frames.slice(heardBefore).filter((seen) => seen.from === 'browser');
      expect(answered.map((seen) => seen.data.toString('latin1')).join(''), name).not.toMatch(/mitm-|Volunteers/);
    }

    // Nothing ran: no journal record of the injected requests, no page changed, nothing was read.
    const journal = (await tether.must({ type: 'journal.list', limit: 500 })) as JournalRecord[];
    expect(journal.filter((record) => (record.callId ?? '').startsWith('mitm-'))).toEqual([]);
    expect(journal.length - journalBefore).toBe(1 + injections.length);
    expect(await blogModel(scene.blog)).toEqual({ title: '', body: '' });
    await watch.check();
    // And the extension came back to the real hub, through the same port, on its own.
    await expect.poll(async () => (await tether.state()).connection.state, { timeout: 20_000 }).toBe('connected');
    ok(await agent.call('context', { profile: scene.profile }));
    counts.sent(injections.length);
    counts.save();
  } finally {
    await agent.close();
    await middleman.close();
    await hub.stop();
  }
});

test('a server that never sends its challenge is dropped within seconds, and the extension then pairs with the real hub', async ({ tether }) => {
  const counts = scenarioCounts('a server that never challenges');
  const token = newToken();
  const port = await freePort();
  const silent = new WebSocketServer({ host: '127.0.0.1', port });
  let connections = 0;
  silent.on('connection', (socket) => {
    connections += 1;
    socket.on('error', () => undefined);
  });
  await tether.must({ type: 'connection.set', token, port });
  // Dropped, then tried again a moment later (and dropped again): the state is seen between tries.
  await expect
    .poll(
      async () => {
        const { state, detail } = (await tether.state()).connection;
        return `${state}: ${detail ?? ''}`;
      },
      { timeout: 15_000 },
    )
    .toMatch(/^offline: .*did not finish Tether's pairing within a few seconds/);
  expect(connections).toBeGreaterThan(0);
  for (const client of silent.clients) client.terminate();
  await new Promise<void>((done) => silent.close(() => done()));

  const hub = await HubProcess.start({ port, token });
  try {
    await expect.poll(async () => (await tether.state()).connection.state, { timeout: 40_000 }).toBe('connected');
    await hubServes(tether, port, token);
    counts.sent(connections);
    counts.save();
  } finally {
    await hub.stop();
  }
});

test('before proving the token, a peer costs the hub a few KB: ten 16 MB frames and forty idle connections', async ({ tether }) => {
  const counts = scenarioCounts('unpaired peers hold little');
  test.setTimeout(120_000);
  const token = newToken();
  const hub = await HubProcess.start({ token });
  const idle: Array<Awaited<ReturnType<typeof openRaw>>> = [];
  try {
    await pairWith(tether, hub.port, token);
    const before = hub.memoryMb();
    // Ten connections at once, each sending one text frame just under the old 16 MiB message limit.
    const frame = clientFrame(0x1, Buffer.alloc(16 * 1024 * 1024 - 64, 0x61));
    const floods = await Promise.all(Array.from({ length: 10 }, () => openRaw(hub.port)));
    await Promise.all(floods.map((raw) => writeAll(raw, frame)));
    await Promise.all(floods.map((raw) => raw.closed));
    const after = hub.memoryMb();
    console.log(
      `hub memory: ${before.rss.toFixed(0)} MB before, peak ${before.peak.toFixed(0)} → ${after.peak.toFixed(0)} MB, ${after.rss.toFixed(0)} MB after ten 16 MB frames`,
    );
    expect(hub.alive()).toBe(true);
    expect(after.peak - before.peak).toBeLessThan(40);
    expect(after.rss - before.rss).toBeLessThan(40);

    // Forty connections that never say hello: beyond the limit, each new one closes the oldest.
    for (let index = 0; index < 40; index += 1) idle.push(await openRaw(hub.port));
    await expect.poll(() => idle.filter((raw) => closeCodeOf(raw) === CLOSE_BUSY).length).toBe(24);
    expect(idle.slice(24).every((raw) => closeCodeOf(raw) === null)).toBe(true);
    // A real client still gets in (it makes room too), and the browser was never disturbed.
    await hubServes(tether, hub.port, token);
    expect((await tether.state()).connection.state).toBe('connected');
    counts.sent(floods.length + idle.length);
    counts.save();
  } finally {
    for (const raw of idle) raw.socket.destroy();
    await hub.stop();
  }
});

function runBin(configDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TETHER_CONFIG_DIR: configDir };
  delete env.TETHER_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

test('the token file: loose modes are made private, first runs agree on one token, a planted link is refused, no log holds the token', async ({ tether }) => {
  const counts = scenarioCounts('the token file');
  const mode = (path: string) => statSync(path).mode & 0o777;
  const root = mkdtempSync(join(tmpdir(), 'tether-token-'));
  // A token someone left readable by everyone, in a folder everyone can list.
  const loose = join(root, 'loose');
  mkdirSync(loose);
  chmodSync(loose, 0o755);
  const token = newToken();
  writeFileSync(join(loose, 'token'), `${token}\n`);
  chmodSync(join(loose, 'token'), 0o644);
  const hub = await HubProcess.start({ configDir: loose });
  try {
    expect(mode(loose)).toBe(0o700);
    expect(mode(join(loose, 'token'))).toBe(0o600);
    expect(hub.stderr).toContain(join(loose, 'token'));
    expect(hub.stderr).not.toContain(token);
    // The person prints the token and pairs with it, as the README says.
    const printed = await runBin(loose, ['--print-token']);
    expect(printed.stdout.trim()).toBe(token);
    expect(printed.stderr).not.toContain(token);
    await pairWith(tether, hub.port, printed.stdout.trim());
  } finally {
    await hub.stop();
  }
  expect(hub.stderr).not.toContain(token);

  // Six first runs at once: one token, in one private file, printed by all of them.
  const fresh = join(root, 'fresh');
  const runs = await Promise.all(Array.from({ length: 6 }, () => runBin(fresh, ['--print-token'])));
  const tokens = new Set(runs.map((run) => run.stdout.trim()));
  expect(tokens.size).toBe(1);
  expect(readFileSync(join(fresh, 'token'), 'utf8')).toBe(`${[...tokens][0]}\n`);
  expect(mode(fresh)).toBe(0o700);
  expect(mode(join(fresh, 'token'))).toBe(0o600);

  // A link planted in the token file's place is refused; nothing is printed.
  const planted = join(root, 'planted');
  mkdirSync(planted, { mode: 0o700 });
  writeFileSync(join(root, 'attackers-token'), 'the-attackers-chosen-token-0123\n', { mode: 0o600 });
  symlinkSync(join(root, 'attackers-token'), join(planted, 'token'));
  const refusedRun = await runBin(planted, ['--print-token']);
  expect(refusedRun.code).not.toBe(0);
  expect(refusedRun.stdout).toBe('');
  expect(refusedRun.stderr).toContain('not a regular file');
  counts.sent(runs.length);
  counts.save();
});
