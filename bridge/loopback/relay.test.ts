/**
 * The relay's socket is a client of whatever holds the port: a squatter, a program speaking
 * garbage, or a real hub. It fails alone (the test process lives on) and pairs only with a hub.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BRIDGE_PROTOCOL_VERSION, MAX_FRAME_BYTES } from '../../shared/link/bridgeProtocol.ts';
import { freshNonce } from '../../shared/link/pairingProof.ts';
import { Hub } from './hub.ts';
import { Relay } from './relay.ts';

const TOKEN = 'the-pairing-token-0123456789';
let nextPort = 19000 + (process.pid % 500) * 2;
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function wsServer(onConnection: (socket: import('ws').WebSocket) => void): Promise<number> {
  const port = (nextPort += 1);
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise((done) => server.once('listening', done));
  server.on('connection', onConnection);
  closers.push(
    () =>
      new Promise((done) => {
        for (const client of server.clients) client.terminate();
        server.close(() => done());
      }),
  );
  return port;
}

/** A raw TCP server that completes the WebSocket upgrade and then writes `bytes` as they are. */
async function rawServer(bytes: Buffer): Promise<number> {
  const port = (nextPort += 1);
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', (request) => {
      const key = /Sec-WebSocket-Key: (.+)\r\n/i.exec(String(request))?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.write(bytes);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  closers.push(
    () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  );
  return port;
}

describe('the relay against what holds the port', () => {
  it('a reserved opcode, invalid UTF-8 and an oversized frame from the server: the relay refuses, the process lives', async () => {
    const frames = [
      Buffer.from([0x83, 0x00]),
      Buffer.from([0x81, 0x03, 0xff, 0xfe, 0xfd]),
      Buffer.concat([Buffer.from([0x82, 0x7f, 0, 0, 0, 0, 0x01, 0x10, 0, 0]), Buffer.alloc(64)]),
    ];
    for (const bytes of frames) {
      const relay = new Relay(await rawServer(bytes), TOKEN, 'test');
      await expect(relay.connect()).rejects.toThrow();
    }
  });

  it('a challenge of another version, garbage, a frame over the limit, an unproven welcome: refused, with a reason', async () => {
    const cases: Array<[string, (socket: import('ws').WebSocket) => void, RegExp]> = [
      ['another version', (socket) => socket.send(JSON.stringify({ type: 'challenge', nonce: freshNonce(), version: 2 })), /protocol version 2/],
      ['garbage', (socket) => socket.send('{{{'), /does not speak Tether's pairing protocol/],
      ['a frame over the limit', (socket) => socket.send('x'.repeat(MAX_FRAME_BYTES + 1)), /closed \(10\d\d\)/],
      [
        'an unproven welcome',
        (socket) => {
          socket.send(JSON.stringify({ type: 'challenge', nonce: freshNonce(), version: BRIDGE_PROTOCOL_VERSION }));
          socket.on('message', () => socket.send(JSON.stringify({ type: 'welcome', server: 'squatter', proof: '0'.repeat(64) })));
        },
        /could not prove it holds the pairing token/,
      ],
    ];
    for (const [name, behave, reason] of cases) {
      const relay = new Relay(await wsServer(behave), TOKEN, 'test');
      await expect(relay.connect(), name).rejects.toThrow(reason);
      expect((await relay.call({ tool: 'context', args: {} })).ok, name).toBe(false);
    }
  });

  it('pairs with a real hub, and a large request travels in chunks', async () => {
    const port = (nextPort += 1);
    const hub = new Hub(port, TOKEN);
    await hub.listen();
    closers.push(() => hub.close());
    const relay = new Relay(port, TOKEN, 'test');
    await relay.connect();
    // No browser is connected: the hub answers itself, after checking the (large) request.
    const envelope = await relay.call({
      tool: 'act',
      args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'fill', field: 'body', text: '가'.repeat(150_000) }] } },
    });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'browser_not_connected' } });
    relay.close();
    const wrong = new Relay(port, 'a-wrong-token-0123456789', 'test');
    await expect(wrong.connect()).rejects.toThrow(/refused this pairing token/);
  });
});
