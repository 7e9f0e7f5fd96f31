/**
 * How a module the worker injects (the act module, the site adapters, the reader) meets the content
 * script: a slot in a global of the isolated world that page scripts can neither see nor replace
 * (they live in another world), defined once, unwritable. The content script opens each slot,
 * lending the module what it needs; the module, once injected, registers itself in it. A slot is
 * keyed by a Symbol and read only as the world's own property (isolatedGlobal.ts): element ids and
 * names shadow string-named globals, in the isolated world too, so `<form id="__tetherActHook">`
 * once made every act fail (issue 22). The keys keep their first names (`tether.actHook`, …).
 */
import type { ActHost, ActModule } from './act/actContract.ts';
import { defineOwnGlobal, ownGlobal } from './isolatedGlobal.ts';
import type { ReaderModule } from './reader/readerContract.ts';
import type { SitesModule } from './sites/sitesContract.ts';

/** What a slot holds: what the content script lends, and the module once it registered. */
export interface ModuleSlot<M, Lent> {
  lent: Lent;
  module: M | null;
  register(module: M): void;
}

export interface Slot<M, Lent> {
  /** Opens the slot (once), lending `lent` to the module that will register in it. */
  open(lent: Lent): void;
  /** The slot, or null when the content script did not open it in this world. */
  get(): ModuleSlot<M, Lent> | null;
  /** The module, once it registered. */
  module(): M | null;
}

function slot<M, Lent = null>(name: string): Slot<M, Lent> {
  const key = Symbol.for(name);
  const get = () => ownGlobal<ModuleSlot<M, Lent>>(key);
  return {
    open(lent) {
      if (get() !== null) return;
      const opened: ModuleSlot<M, Lent> = {
        lent,
        module: null,
        register(module: M) {
          // The first registration wins: a second injection of the module changes nothing.
          if (!opened.module) opened.module = module;
        },
      };
      defineOwnGlobal(key, opened);
    },
    get,
    module: () => get()?.module ?? null,
  };
}

/** The act module (content-act.js), lent the content script's stateful parts. */
export const actSlot = slot<ActModule, ActHost>('tether.actHook');
/** The site adapters (content-sites.js). */
export const sitesSlot = slot<SitesModule>('tether.sitesHook');
/** The reader (content-read.js). */
export const readerSlot = slot<ReaderModule>('tether.readerHook');
