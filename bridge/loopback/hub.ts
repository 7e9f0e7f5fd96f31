/**
 * The hub: the one bridge process that owns the loopback port. Browser profiles (the extension)
 * connect to it; so do other bridge processes, each relaying its own agent's requests. The hub
 * routes every request to the profile it names and answers with that profile's envelope.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import {
  CLOSE_BUSY,
  CLOSE_REPLACED,
  MAX_ENDED_SESSIONS,
  MAX_UNPAIRED_CONNECTIONS,
  bridgeRequestSchema,
  bridgeResponseSchema,
} from '../../shared/link/bridgeProtocol.ts';
import { tetherError } from '../../shared/errors.ts';
import { serverPairing } from '../../shared/link/pairingHandshake.ts';
import type { ConnectionFailure, PairedConnection } from '../../shared/link/pairedConnection.ts';
import { parseAgentRequest } from '../../shared/agent/parseAgentRequest.ts';
import type { Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import { contextResultSchema, type ContextProfile, type ContextResult } from '../../shared/agent/results.ts';
import { MessageTooLarge } from '../../shared/link/sealedChannel.ts';
import { pairSocket, SOCKET_LIMITS } from './pairedWebSocket.ts';
import { classifyOrigin, isLoopbackHost, type PeerOrigin } from './loopbackGuard.ts';
import type { AgentCall, Link } from '../mcp/browserLink.ts';
import { PendingCalls } from './pendingCalls.ts';
import { notYourSession, SessionOwners, unnamedAgentFor } from '../sessionOwners.ts';
import { TETHER_VERSION } from '../version.ts';

export const SERVER_NAME = `tether-mcp ${TETHER_VERSION}`;

interface BrowserPeer {
  profileId: string;
  label: string;
  connection: PairedConnection;
  connectedAt: number;
}

/** A request sent to one browser connection, waiting for its answer. */
interface BrowserCall {
  connection: PairedConnection;
  tool: ToolName;
}

export function refusal(_tool: ToolName, code: Parameters<typeof tetherError>[0], message: string, details?: Record<string, unknown>): Envelope {
  return { ok: false, error: tetherError(code, message, details) };
}

export const NOT_CONNECTED_HINT =
  'Open the browser with the Tether extension; its panel (Connection) says what is missing. Usually it is the native host: run `npx -y tether-mcp install` once. Where that cannot be installed, paste the pairing token (`npx -y tether-mcp --print-token`) into the panel instead.';

