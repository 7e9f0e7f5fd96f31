import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_BAD_TOKEN, CLOSE_BROKEN_SESSION, CLOSE_REPLACED, HANDSHAKE_TIMEOUT_MS, MAX_FRAME_BYTES } from '../../shared/link/bridgeProtocol.ts';
import { serverPairing } from '../../shared/link/pairingHandshake.ts';
import { PairedConnection, type FrameTransport } from '../../shared/link/pairedConnection.ts';
import type { AgentRequest, Envelope } from '../../shared/agent/agentProtocol.ts';
import { AgentConnection, FIRST_BACKOFF_MS, KEEPALIVE_MS, type OpenSocket, type Pairing, type SocketEvents } from './connectionMachine.ts';

const TOKEN = 'the-pairing-token-0123456789';
const PAIRING: Pairing = { token: TOKEN, port: 17345, profile: { id: 'pr_1', label: 'Home' } };

/** The server's end of one fake WebSocket: what the extension sent, and a way to answer. */
class FakeSocket {
  readonly fromClient: Array<string | Uint8Array> = [];
  closedByClient: number | null = null;
  private closed = false;
  onClientFrame: (frame: string | Uint8Array) => void = () => undefined;

  constructor(
    readonly url: string,
    private readonly events: SocketEvents,
  ) {}

  readonly transport: FrameTransport = {
    sendText: (text) => this.fromClientFrame(text),
    sendBinary: (frame) => this.fromClientFrame(frame),
    close: (code) => {
      if (this.closed) return;
      this.closed = true;
      this.closedByClient = code;
      queueMicrotask(() => this.events.closed(code));
    },
  };

  private fromClientFrame(frame: string | Uint8Array): void {
    if (this.closed) return;
    this.fromClient.push(frame);
    queueMicrotask(() => this.onClientFrame(frame));
  }

  send(frame: string | Uint8Array): void {
    if (!this.closed) queueMicrotask(() => this.events.message(frame));
  }

  close(code: number): void {
    if (this.closed) return;
    this.closed = true;
    queueMicrotask(() => this.events.closed(code));
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** An honest hub on one fake socket: pairs with the real handshake and records what it hears. */
function honestHub(socket: FakeSocket, token = TOKEN): { connection: PairedConnection; heard: unknown[]; paired: () => boolean } {
  const heard: unknown[] = [];
  let paired = false;
  const connection = new PairedConnection(
    { sendText: (text) => socket.send(text), sendBinary: (frame) => socket.send(frame), close: (code) => socket.close(code) },
    serverPairing(token, 'tether-mcp test', true),
    { paired: () => (paired = true), message: (value) => heard.push(value), failed: () => undefined },
  );
  socket.onClientFrame = (frame) => connection.receive(frame);
  return { connection, heard, paired: () => paired };
}

/** Waits (real time, at most 10 s; the clock the machine sees is fake) for the Web Crypto work behind `condition`. */
async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setImmediate(done));
  }
}

function setUp(pairing: Pairing | null = PAIRING, options: { stopWhenReplaced?: boolean; pairingGate?: Promise<void> } = {}) {
  const sockets: FakeSocket[] = [];
  let onSocket: (socket: FakeSocket) => void = (socket) => void honestHub(socket);
  const openSocket: OpenSocket = (url, events) => {
    const socket = new FakeSocket(url, events);
    sockets.push(socket);
    onSocket(socket);
    return socket.transport;
  };
  const requests: AgentRequest[] = [];
  let changes = 0;
  let awakened = 0;
  const machine = new AgentConnection({
    pairing: async () => {
      await options.pairingGate;
      return pairing;
    },
    openSocket,
    ...(options.stopWhenReplaced ? { stopWhenReplaced: true } : {}),
    handle: async (request): Promise<Envelope> => {
      requests.push(request);
      return { ok: true, result: { answered: request.tool }, meta: { tool: request.tool } };
    },
    keepAwake: async () => undefined,
    stayAwake: () => (awakened += 1),
    changed: () => (changes += 1),
  });
  return {
    machine,
    awakened: () => awakened,
    sockets,
    requests,
    changes: () => changes,
    serve(handler: (socket: FakeSocket) => void) {
      onSocket = handler;
    },
  };
}

