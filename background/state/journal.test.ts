import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import { createJournalSink, openJournalDb } from './journal.ts';

let databases = 0;
const fresh = () => {
  const database = openJournalDb(`journal-test-${(databases += 1)}`);
  return () => database;
};

const record = (index: number) => ({ id: `j${index}` }) as unknown as JournalRecord;

async function ids(open: ReturnType<typeof fresh>): Promise<string[]> {
  return (await (await open()).getAll('records')).map((stored) => stored.id);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => `j${from + index}`);

describe('the journal stays bounded, trimming the oldest in batches', () => {
  it('grows past the bound by up to a batch, then goes back to the bound in one go, oldest first', async () => {
    const open = fresh();
    const journal = createJournalSink(open, 20, 5);
    for (let index = 0; index < 24; index += 1) await journal.save(record(index));
    expect(await ids(open)).toEqual(range(0, 24));
    await journal.save(record(24));
    expect(await ids(open)).toEqual(range(5, 25));
    for (let index = 25; index < 29; index += 1) await journal.save(record(index));
    expect(await ids(open)).toEqual(range(5, 29));
    await journal.save(record(29));
    expect(await ids(open)).toEqual(range(10, 30));
  });

  it('a new worker counts what an earlier one left, and trims it if it is over', async () => {
    const open = fresh();
    const before = createJournalSink(open, 1_000, 0);
    for (let index = 0; index < 40; index += 1) await before.save(record(index));
    const after = createJournalSink(open, 20, 5);
    await after.save(record(40));
    expect(await ids(open)).toEqual(range(21, 41));
  });

  it('without a batch, every save past the bound removes the oldest (the bound held exactly)', async () => {
    const open = fresh();
    const journal = createJournalSink(open, 3, 0);
    for (let index = 0; index < 6; index += 1) await journal.save(record(index));
    expect(await ids(open)).toEqual(range(3, 6));
  });
});
