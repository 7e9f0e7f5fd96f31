/**
 * Scenario 11: the native path under attack, with the real host the browser starts and the real
 * bridge. The channel is the user's alone (modes, and another user really refused); the host
 * serves only Tether's extension id; garbage on the host's stdin, on the extension's port and on
 * the host's socket is refused and logged while everything else keeps serving; a program squatting
 * the run folder is never trusted nor sent a request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIDGE_PROTOCOL_VERSION } from '../../shared/link/bridgeProtocol.ts';
import type { PairedConnection } from '../../shared/link/pairedConnection.ts';
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { clientPairing } from '../../shared/link/pairingHandshake.ts';
import { NOT_YOUR_SESSION } from '../../bridge/sessionOwners.ts';
import { pairStream } from '../../bridge/native/streamFrames.ts';
import { FIREFOX_ADDON_ID, MAX_TO_HOST_BYTES, TETHER_EXTENSION_ID } from '../../shared/native/nativeProtocol.ts';
import { clientProof, freshNonce } from '../../shared/link/pairingProof.ts';
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { launchTether } from '../support/launchTether.ts';
import { McpAgent } from '../support/mcpAgent.ts';
import { hostLog, hostPids, hostSockets, installFor, nativeSandbox, profileMade, type NativeSandbox } from '../support/nativeSetup.ts';
import { TetherDriver } from '../support/tetherDriver.ts';
import type { RunningSites } from '../sites/server.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

const ORIGIN = `chrome-extension://${TETHER_EXTENSION_ID}/`;
const mode = (path: string) => statSync(path).mode & 0o777;

// These tests launch their own browsers (the host must be installed before): the sites start clean here.
test.beforeEach(({ sites }) => sites.reset());

/** TCP sockets a process listens on (Linux: its socket inodes in the LISTEN rows of /proc/net/tcp*). */
function listeningTcpSockets(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''];
      } catch {
        return [];
      }
    }),
  );
  expect(inodes.size).toBeGreaterThan(0);
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && inodes.has(fields[9] ?? ''))
      .map((fields) => fields[1] ?? ''),
  );
}

