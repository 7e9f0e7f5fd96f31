/**
 * The bridge's side of the native path: every running native host (one per browser profile)
 * publishes an entry in the run folder — its unix socket, or on Windows a small file naming its
 * pipe (hostChannel.ts decides which, and what an entry may name); this finds them — the folder's
 * listing at start, then `fs.watch` (inotify / FSEvents / ReadDirectoryChangesW: no polling) —
 * connects to each, pairs (the host must prove the pairing token, as the hub does on the
 * WebSocket), learns which profile it serves, and sends that profile's requests there.
 *
 * Several bridges (one per agent) talk to the same hosts at once; a bridge that restarts touches
 * nothing in the browser. An entry whose host is gone (a socket that refuses connections, a pipe
 * that no longer exists: hosts publish only once listening) is removed. A host that closes mid-call ends the call with
 * `browser_not_connected` at once, never a hang.
 *
 * When a profile's host has just gone (the worker was stopped and is starting again, which brings
 * a new host within a second), calls for it wait a moment for the new one instead of failing.
 */
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { connect } from 'node:net';
import { clientPairing } from '../../shared/link/pairingHandshake.ts';
import type { PairedConnection } from '../../shared/link/pairedConnection.ts';
import { hostToBridgeSchema, type NativeProfile } from '../../shared/native/nativeProtocol.ts';
import type { Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import { refusal, requestTimeoutMs, unsent } from '../loopback/hub.ts';
import type { AgentCall } from '../mcp/browserLink.ts';
import { PendingCalls } from '../loopback/pendingCalls.ts';
import { hostChannelFor, isGoneError, isHostEntryName, lookAt, removeStale, resolveEntry, type HostChannel } from './hostChannel.ts';
import { currentAccount, currentUid, ensurePrivateDir, pathFor } from '../runDir.ts';
import { pairStream } from './streamFrames.ts';

/** How long calls wait for a profile whose host has just gone to come back. */
export const LOST_GRACE_MS = 3_000;
/** The longest a call waits for hosts still connecting or pairing. */
export const SETTLE_MAX_MS = 3_000;

export interface HostPeer {
  /** Its run-folder entry (the socket, or the pipe's descriptor). */
  path: string;
  connection: PairedConnection;
  profile: NativeProfile | null;
  since: number;
}

export class NativeHosts {
  private readonly peers = new Map<string, HostPeer>();
  /** Entries being connected or paired, not yet serving a profile. */
  private readonly connecting = new Set<string>();
  /** Profiles whose host went away, and when. */
  private readonly lost = new Map<string, number>();
  private readonly pending = new PendingCalls<{ peer: HostPeer; tool: ToolName }>('n');
  private readonly listeners = new Set<() => void>();
  private watcher: FSWatcher | null = null;
  private closed = false;
  /** The loopback port this bridge holds (it is the hub), to offer each host for the worker's direct link; null: none. */
  private hubPort: number | null = null;

  constructor(
    readonly runDir: string,
    private readonly token: string,
    private readonly agentName: string,
    private readonly log: (line: string) => void = () => undefined,
    /** Where hosts publish and what their entries may name; the platform's by default. */
    private readonly channel: HostChannel = hostChannelFor(process.platform, runDir, currentAccount()),
  ) {}

  /**
   * This bridge holds the loopback port now (or no longer: null). Every host is told, and tells its
   * worker, which then links to this bridge directly: a request skips the host process.
   */
  offerHub(port: number | null): void {
    if (port === this.hubPort) return;
    this.hubPort = port;
    for (const peer of this.peers.values()) this.tellHub(peer);
  }

  private tellHub(peer: HostPeer): void {
    // A host that does not know the message (an older one) ignores it; nothing else depends on it.
    void peer.connection.send({ type: 'hub', port: this.hubPort }).catch(() => undefined);
  }

  /** Lists the folder and starts watching it; false (logged) when the folder cannot be used. */
  start(): boolean {
    try {
      ensurePrivateDir(this.runDir, this.log);
      this.watcher = watch(this.runDir, (_event, name) => {
        if (typeof name === 'string' && isHostEntryName(this.channel, name)) this.consider(name);
      });
      this.watcher.on('error', (error) => this.log(`stopped watching ${this.runDir}: ${error.message}`));
    } catch (error) {
      this.log(`native hosts unavailable: ${(error as Error).message}`);
      return false;
    }
    this.scan();
    return true;
  }

  /** Connects to every host entry in the folder not known yet. */
  scan(): void {
    let names: string[];
    try {
      names = readdirSync(this.runDir);
    } catch {
      return;
    }
    for (const name of names) if (isHostEntryName(this.channel, name)) this.consider(name);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private consider(name: string): void {
    const path = pathFor(this.channel.platform).join(this.runDir, name);
    if (this.closed || this.peers.has(path) || this.connecting.has(path)) return;
    const verdict = resolveEntry(this.channel, name, lookAt(path), currentUid());
    if ('ignore' in verdict) {
      // Gone again: a host that stopped. Anything else is worth a line in the log.
      if (verdict.ignore !== 'gone') this.log(`ignored ${path}: ${verdict.ignore}`);
      return;
    }
    this.connecting.add(path);
    const socket = connect(verdict.address);
    const peer: HostPeer = { path, connection: undefined as unknown as PairedConnection, profile: null, since: Date.now() };
    let failure = '';
    const done = () => {
      if (this.connecting.delete(path)) this.changed();
    };
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // Published only once listening: an entry whose host cannot be reached belongs to a host that is gone.
      if (isGoneError(this.channel, error.code)) removeStale(this.channel, path, verdict.descriptor);
    });
    peer.connection = pairStream(
      socket,
      clientPairing(this.token, { role: 'agent', agent: this.agentName }),
      {
        paired: () => undefined,
        message: (value) => this.fromHost(peer, value, done),
        failed: (why) => {
          failure = why.kind === 'pairing' ? why.failure.reason : why.kind;
        },
        closed: () => {
          done();
          const otherToken = 'not a Tether host of this user, or one that reads another config folder (TETHER_CONFIG_DIR / TETHER_TOKEN differ)';
          if (failure === 'server_unproven') this.log(`${path} could not prove the pairing token: ${otherToken}`);
          else if (failure) this.log(`${path} is not a Tether host (${failure})`);
          else if (!peer.profile) this.log(`${path} closed before pairing: ${otherToken}`);
          this.forget(peer);
        },
      },
      this.log,
    );
  }

  private fromHost(peer: HostPeer, value: unknown, ready: () => void): void {
    const message = hostToBridgeSchema.safeParse(value);
    if (!message.success) return;
    if (message.data.type === 'profile') {
      const first = peer.profile === null;
      peer.profile = message.data.profile;
      this.peers.set(peer.path, peer);
      this.lost.delete(peer.profile.id);
      if (first) {
        this.log(`browser profile ${peer.profile.id} (${peer.profile.label}) reachable through ${peer.path}`);
        if (this.hubPort !== null) this.tellHub(peer);
      }
      ready();
      this.changed();
      return;
    }
    const response = message.data;
    this.pending.settle(
      response.id,
      () => response.envelope as Envelope,
      (call) => call.peer === peer,
    );
  }

  private forget(peer: HostPeer): void {
    if (this.peers.get(peer.path) !== peer) return;
    this.peers.delete(peer.path);
    if (peer.profile && !this.peerFor(peer.profile.id)) this.lost.set(peer.profile.id, Date.now());
    this.pending.settleAll(
      (call) => call.peer === peer,
      (call) =>
        refusal(
          call.tool,
          'browser_not_connected',
          'The browser’s native host closed before it answered; if this was an act, call it again with the same requestId to learn what happened.',
          {
            inFlight: true,
          },
        ),
    );
    this.log(`${peer.path} closed`);
    this.changed();
  }

  /** The newest host serving `profileId`. */
  peerFor(profileId: string): HostPeer | null {
    let best: HostPeer | null = null;
    for (const peer of this.peers.values()) if (peer.profile?.id === profileId && (!best || peer.since > best.since)) best = peer;
    return best;
  }

  /** One host per profile (the newest). */
  serving(): HostPeer[] {
    const byProfile = new Map<string, HostPeer>();
    for (const peer of this.peers.values()) {
      if (!peer.profile) continue;
      const known = byProfile.get(peer.profile.id);
      if (!known || peer.since > known.since) byProfile.set(peer.profile.id, peer);
    }
    return [...byProfile.values()];
  }

  private recentlyLost(profileId: string | undefined, now: number): number {
    let until = 0;
    for (const [id, at] of this.lost) {
      if (at + LOST_GRACE_MS <= now) this.lost.delete(id);
      else if (profileId === undefined || id === profileId) until = Math.max(until, at + LOST_GRACE_MS);
    }
    return until;
  }

  /**
   * Waits (briefly) until what a call for `profile` (or for every profile) can know is known: hosts
   * still pairing have paired or failed, and a profile whose host just went has come back or had
   * its moment.
   */
  settle(profile: string | undefined): Promise<void> {
    const started = Date.now();
    const isSettled = () => {
      const now = Date.now();
      if (now - started >= SETTLE_MAX_MS) return true;
      if (profile !== undefined && this.peerFor(profile)) return true;
      if (this.connecting.size > 0) return false;
      const lostUntil = this.recentlyLost(profile, now);
      return lostUntil <= now || (profile === undefined && lostUntil === 0);
    };
    // A call for a profile whose host is here goes to that host whatever else the folder holds:
    // no listing on every call (a host appearing later is still announced by the watch).
    if (profile !== undefined && this.peerFor(profile)) return Promise.resolve();
    // A socket may have appeared that no watch event announced yet (events come a moment later):
    // one listing of the folder, which is cheap, before deciding.
    this.scan();
    if (isSettled()) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const check = () => {
        clearTimeout(timer);
        if (isSettled()) {
          this.listeners.delete(check);
          resolve();
          return;
        }
        const now = Date.now();
        const lostUntil = this.recentlyLost(profile, now);
        timer = setTimeout(check, Math.max(10, Math.min(started + SETTLE_MAX_MS, lostUntil > now ? lostUntil : started + SETTLE_MAX_MS) - now));
      };
      this.listeners.add(check);
      check();
    });
  }

  ask(peer: HostPeer, call: AgentCall): Promise<Envelope> {
    const { id, answer } = this.pending.open({ peer, tool: call.tool }, requestTimeoutMs(call.tool, call.args), () =>
      refusal(call.tool, 'timeout', 'The browser did not answer in time. For an act, call again with the same requestId to learn what happened.'),
    );
    peer.connection.send({ type: 'request', id, tool: call.tool, args: call.args, ...(call.agent ? { agent: call.agent } : {}) }).catch((error: unknown) => {
      this.pending.settle(id, () => unsent(call.tool, error, 'the browser'));
    });
    return answer;
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    for (const peer of [...this.peers.values()]) peer.connection.close(1000, 'bridge closing');
    this.peers.clear();
  }
}
