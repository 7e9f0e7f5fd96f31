/**
 * The extension's connection to the agent server (the bridge's hub), as a state machine. The
 * socket, the person's status and every timer belong to one state; nothing else decides.
 *
 *   +--------+  connect() while paired   +------------+   welcome proved   +-----------+
 *   |  idle  | ------------------------> | connecting | -----------------> | connected |
 *   +--------+                           +------------+                    +-----------+
 *       ^                                 |   |     ^                            |
 *       |                                 |   |     | retry timer (1 s, 2 s,     | closed, or a sealed
 *       |                                 |   |     | 4 s … 30 s)                | frame that failed
 *       |                                 |   v     |                            v
 *       |                                 |  +-----------+  <--------------------+
 *       |                                 |  |  waiting  |  closed; no challenge or no welcome within
 *       |                                 |  +-----------+  HANDSHAKE_TIMEOUT_MS; a server that cannot
 *       |                                 |                 prove the token; frames out of protocol
 *       |                                 v
 *       |                           +-----------+  the server refused the token, or speaks another
 *       |                           |  refused  |  version: retrying will not help; the reconnect
 *       |                           +-----------+  alarm, Reconnect or a new token try again
 *       |                                 |
 *       +--- forget() from any state -----+
 *
 * idle      not paired (no token or profile), or standing by while the native host serves; no socket.
 * connecting a socket is open and the pairing handshake runs (pairingHandshake.ts); requests are
 *            not answered, and the server has HANDSHAKE_TIMEOUT_MS to send its challenge and welcome.
 * connected  paired: requests arrive in the sealed session and are answered in it; a keepalive
 *            every 20 s keeps the service worker awake (and, with it, `stayAwake` keeps Firefox's
 *            event page from being unloaded).
 * waiting    no socket; a timer opens the next one (backoff).
 * refused    no socket and no timer.
 *
 * What the person sees (ConnectionStatus: state and detail) is set on each transition.
 */