async function nativeBrowser(sandbox: NativeSandbox, sites: RunningSites) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
  await installFor(sandbox, userDataDir);
  const launched = await launchTether({ userDataDir });
  const tether = new TetherDriver(launched.context, launched.extensionId, sites);
  await profileMade(tether);
  await expect.poll(() => hostSockets(sandbox).length, { timeout: 20_000 }).toBe(1);
  return {
    tether,
    async close() {
      await launched.context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

function frame(value: unknown): Buffer {
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** The installed host started the way the browser starts it, with `args` as the browser's arguments; its stdout collected as native messages. */
function startHost(sandbox: NativeSandbox, args: string[]): { child: ChildProcess; messages: unknown[]; exited: Promise<number | null> } {
  const child = spawn(join(sandbox.home, 'host', 'tether-host'), args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const messages: unknown[] = [];
  let buffered = Buffer.alloc(0);
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32LE(0)) {
      const length = buffered.readUInt32LE(0);
      messages.push(JSON.parse(buffered.subarray(4, 4 + length).toString('utf8')));
      buffered = buffered.subarray(4 + length);
    }
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, messages, exited };
}

test('the channel is the user’s alone: folder 0700, sockets and token 0600, and another user cannot even reach the socket', async ({ sites }) => {
  const counts = scenarioCounts('the native channel is the user’s alone');
  const sandbox = nativeSandbox();
  const browser = await nativeBrowser(sandbox, sites);
  try {
    const [socket] = hostSockets(sandbox);
    const socketPath = join(sandbox.runDir, socket ?? '');
    expect(mode(sandbox.home)).toBe(0o700);
    expect(mode(sandbox.runDir)).toBe(0o700);
    expect(mode(socketPath)).toBe(0o600);
    expect(mode(join(sandbox.configDir, 'token'))).toBe(0o600);
    expect(mode(join(sandbox.home, 'host'))).toBe(0o700);
    // No TCP port at all on the native path: a web page has nothing to connect to.
    expect(listeningTcpSockets(Number(/h-(\d+)\.sock$/.exec(socketPath)?.[1]))).toEqual([]);
    if (process.getuid?.() === 0) {
      // As root the test can be another user for real: nobody (65534) tries the socket.
      const attempt = spawn(
        process.execPath,
        [
          '-e',
          `require('net').connect(${JSON.stringify(socketPath)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`,
        ],
        {
          uid: 65534,
          gid: 65534,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      attempt.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((done) => attempt.once('exit', done));
      expect(out.trim()).toBe('EACCES');
    }
    // A folder someone loosened is tightened again by the next bridge.
    chmodSync(sandbox.runDir, 0o755);
    const agent = await McpAgent.start({ native: sandbox });
    try {
      ok(await agent.call('context'));
      expect(mode(sandbox.runDir)).toBe(0o700);
      expect(agent.stderr.join('')).toContain('was open to other users');
    } finally {
      await agent.close();
    }
    counts.save();
  } finally {
    await browser.close();
  }
});

test('the host serves only Tether’s extension id, and removes its socket when the port closes', async () => {
  const counts = scenarioCounts('the host serves only Tether');
  const sandbox = nativeSandbox();
  await installFor(sandbox, mkdtempSync(join(tmpdir(), 'tether-profile-')));
  const strangers = [
    ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'],
    [`${ORIGIN}extra`],
    ['/home/someone/.mozilla/native-messaging-hosts/dev.tether.host.json', 'evil@example.com'],
    // Tether's Firefox add-on id, but not in Firefox's exact form (the manifest's absolute path, then the id).
    [FIREFOX_ADDON_ID],
    ['/home/someone/.mozilla/native-messaging-hosts/other.host.json', FIREFOX_ADDON_ID],
    ['/home/someone/.mozilla/native-messaging-hosts/dev.tether.host.json', FIREFOX_ADDON_ID, 'extra'],
    [],
  ];
  for (const args of strangers) {
    const host = startHost(sandbox, args);
    host.child.stdin?.write(frame({ type: 'hello', version: 1, profile: { id: 'pr_x', label: 'x' }, extension: { id: 'x', version: '0' } }));
    expect(await host.exited, JSON.stringify(args)).toBe(2);
    expect(hostSockets(sandbox)).toEqual([]);
    expect(host.messages).toEqual([]);
  }
  expect(hostLog(sandbox)).toContain('refused to serve ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]');

  // Tether's own origin: served; the socket goes when stdin closes.
  const host = startHost(sandbox, [ORIGIN]);
  host.child.stdin?.write(frame({ type: 'hello', version: 1, profile: { id: 'pr_x', label: 'x' }, extension: { id: TETHER_EXTENSION_ID, version: '0' } }));
  await expect.poll(() => hostSockets(sandbox)).toEqual([`h-${host.child.pid}.sock`]);
  host.child.stdin?.end();
  expect(await host.exited).toBe(0);
  expect(hostSockets(sandbox)).toEqual([]);

  // Firefox's form for Tether's add-on: served too.
  const firefox = startHost(sandbox, ['/home/someone/.mozilla/native-messaging-hosts/dev.tether.host.json', FIREFOX_ADDON_ID]);
  firefox.child.stdin?.write(frame({ type: 'hello', version: 1, profile: { id: 'pr_f', label: 'f' }, extension: { id: FIREFOX_ADDON_ID, version: '0' } }));
  await expect.poll(() => hostSockets(sandbox)).toEqual([`h-${firefox.child.pid}.sock`]);
  firefox.child.stdin?.end();
  expect(await firefox.exited).toBe(0);
  counts.sent(strangers.length);
  counts.save();
});

test('garbage on the host’s stdin is refused and logged; the port stays up and the host keeps serving', async () => {
  const counts = scenarioCounts('garbage on the host’s stdin');
  const sandbox = nativeSandbox();
  await installFor(sandbox, mkdtempSync(join(tmpdir(), 'tether-profile-')));
  const host = startHost(sandbox, [ORIGIN]);
  const stdin = host.child.stdin;
  if (!stdin) throw new Error('no stdin');
  const garbage = [
    frame('not json at all'),
    frame(Buffer.from([0xff, 0xfe, 0x7b]).toString('latin1')),
    frame({ type: 'response' }),
    frame({ type: 'hello', version: 1, profile: { id: '', label: 'x' } }),
    frame({ type: 'what', is: 'this' }),
  ];
  for (const bytes of garbage) stdin.write(bytes);
  // One message over the limit: its length is read, its bytes are skipped, nothing is held.
  const header = Buffer.alloc(4);
  header.writeUInt32LE(MAX_TO_HOST_BYTES + 1, 0);
  stdin.write(header);
  for (let sent = 0; sent <= MAX_TO_HOST_BYTES; sent += 4 * 1024 * 1024)
    stdin.write(Buffer.alloc(Math.min(4 * 1024 * 1024, MAX_TO_HOST_BYTES + 1 - sent), 0x7b));
  stdin.write(frame({ type: 'hello', version: 1, profile: { id: 'pr_after', label: 'After garbage' }, extension: { id: TETHER_EXTENSION_ID, version: '0' } }));
  await expect.poll(() => hostSockets(sandbox).length, { timeout: 20_000 }).toBe(1);
  expect(host.child.exitCode).toBeNull();
  // A bridge pairs and learns the profile: the host says so to the browser side.
  const agent = await McpAgent.start({ native: sandbox });
  try {
    await expect.poll(() => host.messages).toContainEqual({ type: 'bridges', count: 1 });
    // The agent's request arrives on stdout as a native message; answered there, it reaches the agent.
    const answering = agent.call('context', { profile: 'pr_after' });
    await expect.poll(() => host.messages.find((message) => (message as { type?: string }).type === 'request')).toBeTruthy();
    const request = host.messages.find((message) => (message as { type?: string }).type === 'request') as { id: string };
    stdin.write(frame({ type: 'response', id: request.id, envelope: { ok: true, result: { profiles: [{ id: 'pr_after' }] }, meta: { tool: 'context' } } }));
    expect(ok(await answering).profiles).toEqual([{ id: 'pr_after' }]);
  } finally {
    await agent.close();
  }
  const log = hostLog(sandbox);
  expect(log.match(/refused a native message from the browser/g)?.length).toBe(garbage.length + 1);
  expect(log).toContain(`${MAX_TO_HOST_BYTES + 1} bytes, over the limit`);
  stdin.end();
  expect(await host.exited).toBe(0);
  counts.sent(garbage.length);
  counts.save();
});

test('the host offers the direct link only to a worker that says it takes it, with the shared token; a bridge that goes withdraws it', async () => {
  const counts = scenarioCounts('the direct-link offer');
  for (const features of [undefined, ['direct']]) {
    const sandbox = nativeSandbox();
    await installFor(sandbox, mkdtempSync(join(tmpdir(), 'tether-profile-')));
    const host = startHost(sandbox, [ORIGIN]);
    const stdin = host.child.stdin;
    if (!stdin) throw new Error('no stdin');
    const hello = { type: 'hello', version: 1, profile: { id: 'pr_direct', label: 'Direct' }, extension: { id: TETHER_EXTENSION_ID, version: '0' } };
    stdin.write(frame(features ? { ...hello, features } : hello));
    await expect.poll(() => hostSockets(sandbox).length, { timeout: 20_000 }).toBe(1);
    const agent = await McpAgent.start({ native: sandbox });
    const offers = () => host.messages.filter((message) => (message as { type?: string }).type === 'direct');
    try {
      await expect.poll(() => host.messages).toContainEqual({ type: 'bridges', count: 1 });
      if (features) {
        // The token the host and its bridges share (the one in the config folder).
        const token = readFileSync(join(sandbox.configDir, 'token'), 'utf8').trim();
        await expect.poll(offers).toEqual([{ type: 'direct', port: agent.port, token }]);
      } else {
        // An older extension would count the offer as a message that is not Tether's: it gets none.
        // (The bridge says it holds the port before it sends any request on the same socket.)
        const answering = agent.call('context', { profile: 'pr_direct' });
        await expect.poll(() => host.messages.find((message) => (message as { type?: string }).type === 'request')).toBeTruthy();
        expect(offers()).toEqual([]);
        const request = host.messages.find((message) => (message as { type?: string }).type === 'request') as { id: string };
        stdin.write(
          frame({ type: 'response', id: request.id, envelope: { ok: true, result: { profiles: [{ id: 'pr_direct' }] }, meta: { tool: 'context' } } }),
        );
        ok(await answering);
      }
    } finally {
      await agent.close();
    }
    if (features) await expect.poll(offers).toEqual([expect.objectContaining({ port: agent.port }), { type: 'direct', port: null }]);
    else expect(offers()).toEqual([]);
    stdin.end();
    expect(await host.exited).toBe(0);
  }
  counts.save();
});

test('the host forwards each bridge’s own MCP session, refuses a bridge that claims another’s, and tells a worker that takes it which sessions ended', async () => {
  const counts = scenarioCounts('MCP sessions through the native host');
  for (const features of [['direct', 'agents'], ['direct']]) {
    const sandbox = nativeSandbox();
    await installFor(sandbox, mkdtempSync(join(tmpdir(), 'tether-profile-')));
    const host = startHost(sandbox, [ORIGIN]);
    const stdin = host.child.stdin;
    if (!stdin) throw new Error('no stdin');
    stdin.write(frame({ type: 'hello', version: 1, profile: { id: 'pr_s', label: 'S' }, extension: { id: TETHER_EXTENSION_ID, version: '0' }, features }));
    await expect.poll(() => hostSockets(sandbox).length, { timeout: 20_000 }).toBe(1);
    const path = join(sandbox.runDir, hostSockets(sandbox)[0] ?? '');
    const token = readFileSync(join(sandbox.configDir, 'token'), 'utf8').trim();
    const requests = () =>
      host.messages.filter(
        (message): message is { type: 'request'; id: string; agent?: { name: string; session: string } } => (message as { type?: string }).type === 'request',
      );
    // The worker's side: every request is answered.
    const answered = new Set<string>();
    const answering = setInterval(() => {
      for (const request of requests()) {
        if (answered.has(request.id)) continue;
        answered.add(request.id);
        stdin.write(frame({ type: 'response', id: request.id, envelope: { ok: true, result: { profiles: [] }, meta: { tool: 'context' } } }));
      }
    }, 20);
    const agent = await McpAgent.start({ native: sandbox, clientInfo: { name: 'claude-code', title: 'Claude Code', version: '2' } });
    const rogueGot: unknown[] = [];
    // A second bridge of the same user (it holds the token): it pairs with the host as any bridge does.
    const rogue = await new Promise<PairedConnection>((done, fail) => {
      const socket = connect(path);
      const connection: PairedConnection = pairStream(
        socket,
        clientPairing(token, { role: 'agent', agent: 'rogue' }),
        { paired: () => done(connection), message: (value) => rogueGot.push(value), failed: () => fail(new Error('no pairing')), closed: () => undefined },
        () => undefined,
      );
    });
    try {
      ok(await agent.call('context', { profile: 'pr_s' }));
      const claude = requests()[0]?.agent;
      expect(claude?.name).toBe('Claude Code');
      expect(claude?.session).toMatch(/^[0-9a-f]{32}$/);
      // The rogue presents Claude Code's session (here it read it off the port, as the worker sees it): refused, not forwarded.
      await rogue.send({ type: 'request', id: 'steal', tool: 'context', args: {}, agent: { name: 'Claude Code', session: claude?.session } });
      await expect
        .poll(() => rogueGot)
        .toContainEqual({
          type: 'response',
          id: 'steal',
          envelope: expect.objectContaining({ ok: false, error: { code: 'invalid_request', message: NOT_YOUR_SESSION } }),
        });
      const stolen = rogueGot.find((message) => (message as { id?: string }).id === 'steal') as { envelope: Envelope };
      counts.refused(stolen.envelope, 'invalid_request');
      expect(requests()).toHaveLength(1);
      // Under a session of its own it is served, as itself.
      const own = { name: 'Rogue', session: 'e'.repeat(32) };
      await rogue.send({ type: 'request', id: 'mine', tool: 'context', args: {}, agent: own });
      await expect.poll(() => requests().map((request) => request.agent?.name)).toEqual(['Claude Code', 'Rogue']);
      // A request that names no session (an older bridge's): the host gives that connection one of its own.
      await rogue.send({ type: 'request', id: 'old', tool: 'context', args: {} });
      await expect.poll(() => requests()).toHaveLength(3);
      // The rogue's three frames: another's session, its own, none.
      counts.sent(3);
      const unnamed = requests()[2]?.agent;
      expect(unnamed?.name).toBe('an agent (older tether-mcp)');
      expect([claude?.session, own.session]).not.toContain(unnamed?.session);
      await agent.close();
      rogue.close(1000, 'done');
      const ended = () => host.messages.filter((message) => (message as { type?: string }).type === 'ended');
      if (features.includes('agents')) {
        await expect
          .poll(() =>
            ended()
              .flatMap((message) => (message as { sessions: string[] }).sessions)
              .sort(),
          )
          .toEqual([claude?.session, own.session, unnamed?.session].sort());
      } else {
        // An older worker would count the message as not Tether's: it gets none.
        await expect
          .poll(() => host.messages.filter((message) => (message as { type?: string }).type === 'bridges').at(-1))
          .toEqual({ type: 'bridges', count: 0 });
        expect(ended()).toEqual([]);
      }
    } finally {
      clearInterval(answering);
      await agent.close();
      rogue.close(1000, 'done');
    }
    stdin.end();
    expect(await host.exited).toBe(0);
  }
  counts.save();
});

test('a malformed native message to the extension is refused and logged; the port stays up', async ({ sites }) => {
  const counts = scenarioCounts('malformed native messages to the extension');
  // A host of our own, installed for the profile: it says things no Tether host says, then asks properly.
  const dir = mkdtempSync(join(tmpdir(), 'tether-fakehost-'));
  const heard = join(dir, 'heard.jsonl');
  writeFileSync(
    join(dir, 'host.cjs'),
    `const fs = require('fs');
const send = (value) => { const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)); const head = Buffer.alloc(4); head.writeUInt32LE(body.length); process.stdout.write(Buffer.concat([head, body])); };
let buffered = Buffer.alloc(0);
process.stdin.on('data', (chunk) => { buffered = Buffer.concat([buffered, chunk]); while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32LE(0)) { const length = buffered.readUInt32LE(0); fs.appendFileSync(${JSON.stringify(heard)}, buffered.subarray(4, 4 + length).toString() + '\\n'); buffered = buffered.subarray(4 + length); } });
process.stdin.on('end', () => process.exit(0));
send('not json');
send({ type: 'nonsense', from: 'a host that is not Tether' });
send({ type: 'request', id: 'x'.repeat(500), tool: 'context', args: {} });
send({ type: 'part', id: 'p1', index: 3, last: true, data: 'AAAA' });
send({ type: 'part', id: 'p2', index: 0, last: true, data: 'not base64 at all!' });
send({ type: 'bridges', count: 0 });
send({ type: 'request', id: 'after-garbage', tool: 'context', args: {} });
`,
  );
  const launcher = join(dir, 'launcher');
  writeFileSync(launcher, `#!/bin/sh\nexec '${process.execPath}' '${join(dir, 'host.cjs')}' "$@"\n`, { mode: 0o700 });
  const userDataDir = mkdtempSync(join(tmpdir(), 'tether-profile-'));
  mkdirSync(join(userDataDir, 'NativeMessagingHosts'));
  writeFileSync(
    join(userDataDir, 'NativeMessagingHosts', 'dev.tether.host.json'),
    JSON.stringify({ name: 'dev.tether.host', description: 'x', path: launcher, type: 'stdio', allowed_origins: [ORIGIN] }),
  );
  const launched = await launchTether({ userDataDir });
  try {
    const tether = new TetherDriver(launched.context, launched.extensionId, sites);
    // The proper request after the garbage is answered: the port stayed up.
    await expect
      .poll(
        () => {
          try {
            return readFileSync(heard, 'utf8').includes('"id":"after-garbage"');
          } catch {
            return false;
          }
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const native = (await tether.state()).connection.native;
    expect(native.state).toBe('connected');
    expect(native.refused).toBe(4);
    const answer =
      readFileSync(heard, 'utf8')
        .split('\n')
        .find((line) => line.includes('after-garbage')) ?? '';
    expect(JSON.parse(answer)).toMatchObject({ type: 'response', id: 'after-garbage', envelope: { ok: true } });
    counts.save();
  } finally {
    await launched.context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
});

async function rawPeer(path: string, bytes: Buffer[]): Promise<'closed' | 'open'> {
  const socket: Socket = connect(path);
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  await new Promise((done) => socket.once('connect', done));
  for (const chunk of bytes) socket.write(chunk);
  const closed = await Promise.race([
    new Promise<'closed'>((done) => socket.once('close', () => done('closed'))),
    new Promise<'open'>((done) => setTimeout(() => done('open'), 8_000)),
  ]);
  socket.destroy();
  return closed;
}

function streamFrame(kind: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(payload.length + 1, 0);
  header[4] = kind;
  return Buffer.concat([header, payload]);
}

test('garbage on the host’s socket closes only that peer; the host, the port and other bridges keep serving', async ({ sites }) => {
  const counts = scenarioCounts('garbage on the host’s socket');
  const sandbox = nativeSandbox();
  const browser = await nativeBrowser(sandbox, sites);
  const agent = await McpAgent.start({ native: sandbox });
  try {
    const profile = await browser.tether.profileId();
    ok(await agent.call('context', { profile }));
    const [name] = hostSockets(sandbox);
    const path = join(sandbox.runDir, name ?? '');
    const [pid] = hostPids(sandbox);
    const nonce = freshNonce();
    const wrongHello = {
      type: 'hello',
      role: 'agent',
      agent: 'x',
      nonce,
      version: BRIDGE_PROTOCOL_VERSION,
      proof: await clientProof('not-the-token-at-all', {
        version: BRIDGE_PROTOCOL_VERSION,
        serverNonce: '0'.repeat(32),
        clientNonce: nonce,
        peer: { role: 'agent', agent: 'x' },
      }),
    };
    const attacks: Array<[string, Buffer[]]> = [
      ['a length of 4 GB', [Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00])]],
      ['a frame of 17 MB', [streamFrame(1, Buffer.alloc(17 * 1024 * 1024, 0x61))]],
      ['an unknown frame kind', [streamFrame(7, Buffer.from('{}'))]],
      ['invalid UTF-8 in a text frame', [streamFrame(0, Buffer.from([0x7b, 0xff, 0xfe]))]],
      ['a text frame that is not JSON', [streamFrame(0, Buffer.from('hello?'))]],
      ['sealed bytes before pairing', [streamFrame(1, Buffer.from(crypto.getRandomValues(new Uint8Array(64))))]],
      ['a hello with a wrong proof', [streamFrame(0, Buffer.from(JSON.stringify(wrongHello)))]],
    ];
    for (const [what, bytes] of attacks) {
      expect(await rawPeer(path, bytes), what).toBe('closed');
      expect(hostPids(sandbox), what).toEqual([pid]);
    }
    // Connections that never pair are capped: the oldest goes when more arrive.
    const idle = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<Socket>((done) => {
            const socket = connect(path);
            socket.on('error', () => undefined);
            socket.resume();
            socket.once('connect', () => done(socket));
          }),
      ),
    );
    await expect.poll(() => idle.filter((socket) => socket.destroyed || socket.readableEnded).length).toBeGreaterThanOrEqual(4);
    for (const socket of idle) socket.destroy();
    // Everything else unharmed: same host, the port open, the agent served.
    ok(await agent.call('context', { profile }));
    expect(hostPids(sandbox)).toEqual([pid]);
    expect((await browser.tether.state()).connection.native).toMatchObject({ state: 'connected', bridges: 1 });
    expect(hostLog(sandbox)).toContain('closed a socket that sent a frame out of protocol (oversize)');
    counts.sent(attacks.length + idle.length);
    counts.save();
  } finally {
    await agent.close();
    await browser.close();
  }
});

test('a squatter in the run folder is never trusted nor sent a request; stale sockets are removed, other files ignored', async ({ sites }) => {
  const counts = scenarioCounts('a squatter in the run folder');
  const sandbox = nativeSandbox();
  const browser = await nativeBrowser(sandbox, sites);
  // A program of the same user that publishes a socket and plays the host without the token.
  const heard: string[] = [];
  const squatter = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => heard.push(chunk.toString('latin1')));
    socket.write(streamFrame(0, Buffer.from(JSON.stringify({ type: 'challenge', nonce: '1'.repeat(32), version: BRIDGE_PROTOCOL_VERSION }))));
    setTimeout(() => socket.write(streamFrame(0, Buffer.from(JSON.stringify({ type: 'welcome', server: 'tether-host 9', proof: 'a'.repeat(64) })))), 100);
  });
  const squatterPath = join(sandbox.runDir, 'h-99999.sock');
  await new Promise<void>((done) => squatter.listen(squatterPath, done));
  // A stale socket (its program killed, so nobody unlinked it) and a plain file with a host-like name.
  const stalePath = join(sandbox.runDir, 'h-99998.sock');
  const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stalePath)}, () => console.log('up'))`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((done) => holder.stdout?.once('data', done));
  holder.kill('SIGKILL');
  await new Promise((done) => holder.once('exit', done));
  expect(statSync(stalePath).isSocket()).toBe(true);
  writeFileSync(join(sandbox.runDir, 'h-1.sock'), 'not a socket');
  const agent = await McpAgent.start({ native: sandbox });
  try {
    const profile = await browser.tether.profileId();
    const context = ok(await agent.call('context'));
    expect(context.profiles.map((one) => one.id)).toEqual([profile]);
    expect(() => statSync(stalePath)).toThrow();
    await expect.poll(() => agent.stderr.join('')).toContain(`${squatterPath} could not prove the pairing token`);
    expect(agent.stderr.join('')).toContain(`ignored ${join(sandbox.runDir, 'h-1.sock')}: not a socket of this user`);
    // The squatter heard a hello (the proof is useless elsewhere: it covers its own nonce) and nothing sealed.
    const everything = heard.join('');
    expect(everything).toContain('"type":"hello"');
    expect(everything).not.toContain('context');
    expect(everything).not.toContain(profile);
    counts.save();
  } finally {
    await agent.close();
    squatter.close();
    await browser.close();
  }
});

test('a request larger than one native message crosses in parts and arrives whole', async ({ sites }) => {
  const counts = scenarioCounts('a request in parts');
  const sandbox = nativeSandbox();
  const browser = await nativeBrowser(sandbox, sites);
  const agent = await McpAgent.start({ native: sandbox });
  try {
    const { tether } = browser;
    await tether.signIn('blog', 'alice');
    const blog = await tether.open('blog', '/write?editor=plain');
    const workspace = await tether.workspaceOf([blog], { writable: ['blog'] });
    const profile = await tether.profileId();
    const { write } = ok(await agent.call('resolve', { profile, workspace: workspace.id, destination: { site: 'blog' } }));
    ok(await agent.call('inspect', { profile, workspace: workspace.id, handle: write?.handle }));
    const watch = await untouched([blog], sites);
    // Six steps of 200,000 characters to a field that does not exist: ~1.2 MB, over the 1 MiB a
    // native message may carry toward the browser. The whole plan is checked, so every step is named.
    const steps = Array.from({ length: 6 }, (_, index) => ({
      op: 'fill',
      field: 'nope',
      text: String.fromCharCode(0x61 + index).repeat(200_000),
      expect: { text: '' },
    }));
    const answer = counts.refused(await agent.call('act', { profile, workspace: workspace.id, handle: write?.handle, plan: { steps } }), 'invalid_request');
    expect((answer.details?.problems as Array<{ step: number }>).map((problem) => problem.step)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await tether.state()).connection.native.refused).toBe(0);
    await watch.check();
    counts.save();
  } finally {
    await agent.close();
    await browser.close();
  }
});
