/**
 * Many small, independent records in `storage.session`, each under its own key (`prefix` + id):
 * target handles and act records. A request reads and writes the one record it needs, never the
 * whole set, so a busy worker's writes stay small; nothing is held in the worker's memory, so a
 * restarted worker — or a cleared session — sees exactly what storage holds.
 *
 * Old records are pruned now and then: past their time, and past `max` (oldest first).
 */
import browser from 'webextension-polyfill';

export interface RecordStoreOptions<T> {
  prefix: string;
  max: number;
  /** When the record was made, for "oldest first". */
  madeAt(record: T): number;
  /** Whether the record is past its time. */
  expired(record: T, now: number): boolean;
  /** Checks a stored value before it is believed (it may come from an older version). */
  parse(value: unknown): T | null;
}

const PRUNE_EVERY = 32;

export class SessionRecords<T> {
  private writes = 0;

  constructor(private readonly options: RecordStoreOptions<T>) {}

  private key(id: string): string {
    return `${this.options.prefix}${id}`;
  }

  async get(id: string): Promise<T | null> {
    const key = this.key(id);
    const found = await browser.storage.session.get(key);
    return found[key] === undefined ? null : this.options.parse(found[key]);
  }

  async put(id: string, record: T): Promise<void> {
    await browser.storage.session.set({ [this.key(id)]: record });
    this.writes += 1;
    if (this.writes % PRUNE_EVERY === 0) await this.prune(Date.now());
  }

  async update(id: string, change: (record: T) => T): Promise<T | null> {
    const record = await this.get(id);
    if (!record) return null;
    const next = change(record);
    await browser.storage.session.set({ [this.key(id)]: next });
    return next;
  }

  async all(): Promise<Map<string, T>> {
    const everything = await browser.storage.session.get(null);
    const records = new Map<string, T>();
    for (const [key, value] of Object.entries(everything)) {
      if (!key.startsWith(this.options.prefix)) continue;
      const record = this.options.parse(value);
      if (record) records.set(key.slice(this.options.prefix.length), record);
    }
    return records;
  }

  /** Removes every record `match` selects; answers how many. */
  async removeWhere(match: (record: T) => boolean): Promise<number> {
    const doomed = [...(await this.all()).entries()].filter(([, record]) => match(record)).map(([id]) => this.key(id));
    if (doomed.length > 0) await browser.storage.session.remove(doomed);
    return doomed.length;
  }

  async prune(now: number): Promise<void> {
    const records = [...(await this.all()).entries()].sort(([, a], [, b]) => this.options.madeAt(a) - this.options.madeAt(b));
    const expired = records.filter(([, record]) => this.options.expired(record, now)).map(([id]) => id);
    const live = records.filter(([, record]) => !this.options.expired(record, now));
    const surplus = live.slice(0, Math.max(0, live.length - this.options.max)).map(([id]) => id);
    const doomed = [...expired, ...surplus].map((id) => this.key(id));
    if (doomed.length > 0) await browser.storage.session.remove(doomed);
  }
}
