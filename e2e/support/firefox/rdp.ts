/**
 * A small client of Firefox's Remote Debugging Protocol (what about:debugging and web-ext speak:
 * length-prefixed JSON packets over TCP). WebDriver BiDi does not reach extension pages (Firefox
 * skips them, bug 1755014), so the Firefox tests evaluate in Tether's own pages through this, as
 * the Chromium tests do through an extension page Playwright opens.
 *
 * Requests to one actor are answered in order; events (`type` in EVENT_TYPES) come unasked.
 */
import { createConnection, type Socket } from 'node:net';

export interface Packet {
  from: string;
  type?: string;
  error?: string;
  message?: string;
  [key: string]: unknown;
}

export interface TargetForm {
  actor: string;
  url: string;
  consoleActor: string;
  browsingContextID?: number;
  [key: string]: unknown;
}

const EVENT_TYPES = new Set([
  'target-available-form',
  'target-destroyed-form',
  'evaluationResult',
  'resources-available-array',
  'resources-updated-array',
  'resources-destroyed-array',
  'tabListChanged',
  'addonListChanged',
  'frameUpdate',
  'tabNavigated',
  'descriptor-destroyed',
  'newSource',
  'workerListChanged',
  'serviceWorkerRegistrationListChanged',
  'processListChanged',
  'tabDetached',
  'forwardingCancelled',
]);

interface Waiter {
  resolve(packet: Packet): void;
  reject(error: Error): void;
}

export class Rdp {
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly listeners = new Set<(packet: Packet) => void>();

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('close', () => {
      for (const queue of this.waiting.values()) for (const waiter of queue.splice(0)) waiter.reject(new Error('the debugger connection closed'));
    });
  }

  /** Connects once Firefox listens (it opens the port a moment after it starts). */
  static async connect(port: number, attempts = 100): Promise<Rdp> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await Rdp.open(port);
      } catch (error) {
        if (attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private static open(port: number): Promise<Rdp> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('error', reject);
      const rdp = new Rdp(socket);
      // The server speaks first: a greeting from the root actor.
      rdp.waiting.set('root', [
        {
          resolve: () => {
            socket.off('error', reject);
            socket.on('error', () => undefined);
            resolve(rdp);
          },
          reject,
        },
      ]);
    });
  }

  private onData(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const colon = this.buffer.indexOf(58);
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString());
      if (this.buffer.length < colon + 1 + length) return;
      const packet = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + length).toString()) as Packet;
      this.buffer = this.buffer.subarray(colon + 1 + length);
      this.dispatch(packet);
    }
  }

  private dispatch(packet: Packet): void {
    for (const listener of this.listeners) listener(packet);
    if (packet.type !== undefined && packet.error === undefined && EVENT_TYPES.has(packet.type)) return;
    const waiter = this.waiting.get(packet.from)?.shift();
    if (!waiter) return;
    if (packet.error !== undefined) waiter.reject(new Error(`${packet.error}: ${packet.message ?? ''}`));
    else waiter.resolve(packet);
  }

  on(listener: (packet: Packet) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  request(to: string, type: string, args: Record<string, unknown> = {}): Promise<Packet> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(to) ?? [];
      queue.push({ resolve, reject });
      this.waiting.set(to, queue);
      const text = JSON.stringify({ to, type, ...args });
      this.socket.write(`${Buffer.byteLength(text)}:${text}`);
    });
  }

  waitFor(predicate: (packet: Packet) => boolean, timeoutMs = 15_000): Promise<Packet> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('the debugger sent nothing matching in time'));
      }, timeoutMs);
      const off = this.on((packet) => {
        if (!predicate(packet)) return;
        clearTimeout(timer);
        off();
        resolve(packet);
      });
    });
  }

  /**
   * Evaluates an expression in a page (its console actor); a promise is awaited. Values come back
   * as strings: pass JSON through `JSON.stringify` in the expression.
   */
  async evaluate(consoleActor: string, text: string, timeoutMs = 60_000): Promise<unknown> {
    const results: Packet[] = [];
    const off = this.on((packet) => {
      if (packet.type === 'evaluationResult' && packet.from === consoleActor) results.push(packet);
    });
    try {
      const { resultID } = await this.request(consoleActor, 'evaluateJSAsync', { text, mapped: { await: true } });
      const result =
        results.find((packet) => packet.resultID === resultID) ??
        (await this.waitFor((packet) => packet.type === 'evaluationResult' && packet.resultID === resultID, timeoutMs));
      if (result.exceptionMessage !== undefined || result.topLevelAwaitRejected === true) {
        throw new Error(`evaluation failed: ${String(result.exceptionMessage ?? 'the promise was rejected')}`);
      }
      return await this.valueOf(result.result);
    } finally {
      off();
    }
  }

  private async valueOf(grip: unknown): Promise<unknown> {
    if (grip === null || typeof grip !== 'object') return grip;
    const { type, actor, length } = grip as { type?: string; actor?: string; length?: number };
    if (type === 'undefined') return undefined;
    if (type === 'null') return null;
    if (type === 'longString' && actor) return (await this.request(actor, 'substring', { start: 0, end: length ?? 0 })).substring;
    return grip;
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }
}

/** An add-on's documents (its background page, sidebar, extension tabs) as debugger targets, kept current. */
export class AddonTargets {
  readonly targets = new Map<string, TargetForm>();

  private constructor(
    private readonly rdp: Rdp,
    readonly addonActor: string,
  ) {
    rdp.on((packet) => {
      const target = packet.target as TargetForm | undefined;
      if (!target) return;
      if (packet.type === 'target-available-form') this.targets.set(target.actor, target);
      if (packet.type === 'target-destroyed-form') this.targets.delete(target.actor);
    });
  }

  static async watch(rdp: Rdp, addonId: string): Promise<AddonTargets> {
    const { addons } = (await rdp.request('root', 'listAddons', { iconDataURL: false })) as Packet & { addons: Array<{ id: string; actor: string }> };
    const addon = addons.find((item) => item.id === addonId);
    if (!addon) throw new Error(`the add-on ${addonId} is not installed (installed: ${addons.map((item) => item.id).join(', ')})`);
    const found = new AddonTargets(rdp, addon.actor);
    const watcher = (await rdp.request(addon.actor, 'getWatcher', { isServerTargetSwitchingEnabled: true })) as Packet & { actor: string };
    await rdp.request(watcher.actor, 'watchTargets', { targetType: 'frame' });
    return found;
  }

  /** The first target matching, now or when it appears. */
  async find(predicate: (target: TargetForm) => boolean, timeoutMs = 15_000): Promise<TargetForm> {
    const present = [...this.targets.values()].find(predicate);
    if (present) return present;
    const packet = await this.rdp.waitFor((item) => item.type === 'target-available-form' && predicate(item.target as TargetForm), timeoutMs);
    return packet.target as TargetForm;
  }

  /** Unloads the event page, as the browser does when it is idle (Chromium: stopping the service worker). */
  async terminateBackground(): Promise<void> {
    await this.rdp.request(this.addonActor, 'terminateBackgroundScript');
  }
}
