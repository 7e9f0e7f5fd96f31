import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commitKey } from '../../shared/page/documentKey.ts';
import { PAGE_PORT } from '../../shared/page/pageChannel.ts';
import { PAGE_CLOSED, PAGE_GONE, PAGE_TIMEOUT, PagePorts, type PagePort } from './pagePorts.ts';

class FakePagePort implements PagePort {
  readonly posted: Array<{ id: number; request: unknown }> = [];
  private messageListeners: Array<(message: unknown) => void> = [];
  private disconnectListeners: Array<() => void> = [];
  disconnected = false;
  error: { message?: string } | null = null;
  /** postMessage throws, as a port the browser already closed does. */
  stale = false;

  constructor(
    readonly tabId: number,
    readonly target: { documentId: string } | { frameId: number },
    readonly name: string,
  ) {}

  readonly onMessage = { addListener: (listener: (message: unknown) => void) => void this.messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => void this.disconnectListeners.push(listener) };

  postMessage(message: unknown): void {
    if (this.stale || this.disconnected) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(message as { id: number; request: unknown });
  }

  disconnect(): void {
    this.disconnected = true;
  }

  /** The page answers the request it got `index`-th on this port. */
  answer(index: number, reply: unknown): void {
    const id = this.posted[index]?.id;
    this.fromPage({ id, reply });
  }

