/**
 * The content script, the act module and the site adapters are separate scripts in one isolated
 * world; they meet through that world's global object. Only what Tether's own scripts put there
 * counts: a Symbol key (element ids and names shadow string-named globals, in Chromium's isolated
 * world too: `<div id="__tetherContentScript">` once made the content script think it was loaded
 * already, issue 22), read as an own property of the global. Named elements live on the Window's
 * prototype chain and are keyed by strings, so neither can answer here. Checked in Chromium 156
 * (e2e/reliability/hostilePages.spec.ts, pages with `?clobber`).
 */

/** What Tether's own scripts put under `key` on this world's global, or null. */
export function ownGlobal<T>(key: symbol): T | null {
  if (!Object.hasOwn(globalThis, key)) return null;
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
  return descriptor !== undefined && 'value' in descriptor ? (descriptor.value as T) : null;
}

/** Puts `value` under `key` once, for good: neither writable nor configurable. */
export function defineOwnGlobal(key: symbol, value: unknown): void {
  Object.defineProperty(globalThis, key, { value, writable: false, configurable: false, enumerable: false });
}
