/**
 * The extension's end of the agent channel, two ways:
 * - native messaging (nativeLink.ts), the primary path: the worker opens a port to Tether's native
 *   host at every start; MCP bridges reach the browser through the host. Nothing to paste, and the
 *   open port keeps the worker alive. While it serves, the keeper (keeper.ts) stands ready to
 *   restart a worker stopped by force (Chromium; Firefox has no offscreen documents).
 * - the loopback WebSocket to the bridge's hub, paired with a pasted token: the fallback when the
 *   host is not installed (or cannot start). Its logic is the state machine in
 *   connectionMachine.ts; this file gives it the browser: the stored pairing, the WebSocket, and
 *   the alarm that wakes a stopped worker to reconnect. It stands by while the native host serves.
 *   Chrome keeps a service worker alive while WebSocket messages flow (the machine sends a
 *   keepalive every 20 s); Firefox unloads its event page while a socket is open unless an
 *   extension API call says it is busy.
 *
 * The connection status is only a view for the person; the token and port are the state.
 */
import browser from 'webextension-polyfill';
import type { FrameTransport } from '../../shared/link/pairedConnection.ts';
import type { NativeProfile } from '../../shared/native/nativeProtocol.ts';
import type { AgentRequest, Envelope } from '../../shared/agent/agentProtocol.ts';
import type { ConnectionStatus } from '../../shared/extension/uiProtocol.ts';
import { AgentConnection, type SocketEvents } from '../core/connectionMachine.ts';
import { armKeeper, disarmKeeper, keeperAvailable } from './keeper.ts';
import { NativeLink, type NativePort } from './nativeLink.ts';
import { localStore, ready } from '../state/store.ts';

export const RECONNECT_ALARM = 'tether.reconnect';

type RequestHandler = (request: AgentRequest) => Promise<Envelope>;

/** Set once, synchronously, by the worker's entry (index.ts). */
const hooks: { handle: RequestHandler | null; changed: () => void; profile: () => Promise<NativeProfile>; ended: (sessions: string[]) => void } = {
  handle: null,
  changed: () => undefined,
  profile: () => Promise.reject(new Error('not ready')),
  ended: () => undefined,
};
const ended = (sessions: string[]) => hooks.ended(sessions);

const starting = (_request: AgentRequest): Promise<Envelope> =>
  Promise.resolve({ ok: false, error: { code: 'browser_not_connected', message: 'Tether is starting; call again.' } });

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
  handle: (request) => (hooks.handle ? hooks.handle(request) : starting(request)),
  ended,
  keepAwake: ensureReconnectAlarm,
  // Any call answered by the browser's parent process resets Firefox's idle timer (measured: a
  // storage read does not); Chromium does not need it and it costs nothing there.
  stayAwake: () => {
    void browser.runtime.getPlatformInfo().catch(() => undefined);
  },
  changed: () => hooks.changed(),
});

/**
 * The direct link (see ConnectionStatus.direct): the same connection machine as the fallback,
 * paired with what the native host offered instead of a pasted token. It lives only while the host
 * serves; the host offers it again to every new worker (its hello).
 */
let directOffer: { port: number; token: string } | null = null;
const direct = new AgentConnection({
  pairing: async () => {
    if (!directOffer) return null;
    const profile = await hooks.profile().catch(() => null);
    // The offer as it is now: one withdrawn or replaced meanwhile is not used.
    const offer = directOffer;
    return profile && offer ? { token: offer.token, port: offer.port, profile } : null;
  },
  openSocket: openBrowserSocket,
  handle: (request) => (hooks.handle ? hooks.handle(request) : starting(request)),
  ended,
  // The open native port keeps the worker alive, and a new worker is offered the link again.
  keepAwake: () => Promise.resolve(),
  stayAwake: () => {
    void browser.runtime.getPlatformInfo().catch(() => undefined);
  },
  changed: () => hooks.changed(),
  stopWhenReplaced: true,
});

