import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { extensionManifest } from '../../scripts/extensionManifest.ts';
import type { AgentRequest, Envelope } from '../../shared/agent/agentProtocol.ts';
import { FIREFOX_ADDON_ID, splitForWorker, TETHER_EXTENSION_ID } from '../../shared/native/nativeProtocol.ts';
import { HEALTHY_RUN_MS, NativeLink, type NativePort } from './nativeLink.ts';

class FakePort implements NativePort {
  readonly posted: unknown[] = [];
  private messageListeners: Array<(message: unknown) => void> = [];
  private disconnectListeners: Array<() => void> = [];
  disconnected = false;
  error: { message?: string } | null = null;
  /** postMessage throws for messages over this many characters (the browser's 64 MiB). */
  limit = Number.POSITIVE_INFINITY;

  readonly onMessage = { addListener: (listener: (message: unknown) => void) => void this.messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => void this.disconnectListeners.push(listener) };

  postMessage(message: unknown): void {
    if (JSON.stringify(message).length > this.limit) throw new Error('Message exceeded maximum allowed size of 64MiB.');
    this.posted.push(message);
  }

  disconnect(): void {
    this.disconnected = true;
  }

  fromHost(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  close(): void {
    for (const listener of this.disconnectListeners) listener();
  }
}

function rig(extensionId = TETHER_EXTENSION_ID) {
  const ports: FakePort[] = [];
  let lastError: string | undefined;
  let now = 1_000;
  const handled: AgentRequest[] = [];
  const changes: boolean[] = [];
  const logs: string[] = [];
  const offers: Array<{ port: number; token: string } | null> = [];
  const link = new NativeLink({
    connectNative: (name) => {
      expect(name).toBe('dev.tether.host');
      const port = new FakePort();
      ports.push(port);
      return port;
    },
    lastError: () => lastError,
    profile: async () => ({ id: 'pr_1', label: 'Home' }),
    extension: { id: extensionId, version: extensionManifest.version },
    handle: async (request): Promise<Envelope> => {
      handled.push(request);
      return { ok: true, result: { echo: request.args }, meta: { tool: request.tool } };
    },
    changed: (serving) => changes.push(serving),
    direct: (offer) => offers.push(offer),
    log: (line) => logs.push(line),
    now: () => now,
  });
  return {
    link,
    offers,
    ports,
    handled,
    changes,
    logs,
    port: () => ports.at(-1) as FakePort,
    close(message: string | undefined, after = 0) {
      now += after;
      lastError = message;
      this.port().close();
    },
  };
}

const flush = async () => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

describe('NativeLink', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('says hello with the profile, counts as connected at the host’s first message, and answers requests', async () => {
    const { link, port, handled } = rig();
    link.start();
    await flush();
    expect(port().posted).toEqual([
      {
        type: 'hello',
        version: 1,
        profile: { id: 'pr_1', label: 'Home' },
        extension: { id: TETHER_EXTENSION_ID, version: extensionManifest.version },
        features: ['direct', 'agents'],
      },
    ]);
    expect(link.status().state).toBe('starting');
    port().fromHost({ type: 'bridges', count: 2 });
    expect(link.status()).toMatchObject({ state: 'connected', bridges: 2 });
    port().fromHost({ type: 'request', id: 'n1', tool: 'context', args: { profile: 'pr_1' } });
    await flush();
    expect(handled).toEqual([{ tool: 'context', args: { profile: 'pr_1' }, callId: 'n1' }]);
    expect(port().posted.at(-1)).toEqual({
      type: 'response',
      id: 'n1',
      envelope: { ok: true, result: { echo: { profile: 'pr_1' } }, meta: { tool: 'context' } },
    });
  });

  it('passes the host’s direct-link offer on (and its withdrawal); an offer out of range or malformed is refused, the port kept', () => {
    const { link, port, offers } = rig();
    link.start();
    port().fromHost({ type: 'bridges', count: 1 });
    port().fromHost({ type: 'direct', port: 17345, token: 't'.repeat(43) });
    port().fromHost({ type: 'direct', port: null });
    // A port without its token cannot be paired with: nothing to link to.
    port().fromHost({ type: 'direct', port: 17346 });
    expect(offers).toEqual([{ port: 17345, token: 't'.repeat(43) }, null, null]);
    for (const bad of [
      { type: 'direct', port: 0, token: 'x' },
      { type: 'direct', port: 70_000, token: 'x' },
      { type: 'direct', port: 1.5, token: 'x' },
      { type: 'direct', port: '17345', token: 'x' },
      { type: 'direct', port: 17345, token: 'x'.repeat(201) },
      { type: 'direct', port: 17345, token: 'x'.repeat(15) },
      { type: 'direct' },
    ]) {
      port().fromHost(bad);
    }
    expect(offers).toHaveLength(3);
    expect(link.refused).toBe(7);
    expect(port().disconnected).toBe(false);
  });

  it('takes a request sent in parts', async () => {
    const { link, port, handled } = rig();
    link.start();
    const text = 'x'.repeat(1_500_000);
    for (const part of splitForWorker({ type: 'request', id: 'n7', tool: 'act', args: { text } })) port().fromHost(part);
    await flush();
    expect(handled).toHaveLength(1);
    expect((handled[0]?.args as { text: string }).text).toBe(text);
  });

  it('refuses and counts messages that are not Tether’s, and keeps the port', async () => {
    const { link, port, handled, logs } = rig();
    link.start();
    for (const junk of ['text', { type: 'nonsense' }, { type: 'request', id: '', tool: 'context' }, { type: 'part', id: 'p', index: 2, last: true, data: '' }])
      port().fromHost(junk);
    expect(link.status().refused).toBe(4);
    expect(logs.every((line) => line.includes('the port stays open'))).toBe(true);
    expect(port().disconnected).toBe(false);
    port().fromHost({ type: 'request', id: 'n2', tool: 'context', args: {} });
    await flush();
    expect(handled).toHaveLength(1);
  });

  it('replaces an answer the browser cannot send (over 64 MiB) by a refusal', async () => {
    const { link, port } = rig();
    link.start();
    port().limit = 1_000;
    port().fromHost({ type: 'request', id: 'n3', tool: 'inspect', args: { big: 'y'.repeat(2_000) } });
    await flush();
    expect(port().posted.at(-1)).toMatchObject({ type: 'response', id: 'n3', envelope: { ok: false, error: { code: 'invalid_request' } } });
  });

  it.each([
    ['Specified native messaging host not found.', 'not_installed'],
    ['Access to the specified native messaging host is forbidden.', 'forbidden'],
  ] as const)('%s → %s, and no retry until asked', (message, state) => {
    const r = rig();
    r.link.start();
    r.close(message);
    expect(r.link.status()).toMatchObject({ state, detail: message, installCommand: 'npx -y tether-mcp install' });
    vi.advanceTimersByTime(60_000);
    expect(r.ports).toHaveLength(1);
    r.link.restart();
    expect(r.ports).toHaveLength(2);
  });

  it('reads Firefox’s reason from the port: a host not installed for Tether is `not_installed`, with the command naming Firefox', () => {
    const r = rig(FIREFOX_ADDON_ID);
    r.link.start();
    r.port().error = { message: 'No such native application dev.tether.host' };
    r.port().close();
    expect(r.link.status()).toMatchObject({
      state: 'not_installed',
      detail: 'No such native application dev.tether.host',
      installCommand: 'npx -y tether-mcp install --browser firefox',
    });
    vi.advanceTimersByTime(60_000);
    expect(r.ports).toHaveLength(1);
  });

  it('starts a new host at once after one that ran well exits; after quick exits, backs off 1, 2, 4 s, then gives up', () => {
    const r = rig();
    r.link.start();
    r.port().fromHost({ type: 'bridges', count: 0 });
    r.close('Native host has exited.', HEALTHY_RUN_MS);
    expect(r.ports).toHaveLength(2);
    for (const delay of [1_000, 2_000, 4_000]) {
      r.close('Native host has exited.', 10);
      expect(r.link.status().state).toBe('starting');
      const before = r.ports.length;
      vi.advanceTimersByTime(delay - 1);
      expect(r.ports).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(r.ports).toHaveLength(before + 1);
    }
    r.close('Native host has exited.', 10);
    expect(r.link.status()).toMatchObject({ state: 'crashed', detail: 'Native host has exited.' });
    vi.advanceTimersByTime(60_000);
    expect(r.ports).toHaveLength(5);
  });

  it('is `unsupported` where the browser has no native messaging', () => {
    const link = new NativeLink({
      connectNative: () => {
        throw new Error('no native messaging');
      },
      lastError: () => undefined,
      profile: async () => ({ id: 'p', label: 'p' }),
      extension: { id: 'x', version: '0' },
      handle: async (request) => ({ ok: true, result: null, meta: { tool: request.tool } }),
      changed: () => undefined,
      log: () => undefined,
    });
    link.start();
    expect(link.status()).toMatchObject({ state: 'unsupported', detail: 'no native messaging', installCommand: 'npx -y tether-mcp install --extension-id x' });
  });
});
