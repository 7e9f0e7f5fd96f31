import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_BAD_HELLO, CLOSE_BROKEN_SESSION, HANDSHAKE_TIMEOUT_MS, MAX_FRAME_BYTES } from './bridgeProtocol.ts';
import { PairedConnection, type ConnectionFailure, type FrameTransport } from './pairedConnection.ts';
import { clientPairing, serverPairing } from './pairingHandshake.ts';

const TOKEN = 'the-pairing-token-0123456789';

interface Side {
  connection: PairedConnection;
  closedWith: number[];
  failures: ConnectionFailure[];
  got: unknown[];
  paired: boolean;
}

/** One side; what it sends goes to `send` (a pipe to the other side, or a list held by the test). */
function side(start: Parameters<typeof serverPairing> | null, send: (frame: string | Uint8Array) => void): Side {
  const self: Side = { connection: null as unknown as PairedConnection, closedWith: [], failures: [], got: [], paired: false };
  const transport: FrameTransport = { sendText: send, sendBinary: send, close: (code) => self.closedWith.push(code) };
  self.connection = new PairedConnection(transport, start ? serverPairing(...start) : clientPairing(TOKEN, { role: 'agent', agent: 'test' }), {
    paired: () => (self.paired = true),
    message: (value) => self.got.push(value),
    failed: (failure) => self.failures.push(failure),
  });
  return self;
}

/** A pipe that delivers asynchronously, like a socket, to whichever side `to()` names. */
const pipe = (to: () => Side | null) => (frame: string | Uint8Array) => queueMicrotask(() => to()?.connection.receive(frame));

/** Both sides joined by pipes. */
function joined(): { server: Side; client: Side } {
  const ends: { server: Side | null; client: Side | null } = { server: null, client: null };
  const held: Array<string | Uint8Array> = [];
  ends.server = side([TOKEN, 'hub', false], (frame) => (ends.client ? pipe(() => ends.client)(frame) : held.push(frame)));
  ends.client = side(
    null,
    pipe(() => ends.server),
  );
  for (const frame of held) pipe(() => ends.client)(frame);
  return { server: ends.server, client: ends.client };
}

/** Both sides joined by pipes; once `held.on`, what the server sends is held for the test to hand over. */
function heldAfterPairing(): { server: Side; client: Side; held: { on: boolean; frames: Array<string | Uint8Array> } } {
  const held = { on: false, frames: [] as Array<string | Uint8Array> };
  const ends: { server: Side | null; client: Side | null } = { server: null, client: null };
  ends.server = side([TOKEN, 'hub', false], (frame) => (held.on ? held.frames.push(frame) : pipe(() => ends.client)(frame)));
  ends.client = side(
    null,
    pipe(() => ends.server),
  );
  return { server: ends.server, client: ends.client, held };
}

