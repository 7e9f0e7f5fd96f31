/**
 * A zustand PersistStorage over `chrome.storage` (local or session). zustand's default is
 * `localStorage`, which does not exist in a service worker.
 *
 * `setItem` returns its promise, and the persist middleware hands it back from `setState`, so a
 * handler can `await store.setState(...)` and answer only once the state is on disk.
 */
import browser from 'webextension-polyfill';
import type { PersistStorage, StorageValue } from 'zustand/middleware';

export type StorageAreaName = 'local' | 'session';

export function chromeStoragePersist<S>(area: StorageAreaName): PersistStorage<S, Promise<void>> {
  const storage = area === 'local' ? browser.storage.local : browser.storage.session;
  return {
    async getItem(name: string): Promise<StorageValue<S> | null> {
      const found = await storage.get(name);
      const value: unknown = found[name];
      if (value === undefined || value === null || typeof value !== 'object') return null;
      return value as StorageValue<S>;
    },
    async setItem(name: string, value: StorageValue<S>): Promise<void> {
      await storage.set({ [name]: value });
    },
    async removeItem(name: string): Promise<void> {
      await storage.remove(name);
    },
  };
}
