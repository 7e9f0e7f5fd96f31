/**
 * A program in the middle: it listens on a port of its own, and for every connection (the
 * extension, paired with this port and the real token) opens one to the real hub with the same
 * Origin, passing every frame through unchanged, so the pairing handshake succeeds between the two
 * real ends. It records what it sees and can inject frames of its own into the extension's side.
 */
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from './hubProcess.ts';

export interface SeenFrame {
  from: 'browser' | 'hub';
  binary: boolean;
  data: Buffer;
}

interface Pair {
  browser: WebSocket;
  hub: WebSocket;
  /** The close code the browser's side ended with, once it did. */
  browserClosed: number | null;
}

export class Middleman {
  readonly frames: SeenFrame[] = [];
  readonly pairs: Pair[] = [];

  private constructor(
    private readonly server: WebSocketServer,
    readonly port: number,
  ) {}

  static async start(hubPort: number): Promise<Middleman> {
    const port = await freePort();
    const server = new WebSocketServer({ host: '127.0.0.1', port });
    await new Promise((done) => server.once('listening', done));
    const middleman = new Middleman(server, port);
    server.on('connection', (browser, request) => {
      const hub = new WebSocket(`ws://127.0.0.1:${hubPort}/tether`, { origin: request.headers.origin });
      const pair: Pair = { browser, hub, browserClosed: null };
      middleman.pairs.push(pair);
      const early: Array<[Buffer, boolean]> = [];
      browser.on('error', () => undefined);
      hub.on('error', () => undefined);
      browser.on('message', (data, binary) => {
        const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
        middleman.frames.push({ from: 'browser', binary, data: bytes });
        if (hub.readyState === WebSocket.OPEN) hub.send(bytes, { binary });
        else early.push([bytes, binary]);
      });
      hub.on('open', () => {
        for (const [bytes, binary] of early.splice(0)) hub.send(bytes, { binary });
      });
      hub.on('message', (data, binary) => {
        const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
        middleman.frames.push({ from: 'hub', binary, data: bytes });
        if (browser.readyState === WebSocket.OPEN) browser.send(bytes, { binary });
      });
      browser.on('close', (code) => {
        pair.browserClosed = code;
        hub.close();
      });
      hub.on('close', () => browser.close());
    });
    return middleman;
  }

  /** The latest pair, once the real hub's welcome has passed through it to the extension. */
  current(): Pair | null {
    const pair = this.pairs.at(-1);
    return pair && pair.browserClosed === null && pair.browser.readyState === WebSocket.OPEN ? pair : null;
  }

  /** Sends a frame of its own to the extension, as if the hub had sent it. */
  inject(frame: string | Buffer): void {
    const pair = this.current();
    if (!pair) throw new Error('no open connection to inject into');
    pair.browser.send(frame, { binary: Buffer.isBuffer(frame) });
  }

  /** Everything that passed through, as one string (binary bytes as latin1). */
  transcript(): string {
    return this.frames.map((frame) => frame.data.toString(frame.binary ? 'latin1' : 'utf8')).join('\n');
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    for (const pair of this.pairs) pair.hub.terminate();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}
