import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { AgentLinks, type LoopbackLink, type NativeRoute } from './callRoutes.ts';
import type { AgentCall } from './browserLink.ts';
import type { HostPeer } from '../native/hostClients.ts';

const PROFILE = 'pr_home';

function hostPeer(profile: string): HostPeer {
  return { path: `/run/h-${profile}.sock`, connection: null as never, profile: { id: profile, label: profile }, since: 0 };
}

/** Native hosts serving `profiles`; every call answered with `answer` and counted. */
function nativeRoute(profiles: string[], answer: (call: AgentCall) => Envelope = () => ({ ok: true, result: { via: 'host' } })) {
  const peers = profiles.map(hostPeer);
  const asked: AgentCall[] = [];
  const route: NativeRoute = {
    settle: () => Promise.resolve(),
    serving: () => peers,
    peerFor: (profile) => peers.find((peer) => peer.profile?.id === profile) ?? null,
    ask: (_peer, call) => {
      asked.push(call);
      return Promise.resolve(answer(call));
    },
  };
  return { route, asked };
}

/** This bridge's loopback side: a hub with `direct` profiles linked to it, answering with `answer`. */
function loopback(direct: string[], answer: (call: AgentCall) => Envelope = () => ({ ok: true, result: { via: 'direct' } })) {
  const asked: AgentCall[] = [];
  const link: LoopbackLink = {
    call: (call) => {
      asked.push(call);
      return Promise.resolve(answer(call));
    },
    directProfiles: () => direct,
  };
  return { link, asked };
}

const inspect: AgentCall = { tool: 'inspect', args: { profile: PROFILE, workspace: 'ws', handle: 'h' } };
const act: AgentCall = { tool: 'act', args: { profile: PROFILE, workspace: 'ws', handle: 'h', plan: { steps: [] } } };
const notConnected = (inFlight: boolean): Envelope => ({
  ok: false,
  error: { code: 'browser_not_connected', message: 'gone', ...(inFlight ? { details: { inFlight: true } } : {}) },
});

describe('AgentLinks: the direct link', () => {
  it('sends a profile’s calls over its direct link when it has one, not through the host', async () => {
    const host = nativeRoute([PROFILE]);
    const hub = loopback([PROFILE]);
    const answer = await new AgentLinks(host.route, hub.link).call(inspect);
    expect(answer).toEqual({ ok: true, result: { via: 'direct' } });
    expect(hub.asked).toEqual([inspect]);
    expect(host.asked).toEqual([]);
  });

  it('goes through the host for a profile not linked directly (another profile’s link, or a relay: none)', async () => {
    const host = nativeRoute([PROFILE, 'pr_other']);
    const hub = loopback(['pr_other']);
    expect(await new AgentLinks(host.route, hub.link).call(inspect)).toEqual({ ok: true, result: { via: 'host' } });
    expect(hub.asked).toEqual([]);
    const relay = loopback([]);
    expect(await new AgentLinks(host.route, relay.link).call(inspect)).toEqual({ ok: true, result: { via: 'host' } });
    expect(relay.asked).toEqual([]);
  });

  it('a read the link lost (in flight or never sent) is asked again through the host', async () => {
    for (const inFlight of [true, false]) {
      const host = nativeRoute([PROFILE]);
      const hub = loopback([PROFILE], () => notConnected(inFlight));
      expect(await new AgentLinks(host.route, hub.link).call(inspect)).toEqual({ ok: true, result: { via: 'host' } });
      expect(host.asked).toEqual([inspect]);
    }
  });

  it('an act lost in flight is not sent again (it may have run: its request id tells the agent); one never sent goes through the host', async () => {
    const lost = nativeRoute([PROFILE]);
    const lostHub = loopback([PROFILE], () => notConnected(true));
    expect(await new AgentLinks(lost.route, lostHub.link).call(act)).toEqual(notConnected(true));
    expect(lost.asked).toEqual([]);
    const unsent = nativeRoute([PROFILE]);
    const unsentHub = loopback([PROFILE], () => notConnected(false));
    expect(await new AgentLinks(unsent.route, unsentHub.link).call(act)).toEqual({ ok: true, result: { via: 'host' } });
    expect(unsent.asked).toEqual([act]);
  });

  it('a refusal that is the page’s or the worker’s answer is returned as it is, never asked twice', async () => {
    const host = nativeRoute([PROFILE]);
    const refusedAnswer: Envelope = { ok: false, error: { code: 'context_changed', message: 'navigated' } };
    const hub = loopback([PROFILE], () => refusedAnswer);
    expect(await new AgentLinks(host.route, hub.link).call(inspect)).toEqual(refusedAnswer);
    expect(host.asked).toEqual([]);
  });

  it('context without a profile asks each profile once: a profile linked directly is asked through its host only', async () => {
    const context: AgentCall = { tool: 'context', args: {} };
    const contextAnswer = (profile: string): Envelope => ({ ok: true, result: { profiles: [{ id: profile, label: profile, workspaces: [] }] } });
    const host = nativeRoute([PROFILE], () => contextAnswer(PROFILE));
    const hub = loopback([PROFILE], () => contextAnswer(PROFILE));
    const merged = await new AgentLinks(host.route, hub.link).call(context);
    expect(merged.ok && (merged.result as { profiles: Array<{ id: string }> }).profiles.map((profile) => profile.id)).toEqual([PROFILE]);
    expect(host.asked).toHaveLength(1);
    expect(hub.asked).toHaveLength(0);
    // A browser on the hub that no host serves (paired by token) is still asked.
    const other = loopback([PROFILE, 'pr_token'], () => contextAnswer('pr_token'));
    const both = await new AgentLinks(nativeRoute([PROFILE], () => contextAnswer(PROFILE)).route, other.link).call(context);
    expect(both.ok && (both.result as { profiles: Array<{ id: string }> }).profiles.map((profile) => profile.id)).toEqual([PROFILE, 'pr_token']);
    expect(other.asked).toHaveLength(1);
  });

  it('a read the link lost with its host (a crash) waits for the profile’s next host, as any call does', async () => {
    const peers: HostPeer[] = [];
    const asked: AgentCall[] = [];
    const settled: Array<string | undefined> = [];
    const route: NativeRoute = {
      // The next host comes while the call waits.
      settle: (profile) => {
        settled.push(profile);
        if (settled.length > 1) peers.splice(0, peers.length, hostPeer(PROFILE));
        return Promise.resolve();
      },
      serving: () => peers,
      peerFor: (profile) => peers.find((peer) => peer.profile?.id === profile) ?? null,
      ask: (_peer, call) => {
        asked.push(call);
        return Promise.resolve({ ok: true, result: { via: 'new host' } });
      },
    };
    const hub = loopback([PROFILE], () => notConnected(true));
    expect(await new AgentLinks(route, hub.link).call(inspect)).toEqual({ ok: true, result: { via: 'new host' } });
    expect(settled).toEqual([PROFILE, PROFILE]);
    expect(asked).toEqual([inspect]);
  });
});
