/**
 * The hub: the one bridge process that owns the loopback port. Browser profiles (the extension)
 * connect to it; so do other bridge processes, each relaying its own agent's requests. The hub
 * routes every request to the profile it names and answers with that profile's envelope.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  BRIDGE_PROTOCOL_VERSION,
  CLOSE_BAD_HELLO,
  CLOSE_BAD_TOKEN,
  CLOSE_REPLACED,
  bridgeRequestSchema,
  bridgeResponseSchema,
  helloSchema,
} from '../shared/bridgeProtocol.ts';
import { tetherError } from '../shared/errors.ts';
import { clientProof, freshNonce, sameProof, serverProof } from '../shared/pairingProof.ts';
import { parseFrame } from '../shared/parseFrame.ts';
import { isToolName, parseAgentRequest } from '../shared/parseAgentRequest.ts';
import type { Envelope, EnvelopeMeta, ToolName } from '../shared/protocol.ts';
import { classifyOrigin, isLoopbackHost, type PeerOrigin } from './loopbackGuard.ts';
import type { AgentCall, Link } from './link.ts';

const HELLO_TIMEOUT_MS = 5_000;
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const SERVER_NAME = 'tether-mcp 0.1.0';

interface BrowserPeer {
  profileId: string;
  label: string;
  socket: WebSocket;
  connectedAt: number;
}

interface Pending {
  resolve(envelope: Envelope): void;
  timer: ReturnType<typeof setTimeout>;
  profileId: string;
  tool: ToolName;
}

export function refusal(tool: ToolName, code: Parameters<typeof tetherError>[0], message: string, details?: Record<string, unknown>): Envelope {
  return { ok: false, error: tetherError(code, message, details), meta: { tool } };
}

export const NOT_CONNECTED_HINT =
  'Open Chromium with the Tether extension and paste the pairing token (run `npx tether-mcp --print-token`) into Tether’s panel → Connection.';

/** How long a request may take in the browser: an act may wait for the person's approval. */
export function requestTimeoutMs(tool: ToolName, args: unknown): number {
  if (tool !== 'act') return 30_000;
  const approval = typeof args === 'object' && args !== null ? (args as { approvalTimeoutSeconds?: unknown }).approvalTimeoutSeconds : undefined;
  return 90_000 + (typeof approval === 'number' ? approval : 120) * 1000;
}

