/**
 * Calls sent over a connection and not answered yet, for the hub (requests it sent a browser) and
 * a relay (requests it sent the hub). Each call ends exactly once: with its answer, its timeout, or
 * the connection's end.
 */
import type { Envelope } from '../../shared/agent/agentProtocol.ts';

interface Entry<Tag> {
  tag: Tag;
  resolve(envelope: Envelope): void;
  timer: ReturnType<typeof setTimeout>;
}

export class PendingCalls<Tag> {
  private readonly calls = new Map<string, Entry<Tag>>();
  private next = 0;

  /** `prefix` keeps ids from different tables apart in logs. */
  constructor(private readonly prefix: string) {}

  /** A new call: its id to send, and the answer it will get (`onTimeout()` when none comes in `timeoutMs`). */
  open(tag: Tag, timeoutMs: number, onTimeout: (tag: Tag) => Envelope): { id: string; answer: Promise<Envelope> } {
    this.next += 1;
    const id = `${this.prefix}${this.next}`;
    const answer = new Promise<Envelope>((resolve) => {
      const timer = setTimeout(() => {
        this.calls.delete(id);
        resolve(onTimeout(tag));
      }, timeoutMs);
      this.calls.set(id, { tag, resolve, timer });
    });
    return { id, answer };
  }

  /** Answers call `id` with `answer(tag)`, if it is open and `from(tag)` agrees this sender may answer it. */
  settle(id: string, answer: (tag: Tag) => Envelope, from: (tag: Tag) => boolean = () => true): boolean {
    const entry = this.calls.get(id);
    if (!entry || !from(entry.tag)) return false;
    this.finish(id, entry, answer(entry.tag));
    return true;
  }

  /** Ends every open call `which` selects with `answer(tag)`; returns how many. */
  settleAll(which: (tag: Tag) => boolean, answer: (tag: Tag) => Envelope): number {
    let count = 0;
    for (const [id, entry] of this.calls) {
      if (!which(entry.tag)) continue;
      this.finish(id, entry, answer(entry.tag));
      count += 1;
    }
    return count;
  }

  get size(): number {
    return this.calls.size;
  }

  private finish(id: string, entry: Entry<Tag>, envelope: Envelope): void {
    this.calls.delete(id);
    clearTimeout(entry.timer);
    entry.resolve(envelope);
  }
}
