/**
 * The request journal (the lifecycle's "record" point): every agent request, its decision, steps,
 * observations and outcome, in IndexedDB. Bounded: past MAX_RECORDS the oldest go first.
 * Exportable as JSON Lines from the person's UI.
 *
 * A save is one small transaction: the record is committed (readable by everyone) before it
 * resolves, with relaxed durability (the operating system has the write; it does not wait for the
 * disk to flush, as Chrome's own storage does not). How many records there are is counted once per
 * worker and then kept up to date here (only this worker writes the journal), instead of counting
 * every record on every save.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MAX_JOURNAL_RECORDS as MAX_RECORDS, type JournalRecord } from '../../shared/journalRecord.ts';

interface JournalDb extends DBSchema {
  records: {
    key: number;
    value: JournalRecord & { seq?: number };
    indexes: { byWorkspace: string };
  };
}

let dbPromise: Promise<IDBPDatabase<JournalDb>> | null = null;

function db(): Promise<IDBPDatabase<JournalDb>> {
  dbPromise ??= openDB<JournalDb>('tether-journal', 1, {
    upgrade(database) {
      const store = database.createObjectStore('records', { keyPath: 'seq', autoIncrement: true });
      store.createIndex('byWorkspace', 'workspaceId');
    },
  }).catch((error: unknown) => {
    dbPromise = null;
    throw error;
  });
  return dbPromise;
}

export interface JournalSink {
  save(record: JournalRecord): Promise<void>;
}

/** Records in the store, as this worker last knew it; null until counted. */
let stored: number | null = null;

export const indexedDbJournal: JournalSink = {
  async save(record) {
    const database = await db();
    const tx = database.transaction('records', 'readwrite', { durability: 'relaxed' });
    const adding = tx.store.add({ ...record });
    // The usual save: below the bound, the add is all this transaction does, so it is committed as
    // soon as the add is done (no round trip to find out nothing else is coming).
    if (stored !== null && stored < MAX_RECORDS) {
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
      let extra = stored - MAX_RECORDS;
      let cursor = extra > 0 ? await tx.store.openCursor() : null;
      while (cursor && extra > 0) {
        await cursor.delete();
        extra -= 1;
        stored -= 1;
        cursor = await cursor.continue();
      }
      await tx.done;
    } catch (error) {
      stored = null;
      throw error;
    }
  },
};

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
