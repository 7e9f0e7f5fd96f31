/**
 * The content script's message registration: one port listener for the page channel. Only
 * Tether's own service worker can reach it (other extensions and pages cannot connect here, and
 * the sender is checked anyway); every request is checked before it is believed.
 *
 * This file is in every page, so the light requests are checked by hand here; an act is checked
 * in full (zod, the plan) by the act module, which the worker injects when the first act comes.
 */
import { checkAccountNow } from '../shared/model/checkAccount.ts';
import { tetherError, type TetherError } from '../shared/errors.ts';
import { originOf, urlWithoutFragment } from '../shared/model/targetModel.ts';
import {
  ACT_MODULE_FILE,
  PAGE_CHANNEL,
  PAGE_PORT,
  type PagePortReply,
  READ_FORMATS,
  READER_MODULE_FILE,
  SITES_MODULE_FILE,
  type PageExpectation,
  type PageReply,
  type ReadFormat,
} from '../shared/page/pageChannel.ts';
import { SITE_CLAIMS } from './sites/adapters/claims.ts';
import { actSlot, readerSlot, sitesSlot } from './moduleSlot.ts';
import { adapterMatches } from './siteAdapter.ts';
import type { PageAnswerReply } from '../shared/page/pageProtocol.ts';
import { inspectPage, needsReader, observePage } from './inspectPage.ts';
import { pageInstance } from './pageInstance.ts';
import { readPageModel, type PageModel } from './pageModel.ts';

type LightRequest =
  | { type: 'observe' }
  | { type: 'inspect'; expect: PageExpectation; read: string[]; readAs: ReadFormat; from: Record<string, number> }
  | { type: 'act' | 'stageImage' | 'image'; expect: PageExpectation }
  | { type: 'actStatus'; requestId: string };

function refuse(error: TetherError): PageReply<never> {
  return { ok: false, error };
}

const NEEDS_ACT_MODULE: PageReply<never> = {
  ok: false,
  error: { code: 'invalid_request', message: 'This request needs Tether’s act module in the page.' },
  load: ACT_MODULE_FILE,
};

const NEEDS_READER_MODULE: PageReply<never> = {
  ok: false,
  error: { code: 'invalid_request', message: 'This request needs Tether’s reader module in the page.' },
  load: READER_MODULE_FILE,
};

const NEEDS_SITES_MODULE: PageReply<never> = {
  ok: false,
  error: { code: 'invalid_request', message: 'This page needs Tether’s site adapters.' },
  load: SITES_MODULE_FILE,
};

const isString = (value: unknown, max = 8192): value is string => typeof value === 'string' && value.length <= max;

function parseExpectation(value: unknown): PageExpectation | null {
  if (typeof value !== 'object' || value === null) return null;
  const { pageInstance: instance, url, account, role } = value as Record<string, unknown>;
  if (!(instance === null || isString(instance, 100)) || !isString(url) || !(account === null || isString(account, 300))) return null;
  if (role !== 'write' && role !== 'reference') return null;
  return { pageInstance: instance, url, account, role };
}

/** The parts of a request this script acts on; the act module checks the rest of an act. */
function parseRequest(message: Record<string, unknown>): LightRequest | null {
  switch (message.type) {
    case 'observe':
      return { type: 'observe' };
    case 'actStatus':
      return isString(message.requestId, 200) ? { type: 'actStatus', requestId: message.requestId } : null;
    case 'inspect':
    case 'stageImage':
    case 'image':
    case 'act': {
      const expect = parseExpectation(message.expect);
      if (!expect) return null;
      if (message.type !== 'inspect') return { type: message.type, expect };
      const read = message.read;
      const readAs = message.readAs ?? 'text';
      if (!Array.isArray(read) || read.length > 20 || !read.every((name) => isString(name, 100))) return null;
      if (!READ_FORMATS.includes(readAs as ReadFormat)) return null;
      const from = message.from ?? {};
      if (typeof from !== 'object' || from === null || Array.isArray(from)) return null;
      const places = Object.entries(from);
      if (places.length > 20 || !places.every(([name, at]) => isString(name, 100) && Number.isSafeInteger(at) && (at as number) >= 0)) return null;
      return { type: 'inspect', expect, read: read as string[], readAs: readAs as ReadFormat, from: from as Record<string, number> };
    }
    default:
      return null;
  }
}

/**
 * The last-moment check inside the page: the same page instance and address, the same account.
 * `pageModel` reads the page (only a write target's account check needs it).
 */
function checkExpectation(expect: PageExpectation, pageModel: () => PageModel = readPageModel): TetherError | null {
  const changed: string[] = [];
  if (expect.pageInstance !== null && expect.pageInstance !== pageInstance()) changed.push('document');
  if (originOf(location.href) !== originOf(expect.url)) changed.push('origin');
  else if (urlWithoutFragment(location.href) !== urlWithoutFragment(expect.url)) changed.push('url');
  if (changed.length > 0) {
    return tetherError('context_changed', 'The page changed since the handle was made (navigation, history change or back/forward). Resolve again.', {
      changed,
      now: { url: location.href },
    });
  }
  if (expect.role === 'write') {
    const account = checkAccountNow({ origin: location.origin, account: expect.account }, pageModel().signIn);
    if (!account.ok) return account.error;
  }
  return null;
}

