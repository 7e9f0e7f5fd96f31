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

/** One side whose frames go to `peer()` (asynchronously, like a socket). */
function side(start: Parameters<typeof serverPairing> | null, peer: () => Side | null): Side {
  const self: Side = { connection: null as unknown as PairedConnection, closedWith: [], failures: [], got: [], paired: false };
  const transport: FrameTransport = {
    sendText: (text) => queueMicrotask(() => peer()?.connection.receive(text)),
    sendBinary: (frame) => queueMicrotask(() => peer()?.connection.receive(frame)),
    close: (code) => self.closedWith.push(code),
  };
  self.connection = new PairedConnection(transport, start ? serverPairing(...start) : clientPairing(TOKEN, { role: 'agent', agent: 'test' }), {
    paired: () => (self.paired = true),
    message: (value) => self.got.push(value),
    failed: (failure) => self.failures.push(failure),
  });
  return self;
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
    let client: Side | null = null;
    const server = side([TOKEN, 'hub', false], () => client);
    client = side(null, () => server);
    await until(() => server.paired && (client?.paired ?? false));
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
      const server = side([TOKEN, 'hub', false], () => null);
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

  it('a text frame after pairing breaks the session', async () => {
    let client: Side | null = null;
    const server = side([TOKEN, 'hub', false], () => client);
    client = side(null, () => server);
    await until(() => server.paired && (client?.paired ?? false));
    server.connection.receive(JSON.stringify({ type: 'request', id: 'x', tool: 'context', args: {} }));
    await until(() => server.failures.length > 0);
    expect(server.failures).toEqual([{ kind: 'frame', problem: 'text_after_pairing' }]);
    expect(server.closedWith).toEqual([CLOSE_BROKEN_SESSION]);
    expect(server.got).toEqual([]);
  });

  it('a peer that says nothing is dropped after the handshake timeout', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = side([TOKEN, 'hub', false], () => null);
    vi.advanceTimersByTime(HANDSHAKE_TIMEOUT_MS - 1);
    expect(server.failures).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(server.failures).toEqual([{ kind: 'timeout' }]);
    expect(server.closedWith).toEqual([CLOSE_BAD_HELLO]);
  });
});
