/**
 * Tether's native messaging host: the browser starts it when the extension's service worker calls
 * `runtime.connectNative` (one host per browser profile), through the launcher `npx tether-mcp
 * install` wrote, with absolute paths only (the browser's PATH may not have node):
 *
 *   tether-host.js [--allow ORIGIN]… --run-dir DIR --config-dir DIR [--log FILE] -- <browser's arguments>
 *
 * - It serves only Tether: the browser passes the caller's origin (Chrome: `chrome-extension://id/`;
 *   Firefox: the manifest path and the add-on id); anything not in --allow is refused before a byte
 *   is read.
 * - It lives exactly as long as the port: while the port is open it never exits (the open port is
 *   what keeps the worker alive, agent server or not); on stdin's end (browser quit, worker
 *   stopped, extension reloaded) it removes its run-folder entry and exits.
 * - It listens at once, where hostChannel.ts says: on Linux and macOS `<run dir>/h-<pid>.sock`
 *   (0600, in a 0700 folder), bound under a temporary name and renamed into place once listening,
 *   so a socket that refuses connections means its host is gone; on Windows a named pipe of its
 *   own, named in `<run dir>/h-<pid>.pipe`. Bridges learn which profile it serves once the worker
 *   says it. MCP bridges connect there and pair exactly as over the WebSocket (the token from the
 *   user's config folder, both sides proving it; then every message sealed): the socket's
 *   permissions (the pipe's ACL) keep other users out, the pairing keeps out whatever else might
 *   sit in that folder or answer on that name.
 * - Requests from every bridge go to the worker under ids of the host's own; answers go back to
 *   the bridge that asked. A request too large for one native message (the browser closes the port
 *   on a message over 1 MiB) goes in parts.
 * - Bad input fails closed without taking the port down: a native message that is too large or
 *   not JSON is skipped and logged; a bridge that sends anything out of protocol loses only its
 *   own connection.
 */
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import { CLOSE_BUSY, MAX_ENDED_SESSIONS, MAX_MESSAGE_BYTES, MAX_UNPAIRED_CONNECTIONS } from '../../shared/link/bridgeProtocol.ts';
import { tetherError } from '../../shared/errors.ts';
import {
  MAX_FROM_HOST_BYTES,
  MAX_TO_HOST_BYTES,
  NATIVE_PROTOCOL_VERSION,
  bridgeToHostSchema,
  fromWorkerSchema,
  splitForWorker,
  type NativeProfile,
} from '../../shared/native/nativeProtocol.ts';
import { serverPairing } from '../../shared/link/pairingHandshake.ts';
import type { PairedConnection } from '../../shared/link/pairedConnection.ts';
import { loadConfig } from '../config.ts';
import { NOT_YOUR_SESSION, SessionOwners, unnamedAgentFor } from '../sessionOwners.ts';
import { NativeReader, nativeFrame } from './nativeFraming.ts';
import { callerAllowed, parseHostArgs, type HostOptions } from './hostArgs.ts';
import { hostChannelFor, listenAndPublish, unpublish, type Publication } from './hostChannel.ts';
import { currentAccount } from '../runDir.ts';
import { pairStream } from './streamFrames.ts';
import { TETHER_VERSION } from '../version.ts';

const LOG_LIMIT_BYTES = 1024 * 1024;

