/**
 * How a module the worker injects (the act module, the site adapters, the reader) meets the content
 * script: through a global of the isolated world that page scripts can neither see nor replace
 * (they live in another world), defined once, unwritable. The content script installs the hook;
 * the module, once injected, registers itself on it. The hook is keyed by a Symbol and read only as
 * the world's own property (isolatedGlobal.ts): element ids and names shadow string-named globals,
 * in the isolated world too, so `<form id="__tetherActHook">` once made every act fail (issue 22).
 */
import { defineOwnGlobal, ownGlobal } from './isolatedGlobal.ts';

export interface ModuleHook<M> {
  module: M | null;
  register(module: M): void;
}

/** Installs the hook under `key` (once; `extra` is what the content script lends the module). */
export function installModuleHook<M, Extra extends object>(key: symbol, extra: Extra): void {
  if (ownGlobal<unknown>(key) !== null) return;
  const hook: ModuleHook<M> & Extra = {
    ...extra,
    module: null,
    register(module: M) {
      // The first registration wins: a second injection of the module changes nothing.
      if (!hook.module) hook.module = module;
    },
  };
  defineOwnGlobal(key, hook);
}

export function moduleHook<H>(key: symbol): H | null {
  return ownGlobal<H>(key);
}