/** Milliseconds since `started` (performance.now()), to two decimals, for `meta.bridgeMs`. */
export function bridgeMsSince(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/**
 * `context` asked of several profiles: one answer listing every profile that answered (the first
 * of each id; only answers that fit the context result), meta only when asked for (debug).
 */
export function mergeContexts(answers: Envelope[], started: number, debug: boolean): Envelope<ContextResult> {
  const results = answers.flatMap((answer) => {
    const checked = answer.ok ? contextResultSchema.safeParse(answer.result) : null;
    return checked?.success ? [checked.data] : [];
  });
  const seen = new Set<string>();
  const profiles: ContextProfile[] = results
    .flatMap((result) => result.profiles)
    .filter((profile) => !seen.has(profile.id) && seen.add(profile.id) !== undefined);
  const usage = results.find((result) => result.usage !== undefined)?.usage;
  const merged: Envelope<ContextResult> = { ok: true, result: { profiles, ...(usage !== undefined ? { usage } : {}) } };
  if (debug) merged.meta = { tool: 'context', bridgeMs: bridgeMsSince(started) };
  return merged;
}

/** How long a request may take in the browser: an act may wait for the person's approval, a resolve that asks for the person's choice. */
export function requestTimeoutMs(tool: ToolName, args: unknown): number {
  const named = (key: string): unknown => (typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[key] : undefined);
  if (tool === 'resolve') {
    const ask = named('ask');
    return ask === true ? 90_000 + 120_000 : typeof ask === 'number' ? 90_000 + ask * 1000 : 30_000;
  }
  if (tool !== 'act') return 30_000;
  const approval = named('approvalTimeoutSeconds');
  return 90_000 + (typeof approval === 'number' ? approval : 120) * 1000;
}

/** What a refused or dropped connection is logged as: codes only, nothing the peer chose. */
function describeFailure(failure: ConnectionFailure): string {
  switch (failure.kind) {
    case 'pairing':
      return failure.failure.reason === 'wrong_token' ? 'could not prove the pairing token' : `failed the handshake (${failure.failure.reason})`;
    case 'timeout':
      return 'did not finish the handshake in time';
    case 'frame':
      return `sent a frame out of protocol (${failure.problem})`;
    case 'session':
      return `sent a sealed frame that failed its check (${failure.failure})`;
  }
}

/** What a browser or the hub answers when a request cannot travel: too large, or the link went away. */
export function unsent(tool: ToolName, error: unknown, where: string): Envelope {
  return error instanceof MessageTooLarge
    ? refusal(tool, 'invalid_request', `This message is too large for Tether's bridge (${error.bytes} bytes; at most ${error.limit}).`, {
        bytes: error.bytes,
        limit: error.limit,
      })
    : refusal(tool, 'browser_not_connected', `The connection to ${where} closed before the request could be sent.`);
}

/** How long a stopping hub waits at most for its sessions' end notice to be sent. */
const ENDED_NOTICE_CAP_MS = 3_000;

export class Hub implements Link {
  private server: WebSocketServer | null = null;
  private readonly browsers = new Map<string, BrowserPeer>();
  private readonly pending = new PendingCalls<BrowserCall>('r');
  /** Connections that have not proved the token yet, oldest first. */
  private readonly unpaired = new Set<PairedConnection>();
  /** Which connection speaks for each MCP session (`self`: this process's own). */
  private readonly sessions = new SessionOwners<PairedConnection | 'self'>();

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Binds 127.0.0.1:port; rejects with EADDRINUSE when another process is the hub already. */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = new WebSocketServer({
        host: '127.0.0.1',
        port: this.port,
        // One ws limit for every socket, paired or not: a peer that has not proved the token can
        // make the hub hold at most one small frame; paired peers send large messages in chunks.
        ...SOCKET_LIMITS,
        verifyClient: (info: { origin: string; req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
          if (!isLoopbackHost(info.req.headers.host, this.port)) {
            this.log(`refused a connection with Host ${String(info.req.headers.host)}`);
            done(false, 403, 'Forbidden host');
            return;
          }
          if (classifyOrigin(info.req.headers.origin) === 'web') {
            this.log(`refused a connection from web origin ${String(info.req.headers.origin)}`);
            done(false, 403, 'Forbidden origin');
            return;
          }
          done(true);
        },
      });
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        server.on('error', (error) => this.log(`server error: ${error.message}`));
        this.server = server;
        resolve();
      });
      server.on('connection', (socket, request) => this.accept(socket, classifyOrigin(request.headers.origin)));
    });
  }

  private accept(socket: WebSocket, origin: PeerOrigin): void {
    let onMessage: (value: unknown) => void = () => undefined;
    let onClosed: () => void = () => undefined;
    const connection = pairSocket(
      socket,
      serverPairing(this.token, SERVER_NAME, origin === 'extension'),
      {
        paired: (paired) => {
          this.unpaired.delete(connection);
          if (paired.peer.role === 'browser') [onMessage, onClosed] = this.addBrowser(connection, paired.peer.profile.id, paired.peer.profile.label);
          else {
            onMessage = this.relayHandler(connection);
            // The relay's bridge went away: its sessions ended, and what they held is released.
            onClosed = () => this.tellEnded(this.sessions.release(connection));
          }
        },
        message: (value) => onMessage(value),
        failed: (failure) => this.log(`closed a connection that ${describeFailure(failure)}`),
        closed: () => {
          this.unpaired.delete(connection);
          onClosed();
        },
      },
      this.log,
    );
    this.unpaired.add(connection);
    // Past the limit, the oldest connection still in its handshake makes room: a burst of idle
    // connections cannot hold the port shut for the whole handshake timeout.
    if (this.unpaired.size > MAX_UNPAIRED_CONNECTIONS) {
      const [oldest] = this.unpaired;
      if (oldest) {
        this.unpaired.delete(oldest);
        oldest.close(CLOSE_BUSY, 'too many connections in the handshake');
      }
    }
  }

  /** Registers a paired browser profile; returns its message and close handlers. */
  private addBrowser(connection: PairedConnection, profileId: string, label: string): [(value: unknown) => void, () => void] {
    const previous = this.browsers.get(profileId);
    if (previous) previous.connection.close(CLOSE_REPLACED, 'replaced');
    this.browsers.set(profileId, { profileId, label, connection, connectedAt: Date.now() });
    this.log(`browser profile ${profileId} (${label}) connected`);
    const mine = (call: BrowserCall) => call.connection === connection;
    const onMessage = (value: unknown) => {
      const response = bridgeResponseSchema.safeParse(value);
      if (!response.success) return;
      this.pending.settle(response.data.id, (call) => this.checkEnvelope(call.tool, response.data.envelope), mine);
    };
    const onClosed = () => {
      if (this.browsers.get(profileId)?.connection === connection) this.browsers.delete(profileId);
      this.pending.settleAll(mine, (call) =>
        refusal(
          call.tool,
          'browser_not_connected',
          'The browser disconnected before it answered; if this was an act, call it again with the same requestId to learn what happened.',
          {
            inFlight: true,
          },
        ),
      );
      this.log(`browser profile ${profileId} disconnected`);
    };
    return [onMessage, onClosed];
  }

  /** A paired relay: its requests are answered like the hub's own agent's, each for the session it names (its own only). */
  private relayHandler(connection: PairedConnection): (value: unknown) => void {
    let unnamed: AgentIdentity | null = null;
    return (value) => {
      const request = bridgeRequestSchema.safeParse(value);
      if (!request.success) return;
      const { id, tool, args } = request.data;
      const agent = request.data.agent ?? (unnamed ??= unnamedAgentFor());
      const answering = this.sessions.claim(agent.session, connection)
        ? this.route({ tool: tool as ToolName, args, agent })
        : Promise.resolve(notYourSession());
      void answering.then((envelope) =>
        connection.send({ type: 'response', id, envelope }).catch((error: unknown) => {
          if (error instanceof MessageTooLarge)
            void connection.send({ type: 'response', id, envelope: unsent(tool as ToolName, error, 'the agent') }).catch(() => undefined);
        }),
      );
    };
  }

  /** An envelope from a browser is checked for shape before an agent sees it. */
  private checkEnvelope(tool: ToolName, value: unknown): Envelope {
    if (typeof value === 'object' && value !== null && 'ok' in value) return value as Envelope;
    // The request reached the browser: whatever it did (an act may have run) is not known, as when a call is lost in flight.
    return refusal(tool, 'browser_not_connected', 'The browser answered with something that is not a Tether envelope.', { inFlight: true });
  }

  profiles(): Array<{ id: string; label: string }> {
    return [...this.browsers.values()].map((peer) => ({ id: peer.profileId, label: peer.label }));
  }

  private ask(peer: BrowserPeer, call: AgentCall): Promise<Envelope> {
    const { id, answer } = this.pending.open({ connection: peer.connection, tool: call.tool }, requestTimeoutMs(call.tool, call.args), () =>
      refusal(call.tool, 'timeout', 'The browser did not answer in time. For an act, call again with the same requestId to learn what happened.'),
    );
    peer.connection.send({ type: 'request', id, tool: call.tool, args: call.args, ...(call.agent ? { agent: call.agent } : {}) }).catch((error: unknown) => {
      this.pending.settle(id, () => unsent(call.tool, error, 'the browser'));
    });
    return answer;
  }

  /** Tells every browser these sessions ended (in batches the message allows). */
  private tellEnded(sessions: string[]): Promise<unknown> {
    const sends: Array<Promise<unknown>> = [];
    for (let start = 0; start < sessions.length; start += MAX_ENDED_SESSIONS) {
      const batch = sessions.slice(start, start + MAX_ENDED_SESSIONS);
      for (const peer of this.browsers.values()) sends.push(peer.connection.send({ type: 'ended', sessions: batch }).catch(() => undefined));
    }
    return Promise.all(sends);
  }

  /** This process's own agent's call. */
  call(call: AgentCall): Promise<Envelope> {
    if (call.agent && !this.sessions.claim(call.agent.session, 'self')) return Promise.resolve(notYourSession());
    return this.route(call);
  }

  /** Routes by the profile the request names; `context` without one asks every profile. */
  private async route(call: AgentCall): Promise<Envelope> {
    const started = performance.now();
    // Relays parse before they send, but the hub believes nothing it did not check itself.
    const parsed = parseAgentRequest(call.tool, call.args);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const debug = parsed.value.args.debug === true;
    const profile = 'profile' in parsed.value.args ? parsed.value.args.profile : undefined;
    if (this.browsers.size === 0) {
      return refusal(call.tool, 'browser_not_connected', `No browser is connected to Tether. ${NOT_CONNECTED_HINT}`);
    }
    if (call.tool === 'context' && profile === undefined) {
      return mergeContexts(await Promise.all([...this.browsers.values()].map((peer) => this.ask(peer, call))), started, debug);
    }
    const peer = typeof profile === 'string' ? this.browsers.get(profile) : undefined;
    if (!peer) {
      return refusal(call.tool, 'browser_not_connected', `No connected browser has profile "${profile ?? ''}". Call context to list the connected profiles.`, {
        connected: this.profiles(),
      });
    }
    const envelope = await this.ask(peer, call);
    if (debug) envelope.meta = { ...envelope.meta, bridgeMs: bridgeMsSince(started) };
    return envelope;
  }

  async close(): Promise<void> {
    // This process's own sessions end with it: the browsers hear it before the sockets close (a
    // crash says nothing, and its holds end after their idle time).
    const ended = this.sessions.release('self');
    if (ended.length > 0) {
      // Sealing the message is local work only (a socket write does not wait for the peer), so the
      // cap is for a stuck process, not a slow one: at 500 ms a busy machine lost the message.
      await Promise.race([this.tellEnded(ended), new Promise((resolve) => setTimeout(resolve, ENDED_NOTICE_CAP_MS))]);
      // A closing handshake after the message, so it is delivered before the socket goes.
      const clients = [...(this.server?.clients ?? [])];
      for (const client of clients) client.close(1001, 'hub stopping');
      await Promise.race([
        Promise.all(clients.map((client) => new Promise((resolve) => (client.readyState === client.CLOSED ? resolve(null) : client.once('close', resolve))))),
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
    }
    for (const client of this.server?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
