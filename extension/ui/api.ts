/**
 * The typed client Tether's pages use to reach the service worker (the counterpart of the
 * worker's uiChannel.ts): one function per request type, answers as Outcome values.
 */
import browser from 'webextension-polyfill';
import type { Outcome } from '../../shared/errors.ts';
import { RUNTIME_CHANNEL, UI_EVENT_CHANNEL, type RuntimeAnswers, type RuntimeRequest, type UiEvent } from '../../shared/extension/uiProtocol.ts';

export async function ask<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<Outcome<RuntimeAnswers[K]>> {
  try {
    return (await browser.runtime.sendMessage({ channel: RUNTIME_CHANNEL, request })) as Outcome<RuntimeAnswers[K]>;
  } catch (error) {
    return { ok: false, error: { code: 'timeout', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** Calls back when the worker says something the page shows has changed. */
export function onUiEvent(listener: (event: UiEvent['type']) => void): () => void {
  const handler = (message: unknown): undefined => {
    if (typeof message === 'object' && message !== null && (message as { channel?: unknown }).channel === UI_EVENT_CHANNEL) {
      listener((message as UiEvent).type);
    }
    return undefined;
  };
  browser.runtime.onMessage.addListener(handler);
  return () => browser.runtime.onMessage.removeListener(handler);
}