  fromPage(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  close(error?: string): void {
    if (error) this.error = { message: error };
    for (const listener of this.disconnectListeners) listener();
  }
}

function rig(limit?: number) {
  const ports: FakePagePort[] = [];
  let lastError: string | undefined;
  const calls: Array<{ target: { tabId: number; documentId: string }; request: unknown }> = [];
  const pagePorts = new PagePorts(
    {
      connect: (tabId, target, name) => {
        const port = new FakePagePort(tabId, target, name);
        ports.push(port);
        return port;
      },
      lastError: () => lastError,
      callsDuring: (asked) => (asked as { type?: unknown }).type === 'act',
      call: (target, asked) => {
        calls.push({ target, request: asked });
        return Promise.resolve({ ok: true, answered: asked });
      },
    },
    limit,
  );
  return {
    pagePorts,
    ports,
    calls,
    setLastError: (message: string | undefined) => {
      lastError = message;
    },
  };
}

const request = { channel: 'tether.page', type: 'observe' };

describe('PagePorts: one port per document, requests matched by id', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens one port to the exact document and sends every request on it', async () => {
    const { pagePorts, ports } = rig();
    const first = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.answer(0, { ok: true, value: 1 });
    await expect(first).resolves.toEqual({ ok: true, value: 1 });
    const second = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.answer(1, { ok: true, value: 2 });
    await expect(second).resolves.toEqual({ ok: true, value: 2 });
    expect(ports).toHaveLength(1);
    expect(ports[0]?.tabId).toBe(7);
    expect(ports[0]?.target).toEqual({ documentId: 'DOC-A' });
    expect(ports[0]?.name).toBe(PAGE_PORT);
    expect(ports[0]?.posted.map((message) => message.request)).toEqual([request, request]);
  });

  it('gives another document of the same tab a port of its own', () => {
    const { pagePorts, ports } = rig();
    void pagePorts.ask(7, 'DOC-A', request, 1_000);
    void pagePorts.ask(7, 'DOC-B', request, 1_000);
    expect(ports.map((port) => port.target)).toEqual([{ documentId: 'DOC-A' }, { documentId: 'DOC-B' }]);
  });

  it('sends to the top frame where the browser has no documentIds (a key the worker minted)', () => {
    const { pagePorts, ports } = rig();
    void pagePorts.ask(3, commitKey(3, 'mark'), request, 1_000);
    expect(ports[0]?.target).toEqual({ frameId: 0 });
  });

  it('matches answers to requests by id, in whatever order they come', async () => {
    const { pagePorts, ports } = rig();
    const first = pagePorts.ask(7, 'DOC-A', { ...request, n: 1 }, 1_000);
    const second = pagePorts.ask(7, 'DOC-A', { ...request, n: 2 }, 1_000);
    ports[0]?.answer(1, 'second');
    ports[0]?.answer(0, 'first');
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
  });

  it('ignores what is not an answer, or answers nothing it asked', async () => {
    const { pagePorts, ports } = rig();
    const asked = pagePorts.ask(7, 'DOC-A', request, 1_000);
    for (const junk of [null, 'x', 42, { reply: 1 }, { id: 'x', reply: 1 }, { id: 1.5, reply: 1 }, { id: 999, reply: 1 }, { id: 1 }, { id: 1, failed: 3 }]) {
      ports[0]?.fromPage(junk);
    }
    ports[0]?.answer(0, 'real');
    await expect(asked).resolves.toBe('real');
  });

  it('rejects with the page’s failure when the page could not answer', async () => {
    const { pagePorts, ports } = rig();
    const asked = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.fromPage({ id: ports[0]?.posted[0]?.id, failed: 'boom' });
    await expect(asked).rejects.toThrow('boom');
  });

  it('a port closed before anything answered on it means nobody listens there: the browser’s words, and the next request opens a new port', async () => {
    const { pagePorts, ports, setLastError } = rig();
    const asked = pagePorts.ask(7, 'DOC-A', request, 1_000);
    setLastError('Could not establish connection. Receiving end does not exist.');
    ports[0]?.close();
    await expect(asked).rejects.toThrow('Receiving end does not exist');
    setLastError(undefined);
    expect(pagePorts.size).toBe(0);
    const again = pagePorts.ask(7, 'DOC-A', request, 1_000);
    expect(ports).toHaveLength(2);
    ports[1]?.answer(0, 'ok');
    await expect(again).resolves.toBe('ok');
  });

  it('without the browser’s words, a port that closed before any answer may have delivered: not “nobody listening” (Firefox says why on the port)', async () => {
    const { pagePorts, ports } = rig();
    const silent = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.close();
    await expect(silent).rejects.toThrow(PAGE_CLOSED);
    const firefox = pagePorts.ask(8, 'DOC-F', request, 1_000);
    ports[1]?.close('Could not establish connection. Receiving end does not exist.');
    await expect(firefox).rejects.toThrow('Receiving end does not exist');
  });

  it('a port the page had answered on, closed, means the document is gone: every waiting request is refused', async () => {
    const { pagePorts, ports } = rig();
    const first = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.answer(0, 'ok');
    await first;
    const waiting = [pagePorts.ask(7, 'DOC-A', request, 1_000), pagePorts.ask(7, 'DOC-A', request, 1_000)];
    ports[0]?.close();
    for (const one of waiting) await expect(one).rejects.toThrow(PAGE_GONE);
    expect(pagePorts.size).toBe(0);
  });

  it('times out a request the page never answers, keeps the port, and drops the late answer', async () => {
    const { pagePorts, ports } = rig();
    const slow = pagePorts.ask(7, 'DOC-A', request, 500);
    vi.advanceTimersByTime(500);
    await expect(slow).rejects.toThrow(PAGE_TIMEOUT);
    ports[0]?.answer(0, 'late');
    const next = pagePorts.ask(7, 'DOC-A', request, 500);
    ports[0]?.answer(1, 'next');
    await expect(next).resolves.toBe('next');
    expect(ports).toHaveLength(1);
  });

  it('an answer in time clears its timer', async () => {
    const { pagePorts, ports } = rig();
    const asked = pagePorts.ask(7, 'DOC-A', request, 500);
    ports[0]?.answer(0, 'ok');
    await expect(asked).resolves.toBe('ok');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a port the browser closed before its close was reported is replaced once: nothing was sent on it', async () => {
    const { pagePorts, ports } = rig();
    const first = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.answer(0, 'ok');
    await first;
    if (ports[0]) ports[0].stale = true;
    const asked = pagePorts.ask(7, 'DOC-A', request, 1_000);
    expect(ports).toHaveLength(2);
    expect(ports[0]?.disconnected).toBe(true);
    ports[1]?.answer(0, 'fresh');
    await expect(asked).resolves.toBe('fresh');
  });

  it('gives up when the new port cannot be used either', async () => {
    const ports: FakePagePort[] = [];
    const pagePorts = new PagePorts({
      connect: (tabId, target, name) => {
        const port = new FakePagePort(tabId, target, name);
        port.stale = true;
        ports.push(port);
        return port;
      },
      lastError: () => undefined,
    });
    await expect(pagePorts.ask(7, 'DOC-A', request, 1_000)).rejects.toThrow('disconnected port');
    expect(ports).toHaveLength(2);
    expect(pagePorts.size).toBe(0);
  });

  it('keeps at most `limit` ports: the least recently used idle one is closed', async () => {
    const { pagePorts, ports } = rig(2);
    const a = pagePorts.ask(1, 'A', request, 1_000);
    ports[0]?.answer(0, 'a');
    await a;
    const b = pagePorts.ask(2, 'B', request, 1_000);
    ports[1]?.answer(0, 'b');
    await b;
    // A is used again, so B is now the least recently used.
    const again = pagePorts.ask(1, 'A', request, 1_000);
    ports[0]?.answer(1, 'a2');
    await again;
    void pagePorts.ask(3, 'C', request, 1_000);
    expect(pagePorts.size).toBe(2);
    expect(ports.map((port) => port.disconnected)).toEqual([false, true, false]);
  });

  it('never closes a port with a request still waiting on it, even past the limit', () => {
    const { pagePorts, ports } = rig(1);
    void pagePorts.ask(1, 'A', request, 1_000);
    void pagePorts.ask(2, 'B', request, 1_000);
    expect(ports.map((port) => port.disconnected)).toEqual([false, false]);
    expect(pagePorts.size).toBe(2);
  });

  it('closeAll refuses what waits and closes every port', async () => {
    const { pagePorts, ports } = rig();
    const waiting = pagePorts.ask(1, 'A', request, 1_000);
    pagePorts.closeAll();
    await expect(waiting).rejects.toThrow(PAGE_GONE);
    expect(ports[0]?.disconnected).toBe(true);
    expect(pagePorts.size).toBe(0);
  });
});

