/**
 * Where an agent's call goes: to the profile's native host when the browser reached Tether that
 * way (the primary path), otherwise over the loopback WebSocket (the hub, or a relay to it: the
 * fallback for a browser paired with a pasted token). `context` without a profile asks both and
 * lists every profile once, the native one first.
 *
 * The direct link: a browser served by a native host is also linked to this bridge's hub itself
 * when the host offered it this bridge's port (hostProgram.ts). Its calls then go over that link:
 * one process fewer each way than through the host. A read the link loses on the way, or a call
 * it never sent, goes through the host instead; an act lost in flight is not sent again (it may
 * have run: its request id tells the agent).
 */
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { bridgeMsSince, mergeContexts, NOT_CONNECTED_HINT, refusal } from '../loopback/hub.ts';
import type { AgentCall, Link } from './browserLink.ts';
import type { NativeHosts } from '../native/hostClients.ts';

/** What the calls need of the native hosts (hostClients.ts). */
export type NativeRoute = Pick<NativeHosts, 'settle' | 'serving' | 'ask' | 'peerFor'>;

function argOf(args: unknown, name: string): unknown {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

function lostInFlight(envelope: Envelope): boolean {
  return !envelope.ok && envelope.error.code === 'browser_not_connected' && envelope.error.details?.inFlight === true;
}

/** The loopback side, which may hold a browser's direct link (hubOrRelay.ts). */
export interface LoopbackLink extends Link {
  /** The profiles linked to this process's hub itself (not through a relay or a host); empty for a relay. */
  directProfiles?(): string[];
}

export class AgentLinks implements Link {
  constructor(
    private readonly native: NativeRoute | null,
    private readonly loopback: LoopbackLink,
  ) {}

  async call(call: AgentCall): Promise<Envelope> {
    const started = performance.now();
    const profile = argOf(call.args, 'profile');
    const debug = argOf(call.args, 'debug') === true;
    const native = this.native;
    if (!native || (profile !== undefined && typeof profile !== 'string')) return this.loopback.call(call);
    await native.settle(profile);
    if (call.tool === 'context' && profile === undefined) {
      // Profiles linked directly are also served by their host: asked once, through the host.
      const nativeIds = new Set(native.serving().map((peer) => peer.profile?.id));
      const direct = this.loopback.directProfiles?.() ?? [];
      const loopbackToo = direct.length === 0 || direct.some((id) => !nativeIds.has(id));
      const askAll = () => Promise.all([...native.serving().map((peer) => native.ask(peer, call)), ...(loopbackToo ? [this.loopback.call(call)] : [])]);
      let answers = await askAll();
      if (answers.some(lostInFlight)) {
        await native.settle(undefined);
        answers = await askAll();
      }
      const merged = mergeContexts(answers, started, debug);
      if (merged.ok && merged.result.profiles.length > 0) return merged;
      const failed = answers.find((answer) => !answer.ok && answer.error.code !== 'browser_not_connected');
      return failed ?? refusal('context', 'browser_not_connected', `No browser is connected to Tether. ${NOT_CONNECTED_HINT}`);
    }
    // The profile's worker linked to this bridge directly (the host offered it this bridge's port):
    // the call skips the host process. A read the link lost on the way goes through the host.
    if (typeof profile === 'string' && call.tool !== 'context' && this.loopback.directProfiles?.().includes(profile)) {
      const direct = await this.loopback.call(call);
      // An act lost in flight may have run: its request id tells the agent; one never sent goes through the host.
      const unsent = !direct.ok && direct.error.code === 'browser_not_connected' && !(call.tool === 'act' && direct.error.details?.inFlight === true);
      if (!unsent) return direct;
      // The link went with its host (a crash, a restart): wait for the profile's next host as any call would.
      await native.settle(profile);
    }
    const peer = profile === undefined ? null : native.peerFor(profile);
    if (!peer) {
      const envelope = await this.loopback.call(call);
      // The loopback side knows only its own profiles; name the native ones too.
      if (!envelope.ok && envelope.error.code === 'browser_not_connected' && envelope.error.details && 'connected' in envelope.error.details) {
        const connected = [
          ...native.serving().map((host) => ({ id: host.profile?.id, label: host.profile?.label })),
          ...(envelope.error.details.connected as unknown[]),
        ];
        envelope.error.details = { ...envelope.error.details, connected };
      }
      return envelope;
    }
    let envelope = await native.ask(peer, call);
    if (call.tool !== 'act' && lostInFlight(envelope) && profile !== undefined) {
      // The host went while it had the call (the worker was stopped and is starting a new one):
      // a read is asked again of the new host. An act is not: it may have run, and its request
      // id tells the agent what became of it.
      await native.settle(profile);
      const again = native.peerFor(profile);
      if (again && again !== peer) envelope = await native.ask(again, call);
    }
    if (debug) envelope.meta = { ...envelope.meta, bridgeMs: bridgeMsSince(started) };
    return envelope;
  }
}
