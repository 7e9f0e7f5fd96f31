import { describe, expect, it } from 'vitest';
import { SessionRecords, type RecordStorage } from './sessionRecords.ts';

interface Note {
  text: string;
  at: number;
}

/** storage.session as the worker sees it: every change is reported to every listener, its own included. */
function fakeSession() {
  const data = new Map<string, unknown>();
  const listeners: Array<(changes: Record<string, { newValue?: unknown }>) => void> = [];
  const reads: string[] = [];
  const writes: string[] = [];
  let slowReads: Array<() => void> | null = null;
  const notify = (changes: Record<string, { newValue?: unknown }>) => {
    // Change events arrive as their own tasks, after the write resolved.
    setTimeout(() => listeners.forEach((listener) => listener(changes)), 0);
  };
  const storage: RecordStorage = {
    async get(key) {
      reads.push(String(key));
      const snapshot = key === null ? Object.fromEntries(data) : data.has(key) ? { [key]: structuredClone(data.get(key)) } : {};
      if (slowReads) await new Promise<void>((resolve) => slowReads?.push(resolve));
      return snapshot;
    },
    async set(items) {
      writes.push(...Object.keys(items));
      for (const [key, value] of Object.entries(items)) data.set(key, structuredClone(value));
      notify(Object.fromEntries(Object.entries(items).map(([key, value]) => [key, { newValue: structuredClone(value) }])));
    },
    async remove(keys) {
      for (const key of keys) data.delete(key);
      notify(Object.fromEntries(keys.map((key) => [key, {}])));
    },
    onChanged(listener) {
      listeners.push(listener);
    },
  };
  return {
    storage,
    data,
    reads,
    writes,
    /** Another context changes storage directly (a page clearing the session, say). */
    fromElsewhere(change: () => void, changes: Record<string, { newValue?: unknown }>) {
      change();
      notify(changes);
    },
    holdReads() {
      slowReads = [];
    },
    releaseReads() {
      const waiting = slowReads ?? [];
      slowReads = null;
      waiting.forEach((resolve) => resolve());
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function notes(session: ReturnType<typeof fakeSession>, cached = true) {
  return new SessionRecords<Note>({
    storage: session.storage,
    cached,
    prefix: 'note.',
    max: 100,
    madeAt: (note) => note.at,
    expired: () => false,
    parse: (value) => (typeof value === 'object' && value !== null && 'text' in value ? (value as Note) : null),
  });
}

describe('records in storage.session, with a copy kept in the worker', () => {
  it('a record written or read once is read from the copy after that', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    await settle();
    expect(await records.get('a')).toEqual({ text: 'one', at: 1 });
    session.data.set('note.b', { text: 'two', at: 2 });
    await records.get('b');
    await records.get('b');
    expect(session.reads).toEqual(['note.b']);
  });

  it('without `cached`, every read goes to storage', async () => {
    const session = fakeSession();
    const records = notes(session, false);
    await records.put('a', { text: 'one', at: 1 });
    await records.get('a');
    await records.get('a');
    expect(session.reads).toEqual(['note.a', 'note.a']);
  });

  it('a record removed or a session cleared elsewhere is gone for the worker too', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    session.fromElsewhere(() => session.data.clear(), { 'note.a': {} });
    await settle();
    expect(await records.get('a')).toBeNull();
  });

  it('a record another context rewrote is read again from storage', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    session.fromElsewhere(() => session.data.set('note.a', { text: 'changed', at: 1 }), { 'note.a': { newValue: { text: 'changed', at: 1 } } });
    await settle();
    expect(await records.get('a')).toEqual({ text: 'changed', at: 1 });
  });

  it('the echo of its own write keeps the copy; an older echo after a newer write only drops it', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    await records.put('a', { text: 'two', at: 1 });
    await settle(); // both echoes arrive now, "one" first
    expect(await records.get('a')).toEqual({ text: 'two', at: 1 });
    await settle();
    const reads = session.reads.length;
    expect(await records.get('a')).toEqual({ text: 'two', at: 1 });
    expect(session.reads.length).toBe(reads);
  });

  it('a read that raced a write does not leave the older record as the copy', async () => {
    const session = fakeSession();
    const records = notes(session);
    session.data.set('note.a', { text: 'old', at: 1 });
    session.holdReads();
    const reading = records.get('a');
    await records.put('a', { text: 'new', at: 1 });
    session.releaseReads();
    expect(await reading).toEqual({ text: 'old', at: 1 });
    expect(await records.get('a')).toEqual({ text: 'new', at: 1 });
  });

  it('an update that changes nothing writes nothing', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    await records.update('a', (note) => note);
    await records.update('a', (note) => ({ ...note, text: 'two' }));
    expect(session.writes).toEqual(['note.a', 'note.a']);
    expect(await records.get('a')).toEqual({ text: 'two', at: 1 });
  });

  it('a worker that starts again (a new store) reads what storage holds', async () => {
    const session = fakeSession();
    await notes(session).put('a', { text: 'one', at: 1 });
    session.data.set('note.a', { text: 'from storage', at: 1 });
    expect(await notes(session).get('a')).toEqual({ text: 'from storage', at: 1 });
  });

  it('removing records drops their copies', async () => {
    const session = fakeSession();
    const records = notes(session);
    await records.put('a', { text: 'one', at: 1 });
    await records.put('b', { text: 'two', at: 2 });
    expect(await records.removeWhere((note) => note.text === 'one')).toBe(1);
    expect(await records.get('a')).toBeNull();
    expect(await records.get('b')).toEqual({ text: 'two', at: 2 });
  });
});
