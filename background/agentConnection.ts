/**
 * The extension's end of the agent channel: one WebSocket to the bridge on 127.0.0.1, opened by
 * the extension (the bridge never reaches into the browser). The connection's logic is the state
 * machine in connectionMachine.ts; this file gives it the browser: the stored pairing, the
 * WebSocket, and the alarm that wakes a stopped worker to reconnect. Chrome keeps a service
 * worker alive while WebSocket messages flow (the machine sends a keepalive every 20 s); Firefox
 * unloads its event page while a socket is open unless an extension API call says it is busy.
 *
 * The connection status is only a view for the person; the token and port are the state.
 */
import browser from 'webextension-polyfill';
import type { FrameTransport } from '../shared/pairedConnection.ts';
import type { AgentRequest, Envelope } from '../shared/protocol.ts';
import type { ConnectionStatus } from '../shared/runtimeProtocol.ts';
import { AgentConnection, type SocketEvents } from './connectionMachine.ts';
import { localStore, ready } from './store.ts';

export const RECONNECT_ALARM = 'tether.reconnect';

type RequestHandler = (request: AgentRequest) => Promise<Envelope>;

/** Set once, synchronously, by the worker's entry (index.ts). */
const hooks: { handle: RequestHandler | null; changed: () => void } = { handle: null, changed: () => undefined };

function openBrowserSocket(url: string, events: SocketEvents): FrameTransport {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (event: MessageEvent) => events.message(typeof event.data === 'string' ? event.data : new Uint8Array(event.data as ArrayBuffer));
  socket.onclose = (event) => events.closed(event.code);
  socket.onerror = () => undefined;
  return {
    sendText: (text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    sendBinary: (frame) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(frame);
    },
    close: (code, reason) => socket.close(code, reason),
  };
}

/**
 * While paired, an alarm wakes a stopped worker to reconnect: the bridge cannot wake it. 30 s is
 * the shortest period Chrome allows packed extensions.
 */
async function ensureReconnectAlarm(): Promise<void> {
  if (!(await browser.alarms.get(RECONNECT_ALARM))) await browser.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
}

const connection = new AgentConnection({
  pairing: async () => {
    await ready();
    const { token, port } = localStore.getState().connection;
    const profile = localStore.getState().profile;
    return token && profile ? { token, port, profile: { id: profile.id, label: profile.label } } : null;
  },
  openSocket: openBrowserSocket,
  handle: (request) => {
    if (hooks.handle) return hooks.handle(request);
    return Promise.resolve({ ok: false, error: { code: 'browser_not_connected', message: 'Tether is starting; call again.' } });
  },
  keepAwake: ensureReconnectAlarm,
  // Any call answered by the browser's parent process resets Firefox's idle timer (measured: a
  // storage read does not); Chromium does not need it and it costs nothing there.
  stayAwake: () => {
    void browser.runtime.getPlatformInfo().catch(() => undefined);
  },
  changed: () => hooks.changed(),
});

export function connectionStatus(): ConnectionStatus {
  const { token, port } = localStore.getState().connection;
  return { paired: token !== null, port, ...(token === null ? { state: 'not_paired', server: null, detail: null, since: null } : connection.status()) };
}

/** Opens the connection if the person paired Tether and it is not open already. */
export function connect(): Promise<void> {
  return connection.connect();
}

export function registerAgentConnection(requestHandler: RequestHandler, changed: () => void): void {
  hooks.handle = requestHandler;
  hooks.changed = changed;
}

/** The alarm's job: a worker that was stopped wakes up and reconnects. */
export async function ensureConnected(): Promise<void> {
  await connection.connect();
}

export async function setPairing(token: string, port?: number): Promise<ConnectionStatus> {
  await ready();
  await localStore.setState((state) => ({ connection: { token, port: port ?? state.connection.port } }));
  await connection.reconnect();
  return connectionStatus();
}

export async function forgetPairing(): Promise<ConnectionStatus> {
  await ready();
  connection.forget();
  await localStore.setState((state) => ({ connection: { token: null, port: state.connection.port } }));
  await browser.alarms.clear(RECONNECT_ALARM);
  return connectionStatus();
}

export async function reconnect(): Promise<ConnectionStatus> {
  await connection.reconnect();
  return connectionStatus();
}
