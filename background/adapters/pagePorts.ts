/**
 * The worker's connections to pages: one long-lived port per document it talks to, opened with
 * `tabs.connect(tabId, { documentId })`, so it reaches that exact document and nothing else. If
 * the document goes (navigated, reloaded, closed, put in the back/forward cache), the browser
 * closes its port; a new port to the same documentId then cannot be opened. Requests and answers
 * are matched by id, so several may be in flight on one port.
 *
 * Why a port and not `tabs.sendMessage` per request: each sendMessage opens a message channel to
 * the document, sends, answers and closes it again, and Chromium's bindings spend about 0.3 ms of
 * the worker's main thread on it. On a port already open a request is one message each way
 * (measured: 0.5 ms round trip instead of 0.8 ms, bare).
 *
 * Where the browser has no documentIds (Firefox 140: the binding holds a key the worker minted,
 * see shared/page/documentKey.ts) the port goes to the tab's top frame: the document there when the
 * port opened; a navigation closes it, and the page behind a new port refuses unless it is the
 * page instance the binding saw (content/pageChannelServer.ts).
 */
import { isCommitKey } from '../../shared/page/documentKey.ts';
import { PAGE_PORT, type PagePortCall, type PagePortCallReply, type PagePortReply, type PagePortRequest } from '../../shared/page/pageChannel.ts';
import type { BrowserPort } from './browserPort.ts';

export type PagePort = BrowserPort;

export interface PagePortDeps {
  /** Opens a port to the document (or, with a minted key, the tab's top frame). */
  connect(tabId: number, target: { documentId: string } | { frameId: number }, name: string): PagePort;
  /** Chromium's message for the port that just closed (`runtime.lastError`). */
  lastError(): string | undefined;
  /**
   * A call the page makes while the worker waits on this port for a request `callsDuring` accepts
   * (an act): answered for exactly this port's document, never another. Without it, pages' calls
   * are not answered.
   */
  call?(target: { tabId: number; documentId: string }, request: unknown): Promise<unknown>;
  /** Which of the worker's requests a page may call back during (only while one of them waits). */
  callsDuring?(request: unknown): boolean;
}

/** Why a request got no answer, in the words askPage sorts failures by. */
export const PAGE_TIMEOUT = 'tether:timeout';
/** A port the page had answered on closed: the document is gone (no point opening another). */
export const PAGE_GONE = 'tether:page-gone';
/** The browser's words for a port nobody listens on (no content script there yet): nothing was delivered. */
export const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';
/**
 * A port closed before anything answered on it, and the browser did not say why: a request may have
 * reached the page, so it is not sent again (an act could run twice).
 */
export const PAGE_CLOSED = 'tether:page-closed';

interface Waiting {
  resolve(reply: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
  /** The page may call the worker while this request waits (callsDuring). */
  callable: boolean;
}

interface OpenPort {
  key: string;
  tabId: number;
  documentId: string;
  port: PagePort;
  waiting: Map<number, Waiting>;
  /** The page has answered on this port at least once: someone was listening. */
  answered: boolean;
}

/** Ports kept open at most; past it the least recently used idle one is closed. */
export const MAX_PAGE_PORTS = 32;

function isCall(message: unknown): message is PagePortCall {
  return typeof message === 'object' && message !== null && Number.isSafeInteger((message as { call?: unknown }).call) && 'request' in message;
}

function isReply(message: unknown): message is PagePortReply {
  if (typeof message !== 'object' || message === null || !Number.isSafeInteger((message as { id?: unknown }).id)) return false;
  return 'reply' in message || typeof (message as { failed?: unknown }).failed === 'string';
}

export class PagePorts {
  private readonly open = new Map<string, OpenPort>();
  private next = 0;

  constructor(
    private readonly deps: PagePortDeps,
    private readonly limit = MAX_PAGE_PORTS,
  ) {}

  /** How many ports are open (for tests). */
  get size(): number {
    return this.open.size;
  }