import { CLOSE_BAD_TOKEN, CLOSE_REPLACED, toBrowserSchema, type BridgeRequest } from '../../shared/link/bridgeProtocol.ts';
import { tetherError } from '../../shared/errors.ts';
import { clientPairing } from '../../shared/link/pairingHandshake.ts';
import { PairedConnection, type ConnectionFailure, type FrameTransport } from '../../shared/link/pairedConnection.ts';
import type { AgentRequest, Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import type { ConnectionStatus } from '../../shared/extension/uiProtocol.ts';
import { MessageTooLarge } from '../../shared/link/sealedChannel.ts';

export type ConnectionPhase = 'idle' | 'connecting' | 'connected' | 'waiting' | 'refused';
export type PersonStatus = Omit<ConnectionStatus, 'paired' | 'port' | 'native' | 'direct'>;

export const KEEPALIVE_MS = 20_000;
export const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 30_000;

export interface Pairing {
  token: string;
  port: number;
  profile: { id: string; label: string };
}

export interface SocketEvents {
  /** A text frame (string) or a binary one (bytes). */
  message(frame: string | Uint8Array): void;
  closed(code: number): void;
}

/** Opens a WebSocket to `url` (the browser's, or a fake in tests). */
export type OpenSocket = (url: string, events: SocketEvents) => FrameTransport;

export interface ConnectionDeps {
  /** The pairing the person made, once storage is loaded; null when not paired. */
  pairing(): Promise<Pairing | null>;
  openSocket: OpenSocket;
  handle(request: AgentRequest): Promise<Envelope>;
  /** MCP sessions that ended (the hub says so for its relays and itself): what they held is released. */
  ended?(sessions: string[]): void;
  /** Makes sure something wakes a stopped worker to reconnect (the alarm). */
  keepAwake(): Promise<void>;
  /**
   * Called with every keepalive while connected. Chrome keeps a worker alive while socket frames
   * flow; Firefox unloads an event page 30 s after its last extension-API event whatever its
   * sockets do, so there this must be a call the browser counts as activity.
   */
  stayAwake?(): void;
  /** The status changed: tell the pages. */
  changed(): void;
  /**
   * Another connection of this profile replaced this one at the server: stop (until `connect` or
   * `reconnect` is called again) instead of retrying. The direct link sets it: two links of one
   * profile retrying would replace each other forever.
   */
  stopWhenReplaced?: boolean;
  now?(): number;
}

const NOT_PAIRED: PersonStatus = { state: 'not_paired', server: null, detail: null, since: null };

export class AgentConnection {
  private phase: ConnectionPhase = 'idle';
  private view: PersonStatus = NOT_PAIRED;
  private connection: PairedConnection | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private backoffMs = FIRST_BACKOFF_MS;
  /** Bumped by standby, forget and reconnect: a connect still awaiting its pairing then gives up. */
  private generation = 0;

  constructor(private readonly deps: ConnectionDeps) {}

  get state(): ConnectionPhase {
    return this.phase;
  }

  status(): PersonStatus {
    return this.view;
  }

  /** Opens the connection if the person paired Tether and it is not open (or opening) already. */
  async connect(): Promise<void> {
    const generation = this.generation;
    const pairing = await this.deps.pairing();
    // Told to stand by, forget or reconnect while the pairing was read: that call decides.
    if (generation !== this.generation) return;
    if (!pairing) {
      this.drop();
      this.enter('idle', NOT_PAIRED);
      return;
    }
    await this.deps.keepAwake();
    if (generation !== this.generation) return;
    if (this.phase === 'connecting' || this.phase === 'connected') return;
    this.open(pairing);
  }

  /** Drops the current connection and tries again now, with the backoff reset. */
  async reconnect(): Promise<void> {
    this.generation += 1;
    this.drop();
    this.phase = 'waiting';
    this.backoffMs = FIRST_BACKOFF_MS;
    await this.connect();
  }

  /** Closes the socket without forgetting the pairing: the native host serves the agents now. */
  standby(): void {
    this.generation += 1;
    if (this.phase === 'idle' && this.view.state === 'standby') return;
    this.drop();
    this.backoffMs = FIRST_BACKOFF_MS;
    this.enter('idle', { state: 'standby', server: null, detail: null, since: this.now() });
  }

  /** Closes everything; the person unpaired Tether. */
  forget(): void {
    this.generation += 1;
    this.drop();
    this.backoffMs = FIRST_BACKOFF_MS;
    this.enter('idle', NOT_PAIRED);
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  private enter(phase: ConnectionPhase, view: PersonStatus): void {
    this.phase = phase;
    this.view = view;
    this.deps.changed();
  }

  /** Forgets the socket and timers without a transition: nothing from the old socket counts any more. */
  private drop(): void {
    clearTimeout(this.retryTimer);
    clearInterval(this.keepAlive);
    const connection = this.connection;
    this.connection = null;
    connection?.close(1000, 'closing');
  }

  private open(pairing: Pairing): void {
    this.drop();
    this.enter('connecting', { state: 'connecting', server: null, detail: null, since: this.now() });
    let connection: PairedConnection | null = null;
    const current = () => connection !== null && this.connection === connection;
    let transport: FrameTransport;
    try {
      transport = this.deps.openSocket(`ws://127.0.0.1:${pairing.port}/tether`, {
        message: (frame) => connection?.receive(frame),
        closed: (code) => {
          // What arrived before the close is delivered first (e.g. the hub's "these sessions ended").
          void (connection?.closed() ?? Promise.resolve()).then(() => {
            if (current()) this.afterClose(code);
          });
        },
      });
    } catch (error) {
      this.wait({ state: 'offline', server: null, detail: String(error), since: this.now() });
      return;
    }
    // The token never goes on the wire: both sides prove they hold it (see shared/link/pairingProof.ts),
    // and requests are answered only in the session sealed under keys derived from it.
    connection = new PairedConnection(transport, clientPairing(pairing.token, { role: 'browser', profile: pairing.profile }), {
      paired: (paired) => {
        if (!current()) return;
        this.backoffMs = FIRST_BACKOFF_MS;
        this.keepAlive = setInterval(() => {
          if (!current()) return;
          connection?.send({ type: 'keepalive' }).catch(() => undefined);
          this.deps.stayAwake?.();
        }, KEEPALIVE_MS);
        this.enter('connected', { state: 'connected', server: paired.server, detail: null, since: this.now() });
      },
      message: (value) => {
        if (current() && connection) this.onMessage(connection, value);
      },
      failed: (failure) => {
        if (current()) this.afterFailure(failure, pairing.port);
      },
    });
    this.connection = connection;
  }

  private onMessage(connection: PairedConnection, value: unknown): void {
    const message = toBrowserSchema.safeParse(value);
    if (!message.success) return;
    if (message.data.type === 'request') void this.answer(connection, message.data);
    else if (message.data.type === 'ended') this.deps.ended?.(message.data.sessions);
  }

  private async answer(connection: PairedConnection, request: BridgeRequest): Promise<void> {
    const tool = request.tool as ToolName;
    const envelope = await this.deps.handle({ tool, args: request.args, callId: request.id, ...(request.agent ? { agent: request.agent } : {}) });
    await connection.send({ type: 'response', id: request.id, envelope }).catch(async (error: unknown) => {
      if (!(error instanceof MessageTooLarge)) return;
      const tooLarge: Envelope = {
        ok: false,
        error: tetherError(
          'invalid_request',
          `The answer is too large for Tether's bridge (${error.bytes} bytes; at most ${error.limit}): ask for less at once.`,
        ),
        meta: envelope.meta,
      };
      await connection.send({ type: 'response', id: request.id, envelope: tooLarge }).catch(() => undefined);
    });
  }

  private wait(view: PersonStatus): void {
    this.drop();
    this.enter('waiting', view);
    this.retryTimer = setTimeout(() => void this.connect(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  private refuse(detail: string): void {
    this.drop();
    this.enter('refused', { state: 'refused', server: null, detail, since: this.now() });
  }

  private afterFailure(failure: ConnectionFailure, port: number): void {
    const offline = (detail: string) => this.wait({ state: 'offline', server: null, detail, since: this.now() });
    const notOurs = `The program on port ${port} does not speak Tether's pairing protocol: it is not your agent server.`;
    switch (failure.kind) {
      case 'pairing':
        if (failure.failure.reason === 'version_mismatch') return this.refuse('The agent server speaks another protocol version: update Tether or the server.');
        if (failure.failure.reason === 'server_unproven') {
          // Something else holds the port. Tell the person, and try again later for the real one.
          return this.wait({
            state: 'refused',
            server: null,
            detail: `The program on port ${port} could not prove it holds the pairing token: it is not your agent server.`,
            since: this.now(),
          });
        }
        return offline(notOurs);
      case 'timeout':
        return offline(
          `The program on port ${port} did not finish Tether's pairing within a few seconds: it is not your agent server, or it is stuck. Retrying.`,
        );
      case 'frame':
        return this.phase === 'connected' ? offline(sessionBroken) : offline(notOurs);
      case 'session':
        return offline(sessionBroken);
    }
  }

  private afterClose(code: number): void {
    // A wrong token will not become right by retrying: wait for the person.
    if (code === CLOSE_BAD_TOKEN) return this.refuse('The agent server refused the pairing token.');
    if (code === CLOSE_REPLACED && this.deps.stopWhenReplaced) {
      this.drop();
      this.enter('idle', { state: 'offline', server: null, detail: 'Another connection from this profile replaced this one.', since: this.now() });
      return;
    }
    this.wait({
      state: 'offline',
      server: null,
      detail: code === CLOSE_REPLACED ? 'Another connection from this profile replaced this one.' : 'The agent server is not running or closed the connection.',
      since: this.now(),
    });
  }
}

const sessionBroken =
  'A message on the connection failed its authenticity check, so Tether closed it: another program may be sitting between Tether and the agent server. Reconnecting.';
