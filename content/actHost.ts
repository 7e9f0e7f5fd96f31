/**
 * Inside the act module: the content script's stateful parts, lent at registration (actHook.ts).
 * The module must not bundle its own copies of personActivity, inspectPage or elementIds: their
 * state (the person's typing, Tether's own writes, element ids) lives once, in the content script.
 */
import type { ActHost } from './actHook.ts';
import type { PageModel } from './pageModel.ts';

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
export const callWorker: ActHost['callWorker'] = (request, timeoutMs) => host().callWorker(request, timeoutMs);
export function asTether<T>(edit: () => T): T {
  return host().asTether(edit);
}