function makeLog(file: string | null): (line: string) => void {
  if (file) {
    try {
      if (statSync(file).size > LOG_LIMIT_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
  }
  return (line) => {
    const text = `${new Date().toISOString()} [tether-host ${process.pid}] ${line}\n`;
    if (!file) {
      process.stderr.write(text);
      return;
    }
    try {
      appendFileSync(file, text, { mode: 0o600 });
    } catch {
      process.stderr.write(text);
    }
  };
}

interface BridgePeer {
  connection: PairedConnection;
  paired: boolean;
  /** The loopback port this bridge holds (it is the hub), if it said so. */
  hubPort: number | null;
  /** The session its calls carry when its bridge names none (an older tether-mcp). */
  unnamed: AgentIdentity | null;
}

class NativeHost {
  private profile: NativeProfile | null = null;
  private server: Server | null = null;
  private published: Publication | null = null;
  private readonly peers = new Set<BridgePeer>();
  /** Requests sent to the worker: host id → the bridge and its own id (and, for `debug`, when it left). */
  private readonly asked = new Map<string, { peer: BridgePeer; id: string; debugSince: number | null }>();
  private next = 0;
  private stopping = false;
  /** The hub port last offered to the worker for its direct link (null: none). */
  private offered: number | null = null;
  /** The worker said it takes direct-link offers (an older one would refuse them as not Tether's). */
  private workerTakesDirect = false;
  /** The worker said it takes `ended` sessions. */
  private workerTakesEnded = false;
  /** Which bridge connection speaks for each MCP session. */
  private readonly sessions = new SessionOwners<BridgePeer>();

  constructor(
    private readonly options: HostOptions,
    private readonly token: string,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    const reader = new NativeReader(MAX_TO_HOST_BYTES, (input) => {
      if (input.kind === 'message') this.fromWorker(input.value);
      else
        this.log(
          `refused a native message from the browser: ${input.kind === 'oversize' ? `${input.bytes} bytes, over the limit` : 'not JSON'}; the port stays open`,
        );
    });
    process.stdin.on('data', (chunk: Buffer) => reader.push(chunk));
    process.stdin.on('end', () => this.stop('the browser closed the port'));
    process.stdin.on('error', () => this.stop('the port failed'));
    process.stdout.on('error', () => this.stop('the port failed'));
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => this.stop(signal));
    this.log(`started for ${this.options.browserArgs[0] ?? '?'}`);
    // Listening while the worker still loads its state: bridges connect and pair meanwhile, and
    // learn the profile (and only then send requests) once the worker has said it.
    this.listen();
  }

  private toWorker(message: unknown): boolean {
    const frame = nativeFrame(message, MAX_FROM_HOST_BYTES);
    if (!frame) return false;
    process.stdout.write(frame);
    return true;
  }

  private fromWorker(value: unknown): void {
    const parsed = fromWorkerSchema.safeParse(value);
    if (!parsed.success) {
      this.log(`refused a native message from the browser that is not Tether's (${parsed.error.issues[0]?.message ?? 'invalid'}); the port stays open`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'hello':
        if (message.version !== NATIVE_PROTOCOL_VERSION)
          this.log(`the extension speaks native protocol ${message.version}; this host speaks ${NATIVE_PROTOCOL_VERSION}`);
        this.setProfile(message.profile);
        this.workerTakesDirect = message.features?.includes('direct') === true;
        this.workerTakesEnded = message.features?.includes('agents') === true;
        // The worker counts itself connected from the host's first message.
        this.toWorker({ type: 'bridges', count: this.bridgeCount() });
        // A (re)started worker learns the hub to link to directly, if a bridge holds one.
        this.offerDirect(true);
        return;
      case 'profile':
        this.setProfile(message.profile);
        return;
      case 'response': {
        const asked = this.asked.get(message.id);
        if (!asked) return;
        this.asked.delete(message.id);
        const envelope = message.envelope;
        // A request that asked for diagnostics learns how long the host waited for the worker.
        if (
          asked.debugSince !== null &&
          typeof envelope === 'object' &&
          envelope !== null &&
          'meta' in envelope &&
          typeof envelope.meta === 'object' &&
          envelope.meta !== null
        ) {
          Object.assign(envelope.meta, { hostMs: Math.round((performance.now() - asked.debugSince) * 100) / 100 });
        }
        void asked.peer.connection.send({ type: 'response', id: asked.id, envelope }).catch(() => undefined);
        return;
      }
    }
  }

  private setProfile(profile: NativeProfile): void {
    this.profile = profile;
    for (const peer of this.peers) if (peer.paired) void peer.connection.send({ type: 'profile', profile }).catch(() => undefined);
    if (!this.server) this.listen();
  }

  private listen(): void {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    const channel = hostChannelFor(process.platform, this.options.runDir, currentAccount());
    void listenAndPublish(channel, server, process.pid, this.log).then((published) => {
      if (!published) {
        // Tried again when the worker next says its profile.
        server.close();
        if (this.server === server) this.server = null;
        return;
      }
      server.on('error', (error) => this.log(`socket server error: ${error.message}`));
      if (this.stopping) {
        unpublish(published);
        return;
      }
      this.published = published;
      const where = published.descriptor === null ? published.entry : `${published.listen} (named in ${published.entry})`;
      this.log(`listening on ${where} for profile ${this.profile?.id ?? '?'}`);
    });
  }

  private bridgeCount(): number {
    let count = 0;
    for (const peer of this.peers) if (peer.paired) count += 1;
    return count;
  }

  private accept(socket: Socket): void {
    const unpaired = [...this.peers].filter((peer) => !peer.paired);
    if (unpaired.length >= MAX_UNPAIRED_CONNECTIONS) unpaired[0]?.connection.close(CLOSE_BUSY, 'too many connections in the handshake');
    const peer: BridgePeer = { connection: undefined as unknown as PairedConnection, paired: false, hubPort: null, unnamed: null };
    peer.connection = pairStream(
      socket,
      serverPairing(this.token, `tether-host ${TETHER_VERSION}`, false),
      {
        paired: () => {
          peer.paired = true;
          if (this.profile) void peer.connection.send({ type: 'profile', profile: this.profile }).catch(() => undefined);
          this.toWorker({ type: 'bridges', count: this.bridgeCount() });
        },
        message: (value) => this.fromBridge(peer, value),
        failed: (failure) => this.log(`closed a bridge connection that failed (${failure.kind === 'pairing' ? failure.failure.reason : failure.kind})`),
        closed: () => {
          const wasPaired = peer.paired;
          this.peers.delete(peer);
          for (const [id, asked] of this.asked) if (asked.peer === peer) this.asked.delete(id);
          if (wasPaired) this.toWorker({ type: 'bridges', count: this.bridgeCount() });
          // The bridge went away (not this host: a host that stops says nothing, its worker's holds stay).
          const ended = this.sessions.release(peer);
          if (!this.stopping && this.workerTakesEnded)
            for (let start = 0; start < ended.length; start += MAX_ENDED_SESSIONS)
              this.toWorker({ type: 'ended', sessions: ended.slice(start, start + MAX_ENDED_SESSIONS) });
          this.offerDirect(false);
        },
      },
      this.log,
    );
    this.peers.add(peer);
  }

  private fromBridge(peer: BridgePeer, value: unknown): void {
    const parsed = bridgeToHostSchema.safeParse(value);
    if (!parsed.success) {
      this.log('ignored a message from a bridge that is not a request');
      return;
    }
    if (parsed.data.type === 'hub') {
      peer.hubPort = parsed.data.port;
      this.offerDirect(false);
      return;
    }
    const request = parsed.data;
    // A bridge speaks only for its own MCP sessions: a key another connection presents is refused.
    const agent = request.agent ?? (peer.unnamed ??= unnamedAgentFor());
    if (!this.sessions.claim(agent.session, peer)) {
      const envelope = {
        ok: false,
        error: tetherError('invalid_request', NOT_YOUR_SESSION),
        meta: { tool: request.tool },
      };
      void peer.connection.send({ type: 'response', id: request.id, envelope }).catch(() => undefined);
      return;
    }
    this.next += 1;
    const id = `n${this.next}`;
    const debug = typeof request.args === 'object' && request.args !== null && 'debug' in request.args && request.args.debug === true;
    this.asked.set(id, { peer, id: request.id, debugSince: debug ? performance.now() : null });
    for (const message of splitForWorker({ type: 'request', id, tool: request.tool, args: request.args, agent })) {
      if (!this.toWorker(message)) {
        this.asked.delete(id);
        const envelope = {
          ok: false,
          error: tetherError('invalid_request', `This request is too large for the browser (at most ${MAX_MESSAGE_BYTES} bytes).`),
          meta: { tool: request.tool },
        };
        void peer.connection.send({ type: 'response', id: request.id, envelope }).catch(() => undefined);
        return;
      }
    }
  }

  /**
   * Tells the worker which hub to link to directly: the port of the most recently connected paired
   * bridge that holds one, with the token this host and its bridges share (the worker pairs with
   * the hub on it, as with a pasted token). Only on a change; after a worker's hello (`hello`), only
   * when there is a port to offer.
   */
  private offerDirect(hello: boolean): void {
    if (!this.workerTakesDirect) return;
    let port: number | null = null;
    for (const peer of this.peers) if (peer.paired && peer.hubPort !== null) port = peer.hubPort;
    if (hello ? port === null : port === this.offered) {
      this.offered = port;
      return;
    }
    this.offered = port;
    this.toWorker(port === null ? { type: 'direct', port: null } : { type: 'direct', port, token: this.token });
  }

  stop(why: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.log(`stopping: ${why}`);
    if (this.published) unpublish(this.published);
    for (const peer of this.peers) peer.connection.close(1001, 'host stopping');
    this.server?.close();
    process.exit(0);
  }
}

function main(): void {
  const options = parseHostArgs(process.argv.slice(2));
  const log = makeLog(options.logFile);
  if (!callerAllowed(options.browserArgs, options.allow)) {
    log(`refused to serve ${JSON.stringify(options.browserArgs.slice(0, 2))}: only ${options.allow.join(', ')} may start this host`);
    process.exit(2);
  }
  let token: string;
  try {
    const env: NodeJS.ProcessEnv = options.configDir
      ? { TETHER_CONFIG_DIR: options.configDir }
      : { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    token = loadConfig(env, { warn: log }).token;
  } catch (error) {
    log(`cannot read the pairing token: ${(error as Error).message}`);
    process.exit(3);
  }
  new NativeHost(options, token, log).start();
}

main();
