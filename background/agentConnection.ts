/**
 * The extension's end of the agent channel: one WebSocket to the bridge on 127.0.0.1, opened by
 * the extension (the bridge never reaches into the browser). It authenticates with the pairing
 * token the person pasted once, reconnects with backoff, and sends a small keepalive every 20 s:
 * Chrome keeps a service worker alive while WebSocket messages flow, and an alarm wakes a stopped
 * worker to reconnect.
 *
 * The connection status is only a view for the person; the token and port are the state.
 */
import browser from 'webextension-polyfill';
import {
  BRIDGE_PROTOCOL_VERSION,
  CLOSE_BAD_TOKEN,
  CLOSE_REPLACED,
  toBrowserSchema,
  type BridgeRequest,
} from '../shared/bridgeProtocol.ts';
import { clientProof, freshNonce, sameProof, serverProof } from '../shared/pairingProof.ts';
import { parseFrame } from '../shared/parseFrame.ts';
import type { AgentRequest, Envelope } from '../shared/protocol.ts';
import type { ConnectionStatus } from '../shared/runtimeProtocol.ts';
import { localStore, ready } from './store.ts';

export const RECONNECT_ALARM = 'tether.reconnect';
const KEEPALIVE_MS = 20_000;
const MAX_BACKOFF_MS = 30_000;

type RequestHandler = (request: AgentRequest) => Promise<Envelope>;

let socket: WebSocket | null = null;
let keepAlive: ReturnType<typeof setInterval> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let backoffMs = 1000;
let handler: RequestHandler | null = null;
let onChange: () => void = () => undefined;
let status: Omit<ConnectionStatus, 'paired' | 'port'> = { state: 'not_paired', server: null, detail: null, since: null };

function setStatus(next: Omit<ConnectionStatus, 'paired' | 'port'>): void {
  status = next;
  onChange();
}

export function connectionStatus(): ConnectionStatus {
  const { token, port } = localStore.getState().connection;
  return { paired: token !== null, port, ...(token === null ? { state: 'not_paired', server: null, detail: null, since: null } : status) };
}

function stopSocket(): void {
  clearInterval(keepAlive);
  clearTimeout(retryTimer);
  if (socket) {
    socket.onclose = null;
    socket.onmessage = null;
    socket.onerror = null;
    socket.close();
    socket = null;
  }
}

function scheduleRetry(): void {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void connect(), backoffMs);
  backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
}

async function answer(ws: WebSocket, request: BridgeRequest): Promise<void> {
  const envelope = handler
    ? await handler({ tool: request.tool as AgentRequest['tool'], args: request.args, callId: request.id })
    : null;
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'response', id: request.id, envelope }));
}

/**
 * While paired, an alarm wakes a stopped worker to reconnect: the bridge cannot wake it. 30 s is
 * the shortest period Chrome allows packed extensions.
 */
async function ensureReconnectAlarm(): Promise<void> {
  if (!(await browser.alarms.get(RECONNECT_ALARM))) await browser.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
}

/** Opens the connection if the person paired Tether and it is not open already. */
export async function connect(): Promise<void> {
  await ready();
  const { token, port } = localStore.getState().connection;
  const profile = localStore.getState().profile;
  if (!token || !profile) {
    setStatus({ state: 'not_paired', server: null, detail: null, since: null });
    return;
  }
  await ensureReconnectAlarm();
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  stopSocket();
  setStatus({ state: 'connecting', server: null, detail: null, since: Date.now() });
  let ws: WebSocket;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${port}/tether`);
  } catch (error) {
    setStatus({ state: 'offline', server: null, detail: String(error), since: Date.now() });
    scheduleRetry();
    return;
  }
  socket = ws;
  // The token never goes on the wire: both sides prove they hold it (see shared/pairingProof.ts),
  // and requests are answered only once the server has proved itself.
  const clientNonce = freshNonce();
  let serverNonce: string | null = null;
  let verified = false;
  ws.onopen = () => {
    keepAlive = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN && verified) ws.send(JSON.stringify({ type: 'keepalive' }));
    }, KEEPALIVE_MS);
  };
  ws.onmessage = (event) => {
    const message = toBrowserSchema.safeParse(parseFrame(event.data));
    if (!message.success) return;
    const frame = message.data;
    if (frame.type === 'challenge' && serverNonce === null) {
      if (frame.version !== BRIDGE_PROTOCOL_VERSION) {
        setStatus({ state: 'refused', server: null, detail: 'The agent server speaks another protocol version: update Tether or the server.', since: Date.now() });
        ws.onclose = null;
        ws.close();
        return;
      }
      const nonce = frame.nonce;
      serverNonce = nonce;
      void clientProof(token, nonce, clientNonce, 'browser').then((proof) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(JSON.stringify({ type: 'hello', role: 'browser', nonce: clientNonce, proof, version: BRIDGE_PROTOCOL_VERSION, profile: { id: profile.id, label: profile.label } }));
      });
    } else if (frame.type === 'welcome' && serverNonce !== null && !verified) {
      void serverProof(token, serverNonce, clientNonce).then((expected) => {
        if (!sameProof(frame.proof, expected)) {
          // Something else holds the port. Tell the person, and try again later for the real one.
          setStatus({ state: 'refused', server: null, detail: `The program on port ${port} could not prove it holds the pairing token: it is not your agent server.`, since: Date.now() });
          ws.onclose = null;
          ws.close();
          if (socket === ws) socket = null;
          scheduleRetry();
          return;
        }
        verified = true;
        backoffMs = 1000;
        setStatus({ state: 'connected', server: frame.server, detail: null, since: Date.now() });
      });
    } else if (frame.type === 'request' && verified) {
      void answer(ws, frame);
    }
  };
  ws.onclose = (event) => {
    clearInterval(keepAlive);
    if (socket === ws) socket = null;
    if (event.code === CLOSE_BAD_TOKEN) {
      // A wrong token will not become right by retrying: wait for the person.
      setStatus({ state: 'refused', server: null, detail: 'The agent server refused the pairing token.', since: Date.now() });
      return;
    }
    setStatus({
      state: 'offline',
      server: null,
      detail: event.code === CLOSE_REPLACED ? 'Another connection from this profile replaced this one.' : 'The agent server is not running or closed the connection.',
      since: Date.now(),
    });
    scheduleRetry();
  };
  ws.onerror = () => undefined;
}

export function registerAgentConnection(requestHandler: RequestHandler, changed: () => void): void {
  handler = requestHandler;
  onChange = changed;
}

/** The alarm's job: a worker that was stopped wakes up and reconnects. */
export async function ensureConnected(): Promise<void> {
  await connect();
}

export async function setPairing(token: string, port?: number): Promise<ConnectionStatus> {
  await ready();
  await localStore.setState((state) => ({ connection: { token, port: port ?? state.connection.port } }));
  stopSocket();
  backoffMs = 1000;
  await connect();
  return connectionStatus();
}

export async function forgetPairing(): Promise<ConnectionStatus> {
  await ready();
  stopSocket();
  await localStore.setState((state) => ({ connection: { token: null, port: state.connection.port } }));
  await browser.alarms.clear(RECONNECT_ALARM);
  setStatus({ state: 'not_paired', server: null, detail: null, since: null });
  return connectionStatus();
}

export async function reconnect(): Promise<ConnectionStatus> {
  stopSocket();
  backoffMs = 1000;
  await connect();
  return connectionStatus();
}