async function handle(message: Record<string, unknown>): Promise<PageAnswerReply> {
  const request = parseRequest(message);
  if (!request) return refuse(tetherError('invalid_request', 'Malformed page request.'));
  // A page a site adapter claims is read by that adapter: never answer before it is here.
  if (request.type !== 'actStatus' && needsSitesModule()) return NEEDS_SITES_MODULE;
  switch (request.type) {
    case 'observe':
      // An observation (sign-in, drafts, which element each field is) needs no actions.
      return { ok: true, value: observePage(readPageModel(document, false)) };
    case 'inspect': {
      // One reading of the page serves the account check and the answer: both run in this one
      // synchronous turn, so the page cannot change between them, and reading it is most of an
      // inspect's work in the page.
      let model: PageModel | undefined;
      // A reference's answer has no actions (nothing can be done through it): they are not read.
      const pageModel = () => (model ??= readPageModel(document, request.expect.role === 'write'));
      const problem = checkExpectation(request.expect, pageModel);
      if (problem) return refuse(problem);
      if (needsReader(request.read)) return NEEDS_READER_MODULE;
      if (request.readAs === 'markdown' && request.read.length > 0) {
        const module = actSlot.module();
        if (!module) return NEEDS_ACT_MODULE;
        return { ok: true, value: inspectPage(request.read, module.markdown, pageModel(), request.from) };
      }
      return { ok: true, value: inspectPage(request.read, null, pageModel(), request.from) };
    }
    case 'image': {
      const problem = checkExpectation(request.expect);
      if (problem) return refuse(problem);
      return readerSlot.module()?.image(message.name) ?? NEEDS_READER_MODULE;
    }
    case 'stageImage':
    case 'act': {
      const problem = checkExpectation(request.expect);
      if (problem) return refuse(problem);
      if (request.expect.role !== 'write') {
        return refuse(tetherError('read_only_target', 'This handle is a reference: it may be read, never written. Resolve a write target.'));
      }
      const module = actSlot.module();
      return module ? module[request.type](message) : NEEDS_ACT_MODULE;
    }
    case 'actStatus': {
      // No act module in this page instance means no plan ever ran here.
      const module = actSlot.module();
      return { ok: true, value: module ? module.actStatus(request.requestId) : { state: 'unknown' } };
    }
  }
}

/** `{ id, request }` from the worker, with a request on Tether's page channel; null for anything else. */
function portRequest(message: unknown): { id: number; request: Record<string, unknown> } | null {
  if (typeof message !== 'object' || message === null) return null;
  const { id, request } = message as { id?: unknown; request?: unknown };
  if (!Number.isSafeInteger(id) || typeof request !== 'object' || request === null) return null;
  if ((request as { channel?: unknown }).channel !== PAGE_CHANNEL) return null;
  return { id: id as number, request: request as Record<string, unknown> };
}

/**
 * The port the act now running came on: the act module's calls to the worker go back on it
 * (actHost.ts callWorker, which lives in the act module to keep this script small).
 */
let actPort: chrome.runtime.Port | null = null;

export const currentActPort = (): chrome.runtime.Port | null => actPort;

/**
 * The worker opens one port to this document (tabs.connect by documentId) and sends its requests
 * on it; each answer carries its request's id. Only Tether's own service worker can open it
 * (content scripts of other tabs cannot connect to a tab; other extensions and pages cannot reach
 * this isolated world), and the sender is checked anyway.
 *
 * `chrome.runtime` directly, not webextension-polyfill: a port's events and messages are the same
 * in Chromium and Firefox (which gives content scripts `chrome` too), nothing here needs a promise,
 * and the polyfill was a third of the script every page loads.
 */

/**
 * This page is on a site an adapter claims, and the adapters are not here yet. Every page carries
 * only the list of what the adapters claim (adapters/claims.ts); such a page asks the worker for
 * the module before it answers anything.
 */
function needsSitesModule(url: string = location.href): boolean {
  if (sitesSlot.module()) return false;
  const parsed = new URL(url);
  return SITE_CLAIMS.some((claim) => adapterMatches(claim, parsed));
}
export function registerPageChannel(): void {
  chrome.runtime.onConnect.addListener((port: chrome.runtime.Port) => {
    if (port.name !== PAGE_PORT) return;
    if (port.sender?.id !== chrome.runtime.id || port.sender.tab !== undefined) {
      port.disconnect();
      return;
    }
    port.onMessage.addListener((message: unknown) => {
      const asked = portRequest(message);
      if (!asked) return;
      const acting = asked.request.type === 'act';
      if (acting) actPort = port;
      void handle(asked.request)
        .finally(() => {
          if (acting && actPort === port) actPort = null;
        })
        .then(
          (reply): PagePortReply => ({ id: asked.id, reply }),
          // The worker learns the page failed (as a rejected sendMessage used to tell it), rather than waiting for its timeout.
          (error: unknown): PagePortReply => ({ id: asked.id, failed: (error instanceof Error ? error.message : String(error)).slice(0, 500) }),
        )
        .then((answer) => {
          try {
            port.postMessage(answer);
          } catch (error) {
            // Too large for the browser to carry (or the port closed while the page worked): say
            // so, rather than leave the worker waiting out its timeout.
            try {
              port.postMessage({
                id: asked.id,
                failed: `The page's answer could not be sent: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
              });
            } catch {
              // The worker went away: nobody to answer.
            }
          }
        });
    });
  });
}
