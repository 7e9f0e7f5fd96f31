/**
 * What the act module and the content script lend each other. Every page carries only the content
 * script (observe, inspect, the person's activity); plan validation, writes, editor drivers and the
 * markdown/HTML converters live in the act module, which the worker injects into the bound
 * document's isolated world on the first act or markdown read (`scripting.executeScript`); it
 * meets the content script through its slot (moduleSlot.ts). The content script hands the module
 * its stateful parts (the person's activity, Tether's own writes, the page instance), so both see
 * one state.
 */
import type { SeenElement } from '../../shared/page/elementBinding.ts';
import type { DraftState, PageActResult, PageActStatus } from '../../shared/page/pageProtocol.ts';
import type { Editable, PageModel } from '../pageTypes.ts';

/** What the content script lends the act module. */
export interface ActHost {
  readPageModel(): PageModel;
  draftState(model: PageModel): DraftState;
  rememberTetherWrite(element: Element, text: string): void;
  personIsTyping(element: Element): 'composing' | 'typing' | null;
  lastEditBy(element: Element): 'person' | 'page' | null;
  asTether<T>(edit: () => T): T;
  watchDocument(doc: Document): void;
  /** Element ids are per document and must be the ones inspect reported: one map, here. */
  elementId(element: Element): string;
  seenElement(element: HTMLElement): SeenElement;
  /** The port the act now running came on (pageChannelServer.ts), or null: the act module's calls to the worker go on it (actHost.ts callWorker). */
  actPort(): chrome.runtime.Port | null;
}

export interface MarkdownReader {
  field(editable: Editable): string;
  region(element: Element): string;
}

/** What the act module provides once loaded. */
export interface ActModule {
  /** Validates the act request (schema and plan) and runs it; the expectation was checked already. */
  act(message: unknown): Promise<{ ok: true; value: PageActResult } | { ok: false; error: { code: string; message: string } }>;
  actStatus(requestId: string): PageActStatus;
  /** Keeps one image's bytes for an act about to run (checked again here). */
  stageImage(message: unknown): { ok: true; value: { stored: true } } | { ok: false; error: { code: string; message: string } };
  markdown: MarkdownReader;
}
