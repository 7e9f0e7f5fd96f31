/**
 * The MCP server's stdio transport, open from the first moment: it answers `initialize` and
 * `tools/list` itself (earlyAnswers.ts) while the MCP SDK is not loaded yet, holds every other
 * line, and asks for the SDK (`needed`) as soon as something only the SDK can answer arrives —
 * or once the client has its tool list, when the client is about to call. When the SDK's Server
 * connects (`start`), the held lines reach it in their order, the early `initialize` included so
 * the Server knows its client; the Server's own answer to that one is not sent twice.
 *
 * From then on it is the SDK's stdio transport in all but name: lines parsed by the SDK's
 * `deserializeMessage`, a bad line (or one the Server throws on) reported to `onerror`, a line
 * over the SDK's 10 MB limit closes the transport (and with it the server). When stdin ends, the
 * lines read before are still answered: `ended` comes after they reached the Server.
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
  /** stdin ended, and every line read before has reached the Server (the SDK is loaded for them). */
  ended(): void;
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
  /** The id the early `initialize` is replayed with, until the Server's answer to it is dropped. */
  private replayId: string | null = null;
  private inputEnded = false;
  private initializeAnswered = false;
  private initializedHeard = false;
  private deserialize: Deserialize | null = null;
  private closed = false;

  private readonly ondata = (chunk: Buffer) => this.read(chunk);
  private readonly onstreamerror = (error: Error) => this.report(error);
  private readonly onend = () => {
    this.inputEnded = true;
    // Requests read before the end are still answered, as the SDK's own transport answers them.
    if (this.held.length > 0 && !this.deserialize) this.options.needed();
    else this.options.ended();
  };

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly options: FrontDoorOptions,
  ) {}

  /** Starts reading stdin, before any Server exists. */
  listen(): void {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
    this.stdin.on('end', this.onend);
  }

  /** Called by the SDK's Server when it connects: the held lines reach it now. */
  async start(): Promise<void> {
    const { deserializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
    this.deserialize = deserializeMessage;
    const held = this.held;
    this.held = [];
    for (const line of held) this.deliver(line);
    if (this.inputEnded) this.options.ended();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.replayId !== null && ('result' in message || 'error' in message) && message.id === this.replayId) {
      this.replayId = null;
      return Promise.resolve();
    }
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    this.stdin.off('end', this.onend);
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
    if (early.method === 'initialize') {
      // Replayed to the Server (it learns its client from it) under an id of the door's own, so
      // that exactly its second answer is dropped, whatever ids the client uses. Written again
      // before answering: a value nested too deep to write again is left to the SDK to answer.
      const replayId = `tether:early-initialize:${Math.random().toString(36).slice(2)}`;
      let replay: string;
      try {
        replay = JSON.stringify({ ...(message as object), id: replayId });
      } catch {
        this.held.push(line);
        this.options.needed();
        return;
      }
      void this.write(early.response);
      this.initializeAnswered = true;
      this.replayId = replayId;
      this.held.push(replay);
    } else {
      void this.write(early.response);
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
    // As the SDK's transport does: what the Server cannot take is reported, never thrown into stdin's handler.
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