  /**
   * Sends one request to the document and resolves with the page's reply. Rejects with an Error
   * whose message says why: PAGE_TIMEOUT, PAGE_GONE, PAGE_CLOSED, or the browser's own words (such
   * as NO_RECEIVER when no content script listens there).
   */
  ask(tabId: number, documentId: string, request: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const id = (this.next += 1);
      const message: PagePortRequest = { id, request };
      let entry: OpenPort;
      try {
        entry = this.portTo(tabId, documentId);
        this.post(entry, message);
      } catch (first) {
        // A port whose close has not been reported yet throws on use: nothing was sent; try a new one once.
        try {
          entry = this.portTo(tabId, documentId);
          this.post(entry, message);
        } catch {
          reject(first instanceof Error ? first : new Error(String(first)));
          return;
        }
      }
      const timer = setTimeout(() => {
        entry.waiting.delete(id);
        reject(new Error(PAGE_TIMEOUT));
      }, timeoutMs);
      entry.waiting.set(id, { resolve, reject, timer, callable: this.deps.callsDuring?.(request) === true });
    });
  }

  /** Closes every port (the worker is done with pages; tests). */
  closeAll(): void {
    for (const entry of [...this.open.values()]) this.drop(entry, new Error(PAGE_GONE), true);
  }

  private post(entry: OpenPort, message: PagePortRequest): void {
    try {
      entry.port.postMessage(message);
    } catch (error) {
      this.drop(entry, new Error(PAGE_GONE), true);
      throw error;
    }
  }

  private portTo(tabId: number, documentId: string): OpenPort {
    const key = `${tabId}|${documentId}`;
    const found = this.open.get(key);
    if (found) {
      // Most recently used last: the first entries are the ones to close when there are too many.
      this.open.delete(key);
      this.open.set(key, found);
      return found;
    }
    const port = this.deps.connect(tabId, isCommitKey(documentId) ? { frameId: 0 } : { documentId }, PAGE_PORT);
    const entry: OpenPort = { key, tabId, documentId, port, waiting: new Map(), answered: false };
    port.onMessage.addListener((reply) => this.received(entry, reply));
    port.onDisconnect.addListener(() => {
      // Firefox says why on the port itself and never sets runtime.lastError.
      const why = port.error?.message ?? this.deps.lastError();
      this.drop(entry, new Error(why ?? (entry.answered ? PAGE_GONE : PAGE_CLOSED)), false);
    });
    this.open.set(key, entry);
    this.trim(entry);
    return entry;
  }

  private received(entry: OpenPort, message: unknown): void {
    if (isCall(message)) {
      this.answerCall(entry, message);
      return;
    }
    if (!isReply(message)) return;
    entry.answered = true;
    const waiting = entry.waiting.get(message.id);
    if (!waiting) return;
    entry.waiting.delete(message.id);
    clearTimeout(waiting.timer);
    if ('reply' in message) waiting.resolve(message.reply);
    else waiting.reject(new Error(message.failed));
  }

  /** A page's call: answered only while one of the worker's callable requests waits on this very port. */
  private answerCall(entry: OpenPort, message: PagePortCall): void {
    const reply = (answer: unknown): void => {
      const out: PagePortCallReply = { call: message.call, reply: answer };
      try {
        entry.port.postMessage(out);
      } catch {
        // The page went away while the worker worked: nobody to answer.
      }
    };
    const call = this.deps.call;
    if (!call || ![...entry.waiting.values()].some((waiting) => waiting.callable)) {
      reply({ ok: false, reason: 'not-acting' });
      return;
    }
    call({ tabId: entry.tabId, documentId: entry.documentId }, message.request).then(reply, () => reply({ ok: false, reason: 'failed' }));
  }

  private drop(entry: OpenPort, error: Error, disconnect: boolean): void {
    if (this.open.get(entry.key) === entry) this.open.delete(entry.key);
    if (disconnect) {
      try {
        entry.port.disconnect();
      } catch {
        // already closed
      }
    }
    for (const waiting of entry.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    entry.waiting.clear();
  }

  /** Closes idle ports, least recently used first, until at most `limit` are open (never `opened`, about to be used). */
  private trim(opened: OpenPort): void {
    if (this.open.size <= this.limit) return;
    for (const entry of [...this.open.values()]) {
      if (this.open.size <= this.limit) return;
      if (entry !== opened && entry.waiting.size === 0) this.drop(entry, new Error(PAGE_GONE), true);
    }
  }
}
