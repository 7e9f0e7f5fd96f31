/**
 * How a module the worker injects (the act module, the site adapters, the reader) meets the content
 * script: through a global of the isolated world that page scripts can neither see nor replace
 * (they live in another world), defined once, unwritable. The content script installs the hook;
 * the module, once injected, registers itself on it.
 */
export interface ModuleHook<M> {
  module: M | null;
  register(module: M): void;
}

/** Installs the hook named `key` (once; `extra` is what the content script lends the module). */
export function installModuleHook<M, Extra extends object>(key: string, extra: Extra): void {
  const scope = globalThis as Record<string, unknown>;
  if (scope[key]) return;
  const hook: ModuleHook<M> & Extra = {
    ...extra,
    module: null,
    register(module: M) {
      // The first registration wins: a second injection of the module changes nothing.
      if (!hook.module) hook.module = module;
    },
  };
  Object.defineProperty(scope, key, { value: hook, writable: false, configurable: false });
}

export function moduleHook<H>(key: string): H | null {
  return ((globalThis as Record<string, unknown>)[key] as H | undefined) ?? null;
}
