/**
 * The hub and the MCP sessions it forwards: each call reaches the browser with the session of the
 * bridge that made it, a relay cannot speak for another connection's session, and the browser
 * hears which sessions ended when a relay goes and when the hub itself stops. The browser is the
 * extension's own connection machine (background/core/connectionMachine.ts) over a real socket.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { AgentConnection } from '../../background/core/connectionMachine.ts';
import type { AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import type { AgentRequest, Envelope } from '../../shared/agent/agentProtocol.ts';
import { Hub } from './hub.ts';
import { Relay } from './relay.ts';
import { NOT_YOUR_SESSION, SessionOwners } from '../sessionOwners.ts';

const TOKEN = 'the-pairing-token-0123456789';
let nextPort = 19600 + (process.pid % 300) * 2;
const closers: Array<() => unknown> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const session = (letter: string) => letter.repeat(32);
const agent = (name: string, letter: string): AgentIdentity => ({ name, session: session(letter) });

/** A browser profile paired with the hub: what requests reached it, and which sessions it was told ended. */
async function browserOn(port: number) {
  const requests: AgentRequest[] = [];
  const ended: string[][] = [];
  const connection = new AgentConnection({
    pairing: async () => ({ token: TOKEN, port, profile: { id: 'pr_home', label: 'Home' } }),
    openSocket: (url, events) => {
      const socket = new WebSocket(url, { origin: 'chrome-extension://lmdeipcgcniedmmnmekpfbklipnogfgp' });
      socket.binaryType = 'arraybuffer';
      socket.on('message', (data, binary) => events.message(binary ? new Uint8Array(data as ArrayBuffer) : String(data)));
      socket.on('close', (code) => events.closed(code));
      socket.on('error', () => undefined);
      return {
        sendText: (text) => socket.readyState === WebSocket.OPEN && socket.send(text),
        sendBinary: (frame) => socket.readyState === WebSocket.OPEN && socket.send(frame),
        close: (code, reason) => socket.close(code, reason),
      };
    },
    handle: async (request) => {
      requests.push(request);
      return { ok: true, result: { profiles: [], agent: request.agent?.name ?? null } } as Envelope;
    },
    ended: (sessions) => ended.push(sessions),
    keepAwake: async () => undefined,
    changed: () => undefined,
  });
  closers.push(() => connection.forget());
  await connection.connect();
  await vi.waitFor(() => expect(connection.status().state).toBe('connected'), { timeout: 5_000 });
  return { requests, ended };
}

async function hubWithBrowser() {
  const port = (nextPort += 1);
  const hub = new Hub(port, TOKEN);
  await hub.listen();
  closers.push(() => hub.close());
  const browser = await browserOn(port);
  return { port, hub, browser };
}

async function relayTo(port: number): Promise<Relay> {
  const relay = new Relay(port, TOKEN, 'test relay');
  await relay.connect();
  closers.push(() => relay.close());
  return relay;
}

const context = (who?: AgentIdentity) => ({ tool: 'context' as const, args: { profile: 'pr_home' }, ...(who ? { agent: who } : {}) });

describe('the hub forwards each call with its own session', () => {
  it('the hub’s own agent and each relay’s agent reach the browser as themselves', async () => {
    const { port, hub, browser } = await hubWithBrowser();
    const relayB = await relayTo(port);
    const relayC = await relayTo(port);
    await hub.call(context(agent('Claude Code', 'a')));
    await relayB.call(context(agent('Cursor', 'b')));
    await relayC.call(context(agent('Codex', 'c')));
    expect(browser.requests.map((request) => request.agent)).toEqual([agent('Claude Code', 'a'), agent('Cursor', 'b'), agent('Codex', 'c')]);
  });

  it('a relay cannot speak for another connection’s session (nor the hub’s own): refused, nothing reaches the browser', async () => {
    const { port, hub, browser } = await hubWithBrowser();
    const honest = await relayTo(port);
    const thief = await relayTo(port);
    await hub.call(context(agent('Claude Code', 'a')));
    await honest.call(context(agent('Cursor', 'b')));
    for (const claimed of [agent('Claude Code', 'a'), agent('A different name', 'b')]) {
      const answer = await thief.call(context(claimed));
      expect(answer).toEqual({ ok: false, error: { code: 'invalid_request', message: NOT_YOUR_SESSION } });
    }
    expect(browser.requests).toHaveLength(2);
  });

  it('a relay of an older bridge (no session named) is one agent of its own, not another’s', async () => {
    const { port, browser } = await hubWithBrowser();
    const old = await relayTo(port);
    const other = await relayTo(port);
    await old.call(context());
    await old.call(context());
    await other.call(context());
    const sessions = browser.requests.map((request) => request.agent?.session);
    expect(sessions[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(sessions[1]).toBe(sessions[0]);
    expect(sessions[2]).not.toBe(sessions[0]);
  });

  it('a relay that goes: the browser hears that its sessions (only its) ended', async () => {
    const { port, hub, browser } = await hubWithBrowser();
    const relayB = await relayTo(port);
    const relayC = await relayTo(port);
    await hub.call(context(agent('Claude Code', 'a')));
    await relayB.call(context(agent('Cursor', 'b')));
    await relayC.call(context(agent('Codex', 'c')));
    relayB.close();
    await vi.waitFor(() => expect(browser.ended).toEqual([[session('b')]]));
  });

  it('the hub that stops tells the browser its own sessions ended first', async () => {
    const { hub, browser } = await hubWithBrowser();
    await hub.call(context(agent('Claude Code', 'a')));
    await hub.close();
    // Sent before the socket closed; the test browser may read it a moment later on a busy machine.
    await expect.poll(() => browser.ended, { timeout: 5_000 }).toEqual([[session('a')]]);
  });
});

describe('SessionOwners', () => {
  it('one owner per session; a connection speaks for at most 16; a connection that goes frees its sessions', () => {
    const owners = new SessionOwners<string>();
    expect(owners.claim('s1', 'x')).toBe(true);
    expect(owners.claim('s1', 'x')).toBe(true);
    expect(owners.claim('s1', 'y')).toBe(false);
    for (let index = 2; index <= 16; index += 1) expect(owners.claim(`s${index}`, 'x')).toBe(true);
    expect(owners.claim('s17', 'x')).toBe(false);
    expect(owners.release('x')).toHaveLength(16);
    expect(owners.claim('s1', 'y')).toBe(true);
    expect(owners.release('nobody')).toEqual([]);
  });
});
