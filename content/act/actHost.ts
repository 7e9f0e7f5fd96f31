/**
 * Inside the act module: the content script's stateful parts, lent at registration (actContract.ts, moduleSlot.ts).
 * The module must not bundle its own copies of personActivity, inspectPage or elementIds: their
 * state (the person's typing, Tether's own writes, element ids) lives once, in the content script.
 */
import type { ActHost } from './actContract.ts';
import type { PagePortCall } from '../../shared/page/pageChannel.ts';
import type { PageModel } from '../pageTypes.ts';

let lent: ActHost | null = null;

export function bindHost(host: ActHost): void {
  lent = host;
}

function host(): ActHost {
  if (!lent) throw new Error('The act module runs only after registering with the content script.');
  return lent;
}

export const readPageModel = (): PageModel => host().readPageModel();
export const draftState: ActHost['draftState'] = (model) => host().draftState(model);
export const rememberTetherWrite: ActHost['rememberTetherWrite'] = (element, text) => host().rememberTetherWrite(element, text);
export const personIsTyping: ActHost['personIsTyping'] = (element) => host().personIsTyping(element);
export const watchDocument: ActHost['watchDocument'] = (doc) => host().watchDocument(doc);
export const lastEditBy: ActHost['lastEditBy'] = (element) => host().lastEditBy(element);
export const elementId: ActHost['elementId'] = (element) => host().elementId(element);
export const seenElement: ActHost['seenElement'] = (element) => host().seenElement(element);

let nextCall = 0;

/**
 * Asks the worker something during the act now running (shared/page/pageChannel.ts PagePortCall), on
 * that act's port; resolves to the worker's reply, or to `{ ok: false, reason }` when there is no
 * act, the port closed, or the worker did not answer in time.
 */
export function callWorker(request: unknown, timeoutMs: number): Promise<unknown> {
  const port = host().actPort();
  if (!port) return Promise.resolve({ ok: false, reason: 'not-acting' });
  const call = (nextCall += 1);
  return new Promise((resolve) => {
    const done = (reply: unknown) => {
      clearTimeout(timer);
      port.onMessage.removeListener(listener);
      port.onDisconnect.removeListener(gone);
      resolve(reply);
    };
    const listener = (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { call?: unknown }).call === call && 'reply' in message)
        done((message as { reply: unknown }).reply);
    };
    const gone = () => done({ ok: false, reason: 'failed', message: 'The worker went away.' });
    const timer = setTimeout(() => done({ ok: false, reason: 'timeout', message: 'The worker did not answer in time.' }), timeoutMs);
    port.onMessage.addListener(listener);
    port.onDisconnect.addListener(gone);
    try {
      port.postMessage({ call, request } satisfies PagePortCall);
    } catch {
      done({ ok: false, reason: 'failed', message: 'The worker went away.' });
    }
  });
}
export function asTether<T>(edit: () => T): T {
  return host().asTether(edit);
}
