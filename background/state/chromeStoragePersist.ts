/**
 * A zustand PersistStorage over `chrome.storage` (local or session). zustand's default is
 * `localStorage`, which does not exist in a service worker.
 *
 * Each top-level slice of the state is its own storage key (`name.slice`), and a write sends only
 * the slices whose object changed since the last write: minting a handle does not rewrite the act
 * records, the approvals, and so on. `setItem` returns its promise, and the persist middleware
 * hands it back from `setState`, so a handler can `await store.setState(...)` and answer only once
 * the state is stored.
 */
import browser from 'webextension-polyfill';
import type { PersistStorage, StorageValue } from 'zustand/middleware';

export type StorageAreaName = 'local' | 'session';

const VERSION_SLICE = '__version';

export function sliceKey(name: string, slice: string): string {
  return `${name}.${slice}`;
}

export function versionKey(name: string): string {
  return sliceKey(name, VERSION_SLICE);
}

export function chromeStoragePersist<S extends object>(area: StorageAreaName): PersistStorage<S, Promise<void>> {
  const storage = area === 'local' ? browser.storage.local : browser.storage.session;
  let written = new Map<string, unknown>();
  return {
    async getItem(name: string): Promise<StorageValue<S> | null> {
      const everything = await storage.get(null);
      const prefix = `${name}.`;
      const version = everything[versionKey(name)];
      if (typeof version !== 'number') return null;
      const state: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(everything)) {
        if (key.startsWith(prefix) && key !== versionKey(name)) state[key.slice(prefix.length)] = value;
      }
      written = new Map(Object.entries(state));
      // Checked by the store's merge (zod) before it is believed.
      return { state: state as S, version };
    },
    async setItem(name: string, value: StorageValue<S>): Promise<void> {
      const changes: Record<string, unknown> = { [versionKey(name)]: value.version ?? 0 };
      for (const [slice, content] of Object.entries(value.state)) {
        if (written.get(slice) === content) continue;
        written.set(slice, content);
        changes[sliceKey(name, slice)] = content;
      }
      await storage.set(changes);
    },
    async removeItem(name: string): Promise<void> {
      const everything = await storage.get(null);
      written = new Map();
      await storage.remove(Object.keys(everything).filter((key) => key.startsWith(`${name}.`)));
    },
  };
}