describe('the extension’s connection state machine', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('not paired: idle, no socket', async () => {
    const { machine, sockets } = setUp(null);
    await machine.connect();
    expect(machine.state).toBe('idle');
    expect(machine.status()).toMatchObject({ state: 'not_paired' });
    expect(sockets).toEqual([]);
  });

  it('pairs with an honest hub: connecting → connected; requests are answered in the sealed session', async () => {
    const net = setUp();
    const hubs: Array<ReturnType<typeof honestHub>> = [];
    net.serve((socket) => void hubs.push(honestHub(socket)));
    await net.machine.connect();
    expect(net.machine.state).toBe('connecting');
    expect(net.machine.status().state).toBe('connecting');
    await until(() => net.machine.state === 'connected', 'connected');
    expect(net.machine.status()).toMatchObject({ state: 'connected', server: 'tether-mcp test', detail: null });
    expect(net.sockets[0]?.url).toBe('ws://127.0.0.1:17345/tether');
    const hub = hubs[0];
    if (!hub) throw new Error('no hub');
    await hub.connection.send({ type: 'request', id: 'r1', tool: 'context', args: {} });
    await until(() => hub.heard.length === 1, 'response');
    expect(net.requests).toEqual([{ tool: 'context', args: {}, callId: 'r1' }]);
    expect(hub.heard).toEqual([{ type: 'response', id: 'r1', envelope: { ok: true, result: { answered: 'context' }, meta: { tool: 'context' } } }]);
    // Every frame after the handshake is binary (sealed); the hello is the only text frame sent.
    expect(net.sockets[0]?.fromClient.filter((frame) => typeof frame === 'string')).toHaveLength(1);
    // The keepalive travels sealed too, and tells the browser the background is busy (Firefox).
    expect(net.awakened()).toBe(0);
    vi.advanceTimersByTime(KEEPALIVE_MS);
    await until(() => hub.heard.length === 2, 'keepalive');
    expect(hub.heard[1]).toEqual({ type: 'keepalive' });
    expect(net.awakened()).toBe(1);
  });

  const injections: Array<[string, string | Uint8Array]> = [
    ['a request in clear text', JSON.stringify({ type: 'request', id: 'evil', tool: 'inspect', args: {} })],
    ['bytes that are not sealed', crypto.getRandomValues(new Uint8Array(200))],
    ['a frame over the size limit', new Uint8Array(MAX_FRAME_BYTES + 1)],
  ];
  for (const [name, injected] of injections) {
    it(`after pairing, ${name} is not obeyed: the connection closes and retries`, async () => {
      const net = setUp();
      await net.machine.connect();
      await until(() => net.machine.state === 'connected', 'connected');
      net.sockets[0]?.send(injected);
      await until(() => net.machine.state === 'waiting', 'waiting');
      expect(net.requests).toEqual([]);
      expect(net.sockets[0]?.closedByClient).toBe(CLOSE_BROKEN_SESSION);
      expect(net.machine.status()).toMatchObject({ state: 'offline' });
      expect(net.machine.status().detail).toMatch(/failed its authenticity check/);
      vi.advanceTimersByTime(FIRST_BACKOFF_MS);
      await until(() => net.machine.state === 'connected', 'connected again');
      expect(net.sockets).toHaveLength(2);
    });
  }

  it('a server that never sends its challenge is dropped after the handshake timeout, and the next attempt pairs', async () => {
    const net = setUp();
    net.serve(() => undefined);
    await net.machine.connect();
    vi.advanceTimersByTime(HANDSHAKE_TIMEOUT_MS - 1);
    expect(net.machine.state).toBe('connecting');
    vi.advanceTimersByTime(1);
    await until(() => net.machine.state === 'waiting', 'waiting');
    expect(net.sockets[0]?.isClosed).toBe(true);
    expect(net.machine.status()).toMatchObject({ state: 'offline' });
    expect(net.machine.status().detail).toMatch(/did not finish Tether's pairing within a few seconds/);
    net.serve((socket) => void honestHub(socket));
    vi.advanceTimersByTime(FIRST_BACKOFF_MS);
    await until(() => net.machine.state === 'connected', 'connected');
    expect(net.sockets).toHaveLength(2);
  });

  it('a server that challenges but never welcomes is dropped too', async () => {
    const net = setUp();
    net.serve((socket) => {
      honestHub(socket);
      socket.onClientFrame = () => undefined;
    });
    await net.machine.connect();
    await until(() => (net.sockets[0]?.fromClient.length ?? 0) === 1, 'hello');
    vi.advanceTimersByTime(HANDSHAKE_TIMEOUT_MS);
    await until(() => net.machine.state === 'waiting', 'waiting');
    expect(net.requests).toEqual([]);
  });

  it('a server without the token is refused by the extension’s check (not only by its own close code), and retried later', async () => {
    const net = setUp();
    net.serve((socket) => {
      socket.send(JSON.stringify({ type: 'challenge', nonce: 'ab'.repeat(16), version: 3 }));
      socket.onClientFrame = () => socket.send(JSON.stringify({ type: 'welcome', server: 'not tether', proof: '0'.repeat(64) }));
    });
    await net.machine.connect();
    await until(() => net.machine.state === 'waiting', 'waiting');
    expect(net.machine.status()).toMatchObject({ state: 'refused' });
    expect(net.machine.status().detail).toMatch(/could not prove it holds the pairing token/);
    expect(net.sockets[0]?.closedByClient).toBe(CLOSE_BAD_TOKEN);
    vi.advanceTimersByTime(FIRST_BACKOFF_MS);
    await until(() => net.sockets.length === 2, 'retry');
  });

  it('another protocol version: refused with no retry timer', async () => {
    const net = setUp();
    net.serve((socket) => socket.send(JSON.stringify({ type: 'challenge', nonce: 'ab'.repeat(16), version: 2 })));
    await net.machine.connect();
    await until(() => net.machine.state === 'refused', 'refused');
    expect(net.machine.status().detail).toMatch(/another protocol version/);
    vi.advanceTimersByTime(10 * 60_000);
    expect(net.sockets).toHaveLength(1);
  });

  it('handshake garbage and oversized handshake frames: not our server, retried', async () => {
    for (const frame of ['{{{', JSON.stringify({ type: 'request', id: 'x', tool: 'context', args: {} }), 'x'.repeat(MAX_FRAME_BYTES + 1), new Uint8Array(40)]) {
      const net = setUp();
      net.serve((socket) => socket.send(frame));
      await net.machine.connect();
      await until(() => net.machine.state === 'waiting', 'waiting');
      expect(net.machine.status().detail).toMatch(/does not speak Tether's pairing protocol/);
      expect(net.requests).toEqual([]);
    }
  });

  it('closed by the server: wrong token → refused; replaced → offline, retried with a growing backoff', async () => {
    const net = setUp();
    net.serve((socket) => socket.close(CLOSE_BAD_TOKEN));
    await net.machine.connect();
    await until(() => net.machine.state === 'refused', 'refused');
    expect(net.machine.status()).toMatchObject({ state: 'refused', detail: 'The agent server refused the pairing token.' });

    const replaced = setUp();
    replaced.serve((socket) => socket.close(CLOSE_REPLACED));
    await replaced.machine.connect();
    await until(() => replaced.machine.state === 'waiting', 'waiting');
    expect(replaced.machine.status()).toMatchObject({ state: 'offline', detail: 'Another connection from this profile replaced this one.' });
    for (const [wait, sockets] of [
      [FIRST_BACKOFF_MS, 2],
      [2 * FIRST_BACKOFF_MS, 3],
      [4 * FIRST_BACKOFF_MS, 4],
    ] as const) {
      vi.advanceTimersByTime(wait - 1);
      expect(replaced.sockets).toHaveLength(sockets - 1);
      vi.advanceTimersByTime(1);
      await until(() => replaced.sockets.length === sockets && replaced.machine.state === 'waiting', `attempt ${sockets}`);
    }
  });

  it('forget closes the socket and stops retrying; reconnect starts over at once', async () => {
    const net = setUp();
    await net.machine.connect();
    await until(() => net.machine.state === 'connected', 'connected');
    net.machine.forget();
    expect(net.machine.state).toBe('idle');
    expect(net.machine.status()).toMatchObject({ state: 'not_paired' });
    expect(net.sockets[0]?.closedByClient).toBe(1000);
    vi.advanceTimersByTime(10 * 60_000);
    expect(net.sockets).toHaveLength(1);
    await net.machine.reconnect();
    await until(() => net.machine.state === 'connected', 'connected again');
    expect(net.sockets).toHaveLength(2);
  });

  it('connect while connecting or connected opens no second socket', async () => {
    const net = setUp();
    await Promise.all([net.machine.connect(), net.machine.connect()]);
    await until(() => net.machine.state === 'connected', 'connected');
    await net.machine.connect();
    expect(net.sockets).toHaveLength(1);
    expect(net.changes()).toBeGreaterThan(0);
  });

  it('a link told to stop when replaced (the direct link) goes idle instead of retrying, until told to connect again', async () => {
    const net = setUp(PAIRING, { stopWhenReplaced: true });
    net.serve((socket) => socket.close(CLOSE_REPLACED));
    await net.machine.connect();
    await until(() => net.machine.state === 'idle', 'idle');
    expect(net.machine.status()).toMatchObject({ state: 'offline', detail: 'Another connection from this profile replaced this one.' });
    vi.advanceTimersByTime(10 * 60_000);
    expect(net.sockets).toHaveLength(1);
    net.serve((socket) => void honestHub(socket));
    await net.machine.reconnect();
    await until(() => net.machine.state === 'connected', 'connected');
    expect(net.sockets).toHaveLength(2);
  });

  it('standby or forget while the pairing is still being read wins: no socket opens behind it', async () => {
    for (const stop of ['standby', 'forget'] as const) {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((done) => (release = done));
      const net = setUp(PAIRING, { pairingGate: gate });
      const connecting = net.machine.connect();
      net.machine[stop]();
      release();
      await connecting;
      expect(net.sockets).toHaveLength(0);
      expect(net.machine.state).toBe('idle');
    }
  });
});