/** Waits (real time, at most 10 s) for the Web Crypto work behind `condition`. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((done) => setImmediate(done));
  }
}

async function aFewTurns(): Promise<void> {
  for (let turn = 0; turn < 50; turn += 1) await new Promise((done) => setImmediate(done));
}

describe('a paired connection over any transport', () => {
  afterEach(() => vi.useRealTimers());

  it('pairs both ends and carries messages sealed', async () => {
    const { server, client } = joined();
    await until(() => server.paired && client.paired);
    await client.connection.send({ type: 'request', id: 'a1', tool: 'context', args: {} });
    await until(() => server.got.length === 1);
    expect(server.got).toEqual([{ type: 'request', id: 'a1', tool: 'context', args: {} }]);
    expect(server.failures).toEqual([]);
  });

  const misbehaving: Array<[string, Array<string | Uint8Array>, ConnectionFailure, number]> = [
    ['a binary frame before pairing', [new Uint8Array(64)], { kind: 'frame', problem: 'binary_before_pairing' }, CLOSE_BAD_HELLO],
    ['a text frame over the limit', ['x'.repeat(MAX_FRAME_BYTES + 1)], { kind: 'frame', problem: 'oversize' }, CLOSE_BAD_HELLO],
    ['a binary frame over the limit', [new Uint8Array(MAX_FRAME_BYTES + 1)], { kind: 'frame', problem: 'oversize' }, CLOSE_BAD_HELLO],
    ['many frames at once before pairing', ['{}', '{}', '{}', '{}', '{}', '{}'], { kind: 'frame', problem: 'too_many_before_pairing' }, CLOSE_BAD_HELLO],
    ['a hello that is not JSON', ['{{{'], { kind: 'pairing', failure: { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO } }, CLOSE_BAD_HELLO],
  ];
  for (const [name, frames, failure, code] of misbehaving) {
    it(`server side: ${name} closes only this connection (${code})`, async () => {
      const server = side([TOKEN, 'hub', false], () => undefined);
      for (const frame of frames) server.connection.receive(frame);
      await until(() => server.failures.length > 0);
      expect(server.failures).toEqual([failure]);
      expect(server.closedWith).toEqual([code]);
      // Nothing after the end is taken.
      server.connection.receive('{}');
      await aFewTurns();
      expect(server.failures).toHaveLength(1);
    });
  }

  it('client side: sealed frames right behind the welcome (a large request at once) wait for the pairing and arrive', async () => {
    // The server's frames are held by the test, then handed to the client in one go.
    const held: Array<string | Uint8Array> = [];
    const server = side([TOKEN, 'hub', false], (frame) => held.push(frame));
    const client = side(
      null,
      pipe(() => server),
    );
    for (const frame of held.splice(0)) client.connection.receive(frame);
    await until(() => server.paired);
    const large = { type: 'request', id: 'r1', tool: 'act', args: { text: 'x'.repeat(200_000) } };
    await server.connection.send(large);
    expect(held.filter((frame) => typeof frame !== 'string').length).toBeGreaterThan(4);
    for (const frame of held.splice(0)) client.connection.receive(frame);
    await until(() => client.got.length === 1);
    expect(client.got).toEqual([large]);
    expect(client.failures).toEqual([]);
  });

  it('a message that arrived just before the transport closed is still delivered (the hub says who ended, then closes)', async () => {
    const { server, client, held } = heldAfterPairing();
    await until(() => server.paired && client.paired);
    held.on = true;
    await server.connection.send({ type: 'ended', sessions: ['a'] });
    // The sealed frame and the close in the same turn: opening it (Web Crypto) finishes after the close.
    for (const frame of held.frames.splice(0)) client.connection.receive(frame);
    const done = client.connection.closed();
    client.connection.receive(new Uint8Array(64)); // after the close: not taken
    await done;
    expect(client.got).toEqual([{ type: 'ended', sessions: ['a'] }]);
    expect(client.failures).toEqual([]);
  });

  it('closing from this side delivers nothing more', async () => {
    const { server, client, held } = heldAfterPairing();
    await until(() => server.paired && client.paired);
    held.on = true;
    await server.connection.send({ type: 'ended', sessions: ['a'] });
    for (const frame of held.frames.splice(0)) client.connection.receive(frame);
    client.connection.close(1000, 'done');
    await aFewTurns();
    expect(client.got).toEqual([]);
    expect(client.closedWith).toEqual([1000]);
  });

  it('a text frame after pairing breaks the session', async () => {
    const { server, client } = joined();
    await until(() => server.paired && client.paired);
    server.connection.receive(JSON.stringify({ type: 'request', id: 'x', tool: 'context', args: {} }));
    await until(() => server.failures.length > 0);
    expect(server.failures).toEqual([{ kind: 'frame', problem: 'text_after_pairing' }]);
    expect(server.closedWith).toEqual([CLOSE_BROKEN_SESSION]);
    expect(server.got).toEqual([]);
  });

  it('a peer that says nothing is dropped after the handshake timeout', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = side([TOKEN, 'hub', false], () => undefined);
    vi.advanceTimersByTime(HANDSHAKE_TIMEOUT_MS - 1);
    expect(server.failures).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(server.failures).toEqual([{ kind: 'timeout' }]);
    expect(server.closedWith).toEqual([CLOSE_BAD_HELLO]);
  });
});
