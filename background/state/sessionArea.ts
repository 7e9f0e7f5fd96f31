/** `storage.session` as the records in sessionRecords.ts use it. */
import browser from 'webextension-polyfill';
import type { RecordStorage } from '../core/sessionRecords.ts';

export const sessionArea: RecordStorage = {
  get: (key) => browser.storage.session.get(key),
  set: (items) => browser.storage.session.set(items),
  remove: (keys) => browser.storage.session.remove(keys),
  onChanged(listener) {
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === 'session') listener(changes);
    });
  },
};