function offerDirect(offer: { port: number; token: string } | null): void {
  const same = offer !== null && directOffer !== null && offer.port === directOffer.port && offer.token === directOffer.token;
  directOffer = offer;
  if (same && direct.state !== 'idle') return;
  if (offer) void direct.reconnect();
  else direct.forget();
}

const native = new NativeLink({
  connectNative: (name) => {
    if (typeof chrome === 'undefined' || typeof chrome.runtime.connectNative !== 'function')
      throw new Error('This browser offers no native messaging to Tether.');
    return chrome.runtime.connectNative(name) as NativePort;
  },
  lastError: () => (typeof chrome === 'undefined' ? undefined : chrome.runtime.lastError?.message),
  profile: () => hooks.profile(),
  extension: { id: browser.runtime.id, version: browser.runtime.getManifest().version },
  handle: (request) => (hooks.handle ? hooks.handle(request) : starting(request)),
  ended,
  direct: offerDirect,
  changed: (serving) => {
    hooks.changed();
    if (!serving && directOffer) offerDirect(null);
    if (serving) {
      void armKeeper();
      connection.standby();
      // The keeper restarts a worker stopped by force; where there is none (Firefox), the alarm
      // stays, so an event page terminated by force comes back and reopens the port within 30 s.
      if (keeperAvailable()) void browser.alarms.clear(RECONNECT_ALARM);
      else void ensureReconnectAlarm();
      return;
    }
    disarmKeeper();
    void connect();
  },
  log: (line) => console.warn(`[tether] native host: ${line}`),
});

export function connectionStatus(): ConnectionStatus {
  const { token, port } = localStore.getState().connection;
  const socket = token === null ? { state: 'not_paired' as const, server: null, detail: null, since: null } : connection.status();
  return { paired: token !== null, port, ...socket, native: native.status(), direct: { port: directOffer?.port ?? null, state: direct.status().state } };
}

/** Opens the native port if it is not open: every worker start. */
export function startNative(): void {
  native.start();
}

export function nativeProfileChanged(profile: NativeProfile): void {
  native.profileChanged(profile);
}

/**
 * The WebSocket runs only when the native host does not serve: it stands by while the host serves
 * and waits while the host is still starting (its answer, or its failure, decides).
 */
export function connect(): Promise<void> {
  const state = native.status().state;
  if (state === 'connected') {
    connection.standby();
    return Promise.resolve();
  }
  if (state === 'starting') return Promise.resolve();
  return connection.connect();
}

export function registerAgentConnection(
  requestHandler: RequestHandler,
  changed: () => void,
  profile: () => Promise<NativeProfile>,
  sessionsEnded: (sessions: string[]) => void,
): void {
  hooks.handle = requestHandler;
  hooks.changed = changed;
  hooks.profile = profile;
  hooks.ended = sessionsEnded;
}

/** The alarm's job: a worker that was stopped wakes up and reconnects. */
export async function ensureConnected(): Promise<void> {
  await connect();
}

export async function setPairing(token: string, port?: number): Promise<ConnectionStatus> {
  await ready();
  await localStore.setState((state) => ({ connection: { token, port: port ?? state.connection.port } }));
  if (native.serving) connection.standby();
  else await connection.reconnect();
  return connectionStatus();
}

export async function forgetPairing(): Promise<ConnectionStatus> {
  await ready();
  connection.forget();
  await localStore.setState((state) => ({ connection: { token: null, port: state.connection.port } }));
  // Firefox's native path still needs the alarm to come back after a forced stop (see changed above).
  if (!native.serving || keeperAvailable()) await browser.alarms.clear(RECONNECT_ALARM);
  return connectionStatus();
}

/** Tries both ways again now: the native host (perhaps just installed), then, unless it serves, the WebSocket. */
export async function reconnect(): Promise<ConnectionStatus> {
  native.restart();
  if (native.status().state !== 'starting' && !native.serving) await connection.reconnect();
  return connectionStatus();
}
