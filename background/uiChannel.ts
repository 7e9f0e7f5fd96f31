/**
 * The worker's message registration for Tether's own pages. Trust comes from `sender`: the
 * message must come from this extension (`sender.id`) and from one of its pages (`sender.url`
 * under the extension's origin) — a content script, another extension or a web page is ignored,
 * whatever its payload claims. (externally_connectable is empty, and no onMessageExternal
 * listener exists, so other extensions cannot even reach this.)
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { failure, tetherError, type Outcome } from '../shared/errors.ts';
import { RUNTIME_CHANNEL, runtimeRequestSchema } from '../shared/extension/uiProtocol.ts';
import { handleUiRequest, type UiContext } from './uiHandlers.ts';

export function isOwnPage(sender: Runtime.MessageSender): boolean {
  const extensionOrigin = browser.runtime.getURL('');
  return sender.id === browser.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
}

export async function handleRuntimeMessage(message: unknown, deps: UiContext): Promise<Outcome<unknown>> {
  const body = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
  const parsed = runtimeRequestSchema.safeParse(body.request);
  if (!parsed.success) {
    return failure(tetherError('invalid_request', `Malformed request: ${parsed.error.issues[0]?.message ?? 'invalid'}.`));
  }
  try {
    await deps.ready();
    return await handleUiRequest(parsed.data, deps);
  } catch (error) {
    return failure(tetherError('invalid_request', error instanceof Error ? error.message : String(error)));
  }
}

export function registerRuntimeChannel(deps: UiContext): void {
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    if (typeof message !== 'object' || message === null || (message as { channel?: unknown }).channel !== RUNTIME_CHANNEL) return undefined;
    if (!isOwnPage(sender)) return undefined;
    return handleRuntimeMessage(message, deps);
  });
}
