/**
 * Many small, independent records in `storage.session`, each under its own key (`prefix` + id):
 * target handles and act records. A request reads and writes the one record it needs, never the
 * whole set, so a busy worker's writes stay small.
 *
 * Storage is the source of truth. A store may keep a copy of the records it read or wrote in the
 * worker (`cached`), so a hot record (a handle used by every inspect and act) costs no storage
 * round trip; the copy is only an optimisation: it starts empty when the worker starts, it is
 * written only after storage took the write, and any change storage reports that the copy does
 * not already hold (a record removed, the session cleared, a write from elsewhere) drops it, so
 * the next read goes to storage again.
 *
 * Old records are pruned now and then: past their time, and past `max` (oldest first).
 */

/** The slice of `storage.session` the records need (an adapter in the worker; a fake in tests). */
export interface RecordStorage {
  get(key: string | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
  /** Registers a listener for every change to this storage area, whoever made it. */
  onChanged(listener: (changes: Record<string, { newValue?: unknown }>) => void): void;
}

export interface RecordStoreOptions<T> {
  prefix: string;
  max: number;
  /** When the record was made, for "oldest first". */
  madeAt(record: T): number;
  /** Whether the record is past its time. */
  expired(record: T, now: number): boolean;
  /** Checks a stored value before it is believed (it may come from an older version). */
  parse(value: unknown): T | null;
  storage: RecordStorage;
  /** Keep a copy of the records in the worker (see above). */
  cached?: boolean;
}

const PRUNE_EVERY = 32;

export class SessionRecords<T> {
  private writes = 0;
  private readonly copies = new Map<string, T>();
  /** Bumped by every write and drop: a storage read that raced with one is not kept as a copy. */
  private generation = 0;

  constructor(private readonly options: RecordStoreOptions<T>) {
    // Registered when the module loads (top level of the worker), like every listener.
    if (options.cached) options.storage.onChanged((changes) => this.onStorageChanged(changes));
  }

  private key(id: string): string {
    return `${this.options.prefix}${id}`;
  }

  private drop(id: string): void {
    this.copies.delete(id);
    this.generation += 1;
  }

  private keep(id: string, record: T): void {
    if (!this.options.cached) return;
    this.copies.set(id, record);
    this.generation += 1;
  }

  private onStorageChanged(changes: Record<string, { newValue?: unknown }>): void {
    for (const [key, change] of Object.entries(changes)) {
      if (!key.startsWith(this.options.prefix)) continue;
      const id = key.slice(this.options.prefix.length);
      const copy = this.copies.get(id);
      if (copy === undefined) continue;
      // Our own writes come back here too; anything else means storage holds something the copy does not.
      if (change.newValue === undefined || JSON.stringify(change.newValue) !== JSON.stringify(copy)) this.drop(id);
    }
  }

  async get(id: string): Promise<T | null> {
    const copy = this.copies.get(id);
    if (copy !== undefined) return copy;
    const key = this.key(id);
    const generation = this.generation;
    const found = await this.options.storage.get(key);
    const record = found[key] === undefined ? null : this.options.parse(found[key]);
    if (record !== null && generation === this.generation) this.keep(id, record);
    return record;
  }

  async put(id: string, record: T): Promise<void> {
    this.drop(id);
    await this.options.storage.set({ [this.key(id)]: record });
    this.keep(id, record);
    this.writes += 1;
    if (this.writes % PRUNE_EVERY === 0) await this.prune(Date.now());
  }

  /** Changes one record; a change that returns the record itself writes nothing. */
  async update(id: string, change: (record: T) => T): Promise<T | null> {
    const record = await this.get(id);
    if (!record) return null;
    const next = change(record);
    if (next === record) return record;
    this.drop(id);
    await this.options.storage.set({ [this.key(id)]: next });
    this.keep(id, next);
    return next;
  }

  async all(): Promise<Map<string, T>> {
    const everything = await this.options.storage.get(null);
    const records = new Map<string, T>();
    for (const [key, value] of Object.entries(everything)) {
      if (!key.startsWith(this.options.prefix)) continue;
      const record = this.options.parse(value);
      if (record) records.set(key.slice(this.options.prefix.length), record);
    }
    return records;
  }

  private async removeIds(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const id of ids) this.drop(id);
    await this.options.storage.remove(ids.map((id) => this.key(id)));
    for (const id of ids) this.drop(id);
  }

  /** Removes every record `match` selects; answers how many. */
  async removeWhere(match: (record: T) => boolean): Promise<number> {
    const doomed = [...(await this.all()).entries()].filter(([, record]) => match(record)).map(([id]) => id);
    await this.removeIds(doomed);
    return doomed.length;
  }

  async prune(now: number): Promise<void> {
    const records = [...(await this.all()).entries()].sort(([, a], [, b]) => this.options.madeAt(a) - this.options.madeAt(b));
    const expired = records.filter(([, record]) => this.options.expired(record, now)).map(([id]) => id);
    const live = records.filter(([, record]) => !this.options.expired(record, now));
    const surplus = live.slice(0, Math.max(0, live.length - this.options.max)).map(([id]) => id);
    await this.removeIds([...expired, ...surplus]);
  }
}
