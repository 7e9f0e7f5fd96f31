/**
 * The request journal (the lifecycle's "record" point): every agent request, its decision, steps,
 * observations and outcome, in IndexedDB. Bounded: past MAX_RECORDS the oldest go, in batches —
 * once the journal holds TRIM_BATCH records over the bound, one range delete takes it back to the
 * bound (a delete with every save would cost each request two more round trips to the database).
 * Exportable as JSON Lines from the person's UI.
 *
 * A save is one small transaction: the record is committed (readable by everyone) before it
 * resolves, with relaxed durability (the operating system has the write; it does not wait for the
 * disk to flush, as Chrome's own storage does not). How many records there are is counted once per
 * worker and then kept up to date here (only this worker writes the journal), instead of counting
 * every record on every save.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MAX_JOURNAL_RECORDS as MAX_RECORDS, type JournalRecord } from '../../shared/model/journalRecord.ts';

export interface JournalDb extends DBSchema {
  records: {
    key: number;
    value: JournalRecord & { seq?: number };
    indexes: { byWorkspace: string };
  };
}

/** How far past the bound the journal may grow before the oldest go, all in one delete. */
export const TRIM_BATCH = 500;

export function openJournalDb(name = 'tether-journal'): Promise<IDBPDatabase<JournalDb>> {
  return openDB<JournalDb>(name, 1, {
    upgrade(database) {
      const store = database.createObjectStore('records', { keyPath: 'seq', autoIncrement: true });
      store.createIndex('byWorkspace', 'workspaceId');
    },
  });
}

let dbPromise: Promise<IDBPDatabase<JournalDb>> | null = null;

function db(): Promise<IDBPDatabase<JournalDb>> {
  dbPromise ??= openJournalDb().catch((error: unknown) => {
    dbPromise = null;
    throw error;
  });
  return dbPromise;
}

export interface JournalSink {
  save(record: JournalRecord): Promise<void>;
}

/**
 * A journal over `open`'s database. How many records there are is counted once per worker and
 * then kept up to date here (only this worker writes the journal), instead of counting every
 * record on every save.
 */
export function createJournalSink(open: () => Promise<IDBPDatabase<JournalDb>>, maxRecords = MAX_RECORDS, trimBatch = TRIM_BATCH): JournalSink {
  /** Records in the store, as this worker last knew it; null until counted. */
  let stored: number | null = null;
  return {
    async save(record) {
      const database = await open();
      const tx = database.transaction('records', 'readwrite', { durability: 'relaxed' });
      const adding = tx.store.add({ ...record });
      // The usual save: below the trimming point, the add is all this transaction does, so it is
      // committed as soon as the add is done (no round trip to find out nothing else is coming).
      if (stored !== null && stored + 1 < maxRecords + trimBatch) {
        stored += 1;
        tx.commit();
        try {
          await Promise.all([adding, tx.done]);
        } catch (error) {
          // Not saved: count again next time rather than trust a guess.
          stored = null;
          throw error;
        }
        return;
      }
      try {
        // Counted in the same transaction after the add: it includes this record.
        stored = stored === null ? await tx.store.count() : stored + 1;
        await adding;
        const extra = stored - maxRecords;
        // (A count of 0 would ask getAllKeys for every key.)
        if (extra > 0 && extra >= trimBatch) {
          // The oldest have the smallest keys: one delete up to the last of them.
          const oldest = await tx.store.getAllKeys(null, extra);
          const last = oldest[oldest.length - 1];
          if (last !== undefined) await tx.store.delete(IDBKeyRange.upperBound(last));
          stored -= oldest.length;
        }
        await tx.done;
      } catch (error) {
        stored = null;
        throw error;
      }
    },
  };
}

export const indexedDbJournal: JournalSink = createJournalSink(db);

/** Newest first, optionally one workspace's. */
export async function listJournal(options: { workspaceId?: string; limit: number }): Promise<JournalRecord[]> {
  const database = await db();
  const out: JournalRecord[] = [];
  let cursor = await database.transaction('records').store.openCursor(null, 'prev');
  while (cursor && out.length < options.limit) {
    if (options.workspaceId === undefined || cursor.value.workspaceId === options.workspaceId) {
      const { seq: _seq, ...record } = cursor.value;
      out.push(record);
    }
    cursor = await cursor.continue();
  }
  return out;
}

export async function getJournalRecord(id: string): Promise<JournalRecord | null> {
  const database = await db();
  let cursor = await database.transaction('records').store.openCursor(null, 'prev');
  while (cursor) {
    if (cursor.value.id === id) {
      const { seq: _seq, ...record } = cursor.value;
      return record;
    }
    cursor = await cursor.continue();
  }
  return null;
}

/** Every record, oldest first, one JSON object per line. */
export async function exportJournal(): Promise<string> {
  const database = await db();
  const all = await database.getAll('records');
  return all.map(({ seq: _seq, ...record }) => JSON.stringify(record)).join('\n') + (all.length > 0 ? '\n' : '');
}