export class Hub implements Link {
  private server: WebSocketServer | null = null;
  private readonly browsers = new Map<string, BrowserPeer>();
  private readonly pending = new Map<string, Pending>();
  private nextId = 0;

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
        maxPayload: MAX_MESSAGE_BYTES,
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
    const helloTimer = setTimeout(() => socket.close(CLOSE_BAD_HELLO, 'hello expected'), HELLO_TIMEOUT_MS);
    const serverNonce = freshNonce();
    socket.send(JSON.stringify({ type: 'challenge', nonce: serverNonce, version: BRIDGE_PROTOCOL_VERSION }));
    socket.once('message', (data) => {
      clearTimeout(helloTimer);
      void this.answerHello(socket, origin, serverNonce, parseFrame(data));
    });
  }

  private async answerHello(socket: WebSocket, origin: PeerOrigin, serverNonce: string, frame: unknown): Promise<void> {
    const hello = helloSchema.safeParse(frame);
    if (!hello.success || hello.data.version !== BRIDGE_PROTOCOL_VERSION) {
      socket.close(CLOSE_BAD_HELLO, 'bad hello');
      return;
    }
    const expected = await clientProof(this.token, serverNonce, hello.data.nonce, hello.data.role);
    if (!sameProof(hello.data.proof, expected)) {
      this.log('refused a connection that could not prove the pairing token');
      socket.close(CLOSE_BAD_TOKEN, 'wrong token');
      return;
    }
    // A browser must come from an extension; a relay must be a local program.
    if ((hello.data.role === 'browser') !== (origin === 'extension')) {
      socket.close(CLOSE_BAD_HELLO, 'role does not match origin');
      return;
    }
    socket.send(JSON.stringify({ type: 'welcome', server: SERVER_NAME, proof: await serverProof(this.token, serverNonce, hello.data.nonce) }));
    if (hello.data.role === 'browser') this.addBrowser(socket, hello.data.profile.id, hello.data.profile.label);
    else this.addRelay(socket);
  }

  private addBrowser(socket: WebSocket, profileId: string, label: string): void {
    const previous = this.browsers.get(profileId);
    if (previous) previous.socket.close(CLOSE_REPLACED, 'replaced');
    this.browsers.set(profileId, { profileId, label, socket, connectedAt: Date.now() });
    this.log(`browser profile ${profileId} (${label}) connected`);
    socket.on('message', (data) => {
      const parsed = parseFrame(data);
      const response = bridgeResponseSchema.safeParse(parsed);
      if (!response.success) return;
      const pending = this.pending.get(response.data.id);
      if (!pending || pending.profileId !== profileId) return;
      this.pending.delete(response.data.id);
      clearTimeout(pending.timer);
      pending.resolve(this.checkEnvelope(pending.tool, response.data.envelope));
    });
    socket.on('close', () => {
      if (this.browsers.get(profileId)?.socket === socket) this.browsers.delete(profileId);
      for (const [id, pending] of this.pending) {
        if (pending.profileId !== profileId) continue;
        this.pending.delete(id);
        clearTimeout(pending.timer);
        pending.resolve(
          refusal(pending.tool, 'browser_not_connected', 'The browser disconnected before it answered; if this was an act, call it again with the same requestId to learn what happened.', {
            inFlight: true,
          }),
        );
      }
      this.log(`browser profile ${profileId} disconnected`);
    });
  }

  private addRelay(socket: WebSocket): void {
    socket.on('message', (data) => {
      const parsed = parseFrame(data);
      const request = bridgeRequestSchema.safeParse(parsed);
      if (!request.success) return;
      const { id, tool, args } = request.data;
      void this.call({ tool: tool as ToolName, args }).then((envelope) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'response', id, envelope }));
      });
    });
  }

  /** An envelope from a browser is checked for shape before an agent sees it. */
  private checkEnvelope(tool: ToolName, value: unknown): Envelope {
    if (typeof value === 'object' && value !== null && 'ok' in value && 'meta' in value) return value as Envelope;
    return refusal(tool, 'browser_not_connected', 'The browser answered with something that is not a Tether envelope.');
  }

  profiles(): Array<{ id: string; label: string }> {
    return [...this.browsers.values()].map((peer) => ({ id: peer.profileId, label: peer.label }));
  }

  private ask(peer: BrowserPeer, call: AgentCall): Promise<Envelope> {
    const id = `r${(this.nextId += 1)}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(refusal(call.tool, 'timeout', 'The browser did not answer in time. For an act, call again with the same requestId to learn what happened.'));
      }, requestTimeoutMs(call.tool, call.args));
      this.pending.set(id, { resolve, timer, profileId: peer.profileId, tool: call.tool });
      peer.socket.send(JSON.stringify({ type: 'request', id, tool: call.tool, args: call.args }));
    });
  }

  /** Routes by the profile the request names; `context` without one asks every profile. */
  async call(call: AgentCall): Promise<Envelope> {
    const started = Date.now();
    // Relays parse before they send, but the hub believes nothing it did not check itself.
    const parsed = parseAgentRequest(call.tool, call.args);
    if (!parsed.ok) return { ok: false, error: parsed.error, meta: { tool: isToolName(call.tool) ? call.tool : 'unknown' } };
    const profile = 'profile' in parsed.value.args ? parsed.value.args.profile : undefined;
    if (this.browsers.size === 0) {
      return refusal(call.tool, 'browser_not_connected', `No browser is connected to Tether. ${NOT_CONNECTED_HINT}`);
    }
    if (call.tool === 'context' && profile === undefined) {
      const answers = await Promise.all([...this.browsers.values()].map((peer) => this.ask(peer, call)));
      const profiles = answers.flatMap((answer) => (answer.ok ? ((answer.result as { profiles?: unknown[] }).profiles ?? []) : []));
      const usage = answers.map((answer) => (answer.ok ? (answer.result as { usage?: unknown }).usage : undefined)).find((text) => typeof text === 'string');
      const meta: EnvelopeMeta = { tool: 'context', bridgeMs: Date.now() - started };
      return { ok: true, result: { profiles, ...(usage ? { usage } : {}) }, meta };
    }
    const peer = typeof profile === 'string' ? this.browsers.get(profile) : undefined;
    if (!peer) {
      return refusal(call.tool, 'browser_not_connected', `No connected browser has profile "${profile ?? ''}". Call context to list the connected profiles.`, {
        connected: this.profiles(),
      });
    }
    const envelope = await this.ask(peer, call);
    envelope.meta = { ...envelope.meta, bridgeMs: Date.now() - started };
    return envelope;
  }

  async close(): Promise<void> {
    for (const client of this.server?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
