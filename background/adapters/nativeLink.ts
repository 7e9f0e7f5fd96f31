/**
 * The worker's end of the native path: one `runtime.connectNative` port to Tether's host, opened
 * at every worker start. The browser starts the host, and keeps the worker alive while the port is
 * open: no keepalive timer, no alarm. MCP bridges reach the host over its socket; their requests
 * arrive here as `request` messages (large ones in `part`s) and are answered with `response`.
 *
 *   starting ──first message from the host──▶ connected (bridges: how many agent servers)
 *      │                                          │ port closed
 *      ▼                                          ▼
 *   not_installed / forbidden (the browser's own words; retrying will not help until the person
 *   installs: Reconnect, or the next worker start)   ·   exited: restarted at once if the host had
 *   been running, else after 1 s, 2 s, 4 s, then `crashed` (with the browser's message)
 *
 * Everything from the host is parsed: a message that is not Tether's is refused and counted, and
 * the port stays open. An answer over the browser's 64 MiB limit is replaced by a refusal.
 */
import { tetherError } from '../../shared/errors.ts';
import { bridgeRequestSchema, type BridgeRequest } from '../../shared/link/bridgeProtocol.ts';
import { MAX_MESSAGE_BYTES } from '../../shared/link/bridgeProtocol.ts';
import {
  NATIVE_HOST_NAME,
  NATIVE_PROTOCOL_VERSION,
  PartAssembler,
  installCommand,
  nativeProblemOf,
  toWorkerSchema,
  WORKER_FEATURES,
  type NativeProfile,
} from '../../shared/native/nativeProtocol.ts';
import type { AgentRequest, Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import type { NativeStatus } from '../../shared/extension/uiProtocol.ts';
import type { BrowserPort } from './browserPort.ts';

export type NativePort = BrowserPort;

export interface NativeDeps {
  /** Opens the port; throws when the browser has no native messaging (or no permission). */
  connectNative(name: string): NativePort;
  /** Chromium's message for the port that just closed (`runtime.lastError`). */
  lastError(): string | undefined;
  profile(): Promise<NativeProfile>;
  extension: { id: string; version: string };
  handle(request: AgentRequest): Promise<Envelope>;
  /** MCP sessions of a bridge that went away: what they held is released. */
  ended?(sessions: string[]): void;
  /** The status changed (tell the pages); `up` says whether the host is serving. */
  changed(up: boolean): void;
  /** The host offers a bridge's loopback port (and the pairing token) for a direct link; null: none now. */
  direct?(offer: { port: number; token: string } | null): void;
  log(line: string): void;
  now?(): number;
}

/** A host that ran this long before exiting was working: start a new one at once. */
export const HEALTHY_RUN_MS = 10_000;
export const RESTART_DELAYS_MS = [1_000, 2_000, 4_000];

export class NativeLink {
  private port: NativePort | null = null;
  private view: NativeStatus;
  private openedAt = 0;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private parts = new PartAssembler(MAX_MESSAGE_BYTES);
  /** Messages from the host that were not Tether's (refused, port kept). */
  refused = 0;

  constructor(private readonly deps: NativeDeps) {
    this.view = { state: 'starting', bridges: 0, detail: null, since: null, installCommand: installCommand(deps.extension.id), refused: 0 };
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  status(): NativeStatus {
    return { ...this.view, refused: this.refused };
  }

  get serving(): boolean {
    return this.view.state === 'connected';
  }

  private set(view: Partial<NativeStatus>): void {
    this.view = { ...this.view, ...view };
    this.deps.changed(this.serving);
  }

  /** Opens the port unless it is open; every worker start calls this. */
  start(): void {
    if (this.port) return;
    clearTimeout(this.retry);
    let port: NativePort;
    try {
      port = this.deps.connectNative(NATIVE_HOST_NAME);
    } catch (error) {
      this.set({ state: 'unsupported', bridges: 0, detail: error instanceof Error ? error.message : String(error), since: this.now() });
      return;
    }
    this.port = port;
    this.openedAt = this.now();
    this.parts = new PartAssembler(MAX_MESSAGE_BYTES);
    if (this.view.state !== 'connected') this.set({ state: 'starting', bridges: 0, detail: null, since: this.now() });
    port.onMessage.addListener((message) => {
      if (this.port === port) this.receive(port, message);
    });
    port.onDisconnect.addListener(() => {
      // Firefox says why on the port itself and never sets runtime.lastError.
      const error = port.error?.message ?? this.deps.lastError();
      if (this.port === port) this.closed(error);
    });
    void this.deps.profile().then(
      (profile) =>
        this.post(port, { type: 'hello', version: NATIVE_PROTOCOL_VERSION, profile, extension: this.deps.extension, features: [...WORKER_FEATURES] }),
      () => undefined,
    );
  }

  /** The person asked to try again (e.g. after installing the host). */
  restart(): void {
    const port = this.port;
    this.port = null;
    port?.disconnect();
    this.failures = 0;
    this.start();
  }

  /** The profile's label changed: the host tells its bridges. */
  profileChanged(profile: NativeProfile): void {
    if (this.port) this.post(this.port, { type: 'profile', profile });
  }

  private post(port: NativePort, message: unknown): boolean {
    try {
      port.postMessage(message);
      return true;
    } catch (error) {
      this.deps.log(`could not send to the native host: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  private receive(port: NativePort, value: unknown): void {
    const parsed = toWorkerSchema.safeParse(value);
    if (!parsed.success) return this.refuse(`a message that is not Tether's (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const message = parsed.data;
    if (this.view.state !== 'connected' || message.type === 'bridges') {
      this.failures = 0;
      this.set({
        state: 'connected',
        detail: null,
        since: this.view.state === 'connected' ? this.view.since : this.now(),
        ...(message.type === 'bridges' ? { bridges: message.count } : {}),
      });
    }
    if (message.type === 'request') return void this.answer(port, message);
    if (message.type === 'ended') return void this.deps.ended?.(message.sessions);
    if (message.type === 'direct') {
      this.deps.direct?.(message.port !== null && message.token ? { port: message.port, token: message.token } : null);
      return;
    }
    if (message.type === 'part') {
      const outcome = this.parts.take(message);
      if (outcome.kind === 'refused') return this.refuse(`${outcome.why} (request ${outcome.id})`);
      if (outcome.kind === 'done') {
        const request = bridgeRequestSchema.safeParse(outcome.message);
        if (!request.success) return this.refuse('a split message that is not a request');
        void this.answer(port, request.data);
      }
    }
  }

  private refuse(what: string): void {
    this.refused += 1;
    this.deps.log(`refused ${what} from the native host; the port stays open`);
    this.deps.changed(this.serving);
  }

  private async answer(port: NativePort, request: BridgeRequest): Promise<void> {
    const envelope = await this.deps.handle({
      tool: request.tool as ToolName,
      args: request.args,
      callId: request.id,
      ...(request.agent ? { agent: request.agent } : {}),
    });
    if (this.post(port, { type: 'response', id: request.id, envelope })) return;
    const tooLarge: Envelope = {
      ok: false,
      error: tetherError('invalid_request', 'The answer is too large for the browser to pass on (at most 64 MiB): ask for less at once.'),
      meta: envelope.meta,
    };
    this.post(port, { type: 'response', id: request.id, envelope: tooLarge });
  }

  private closed(message: string | undefined): void {
    this.port = null;
    const problem = nativeProblemOf(message);
    const since = this.now();
    if (problem === 'not_installed' || problem === 'forbidden') {
      this.set({ state: problem, bridges: 0, detail: message ?? null, since });
      return;
    }
    const ranFor = since - this.openedAt;
    this.failures = ranFor >= HEALTHY_RUN_MS ? 0 : this.failures + 1;
    const delay = this.failures === 0 ? 0 : RESTART_DELAYS_MS[this.failures - 1];
    if (delay === undefined) {
      this.set({ state: 'crashed', bridges: 0, detail: message ?? 'The native host exited.', since });
      return;
    }
    this.set({ state: 'starting', bridges: 0, detail: message ?? null, since });
    if (delay === 0) this.start();
    else this.retry = setTimeout(() => this.start(), delay);
  }
}
