/**
 * The MCP server's stdio transport, open from the first moment: it answers `initialize` and
 * `tools/list` itself (earlyAnswers.ts) while the MCP SDK is not loaded yet, holds every other
 * line, and asks for the SDK (`needed`) as soon as something only the SDK can answer arrives —
 * or once the client has its tool list, when the client is about to call. When the SDK's Server
 * connects (`start`), the held lines reach it in their order, the early `initialize` included so
 * the Server knows its client; the Server's own answer to that one is not sent twice.
 *
 * From then on it is the SDK's stdio transport in all but name: lines parsed by the SDK's
 * `deserializeMessage`, a bad line reported to `onerror`, a line over the SDK's 10 MB limit
 * closes the transport (and with it the server).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { earlyAnswer, type EarlyFacts } from './earlyAnswers.ts';

/** The SDK's stdio ReadBuffer limit (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

type Deserialize = (line: string) => JSONRPCMessage;

export interface FrontDoorOptions {
  /** What the early answers say; null answers nothing early (a run from source, without the build's facts). */
  facts: EarlyFacts | null;
  /** Load the SDK and connect its Server to this transport: may be called more than once. */
  needed(): void;
  /** The client said `initialized` before the Server was connected (the Server hears it too, later). */
  initialized?(): void;
  /** Where problems go before the SDK's Server is there to hear them. */
  log(line: string): void;
}

function isInitialized(message: unknown): boolean {
  return typeof message === 'object' && message !== null && !('id' in message) && 'method' in message && message.method === 'notifications/initialized';
}

export class StdioFrontDoor implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private buffered: Buffer | null = null;
  /** Lines read before the SDK's Server connected, in order. */
  private held: string[] = [];
  /**
   * The id the early `initialize` is replayed with: the Server's answer to it is not sent. (A client
   * that chose this id for a request of its own would only lose that answer.)
   */
  private readonly replayId = 'tether:early-initialize-replayed';
  private initializeAnswered = false;
  private initializedHeard = false;
  private deserialize: Deserialize | null = null;
  private closed = false;

  private readonly ondata = (chunk: Buffer) => this.read(chunk);
  private readonly onstreamerror = (error: Error) => this.report(error);

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly options: FrontDoorOptions,
  ) {}

  /** Starts reading stdin, before any Server exists. */
  listen(): void {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
  }

  /** Called by the SDK's Server when it connects: the held lines reach it now. */
  async start(): Promise<void> {
    const { deserializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
    this.deserialize = deserializeMessage;
    const held = this.held;
    this.held = [];
    for (const line of held) this.deliver(line);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (('result' in message || 'error' in message) && message.id === this.replayId) return Promise.resolve();
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffered = null;
    this.held = [];
    this.onclose?.();
  }

  private write(message: unknown): Promise<void> {
    return new Promise((done) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) done();
      else this.stdout.once('drain', done);
    });
  }

  private report(error: Error): void {
    if (this.onerror) this.onerror(error);
    else this.options.log(error.message);
  }

  private read(chunk: Buffer): void {
    if (this.closed) return;
    const size = (this.buffered?.length ?? 0) + chunk.length;
    if (size > MAX_LINE_BYTES) {
      this.report(new Error(`ReadBuffer exceeded maximum size of ${MAX_LINE_BYTES} bytes`));
      void this.close();
      return;
    }
    let buffered = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (let end = buffered.indexOf(10); end !== -1; end = buffered.indexOf(10)) {
      const line = buffered.toString('utf8', 0, end).replace(/\r$/, '');
      buffered = buffered.subarray(end + 1);
      if (this.deserialize) this.deliver(line);
      else this.hold(line);
    }
    this.buffered = buffered.length > 0 ? buffered : null;
  }

  /** Before the SDK: answer what can be answered now, keep the line for the Server. */
  private hold(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    const early = this.options.facts ? earlyAnswer(message, this.options.facts, this.initializeAnswered) : null;
    if (!early) {
      this.held.push(line);
      // The client's `initialized` waits for the Server without hurrying it: loading the SDK now
      // would hold up the `tools/list` right behind it. Anything else (even a second notification:
      // nothing piles up here) needs the SDK to answer.
      if (isInitialized(message) && !this.initializedHeard) {
        this.initializedHeard = true;
        this.options.initialized?.();
      } else this.options.needed();
      return;
    }
    void this.write(early.response);
    if (early.method === 'initialize') {
      // Replayed to the Server (it learns its client from it) under an id of the door's own, so
      // that exactly its second answer is dropped, whatever ids the client uses next.
      this.initializeAnswered = true;
      this.held.push(JSON.stringify({ ...(message as object), id: this.replayId }));
    } else {
      // The client has its tools and is about to call one: the SDK is wanted now.
      setImmediate(() => this.options.needed());
    }
  }

  private deliver(line: string): void {
    if (this.closed || !this.deserialize) return;
    let message: JSONRPCMessage;
    try {
      message = this.deserialize(line);
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }
}