describe('PagePorts: the page’s calls back to the worker', () => {
  it('answers a page’s call only while an act waits on that port, for that port’s document', async () => {
    const { pagePorts, ports, calls } = rig();
    const observed = pagePorts.ask(7, 'DOC-A', request, 1_000);
    ports[0]?.fromPage({ call: 1, request: { op: 'read' } });
    await vi.waitFor(() => expect(ports[0]?.posted).toContainEqual({ call: 1, reply: { ok: false, reason: 'not-acting' } }));
    expect(calls).toEqual([]);
    ports[0]?.answer(0, 'observed');
    await observed;

    const acting = pagePorts.ask(7, 'DOC-A', { channel: 'tether.page', type: 'act' }, 1_000);
    ports[0]?.fromPage({ call: 2, request: { op: 'read' } });
    await vi.waitFor(() => expect(ports[0]?.posted).toContainEqual({ call: 2, reply: { ok: true, answered: { op: 'read' } } }));
    expect(calls).toEqual([{ target: { tabId: 7, documentId: 'DOC-A' }, request: { op: 'read' } }]);
    // Another document's port, with no act of its own, gets nothing, though an act waits elsewhere.
    pagePorts.ask(7, 'DOC-B', request, 1_000).catch(() => undefined);
    ports[1]?.fromPage({ call: 3, request: { op: 'read' } });
    await vi.waitFor(() => expect(ports[1]?.posted).toContainEqual({ call: 3, reply: { ok: false, reason: 'not-acting' } }));
    expect(calls).toHaveLength(1);
    const actId = ports[0]?.posted.find((message) => (message.request as { type?: unknown } | undefined)?.type === 'act')?.id;
    ports[0]?.fromPage({ id: actId, reply: 'acted' });
    await acting;
    ports[0]?.fromPage({ call: 4, request: { op: 'read' } });
    await vi.waitFor(() => expect(ports[0]?.posted).toContainEqual({ call: 4, reply: { ok: false, reason: 'not-acting' } }));
    expect(calls).toHaveLength(1);
  });
});
