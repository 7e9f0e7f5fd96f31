/**
 * The typed client for the page channel. Messages go to one exact document, over a port opened
 * to it by documentId (pagePorts.ts): if the tab has navigated since, the new page cannot receive
 * them, and the answer is a refusal, never a write somewhere else.
 *
 * Where the browser has no documentIds (Firefox 140; the binding holds a key the worker minted,
 * see shared/page/documentKey.ts) they go to the bound tab's top frame: never another tab, and the page
 * there refuses unless it is the page instance the binding saw (content/pageChannelServer.ts).
 */
import browser, { type Tabs } from 'webextension-polyfill';
import { isCommitKey } from '../../shared/page/documentKey.ts';
import { failure, isErrorCode, success, tetherError, type Outcome, type TetherError } from '../../shared/errors.ts';
import { browserMainWorld, callMainWorld } from './mainWorld.ts';
import { browserTrixWorld, callTrix, isTrixCall } from './trixWorld.ts';
import { browserCodemirrorWorld, callCodemirror } from './codemirrorWorld.ts';
import { isCodemirrorCall } from '../../shared/page/codemirrorCall.ts';
import { PAGE_TIMEOUT, PagePorts, type PagePort } from './pagePorts.ts';
import { topCommitKey } from './topCommits.ts';
import {
  ACT_MODULE_FILE,
  PAGE_CHANNEL,
  pageAnswerSchemas,
  READER_MODULE_FILE,
  SITES_MODULE_FILE,
  type PageAnswers,
  type PageRequest,
} from '../../shared/page/pageProtocol.ts';

type WithoutChannel<T> = T extends unknown ? Omit<T, 'channel'> : never;
export type PageRequestBody = WithoutChannel<PageRequest>;

const DEFAULT_TIMEOUT_MS: Record<keyof PageAnswers, number> = {
  observe: 5_000,
  inspect: 10_000,
  act: 60_000,
  actStatus: 5_000,
  stageImage: 30_000,
  image: 5_000,
};

function isMissingReceiver(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Receiving end does not exist|Could not establish connection|No frame with id|message port closed/i.test(message);
}

/** Where a script goes: the bound document, or (no documentIds) the bound tab's top frame. */
function scriptTarget(tabId: number, documentId: string): { tabId: number; documentIds: string[] } | { tabId: number; frameIds: number[] } {
  return isCommitKey(documentId) ? { tabId, frameIds: [0] } : { tabId, documentIds: [documentId] };
}

/** Content scripts declared in the manifest do not run in tabs that were open before install. */
async function injectContentScript(tabId: number, documentId: string): Promise<boolean> {
  const files = browser.runtime.getManifest().content_scripts?.flatMap((script) => script.js ?? []) ?? [];
  if (files.length === 0) return false;
  try {
    await browser.scripting.executeScript({ target: scriptTarget(tabId, documentId), files });
    return true;
  } catch {
    return false;
  }
}

/**
 * The act module (plan checks, writes, editor drivers, markdown), the site adapters and the reader
 * module (Readability) are not in every page: each goes into the document's isolated world when the
 * content script there asks for it, and registers itself with the content script. Nothing of them
 * is web-accessible.
 */
const MODULE_FILES: readonly string[] = [ACT_MODULE_FILE, SITES_MODULE_FILE, READER_MODULE_FILE];

async function injectModule(tabId: number, documentId: string, file: string): Promise<boolean> {
  try {
    await browser.scripting.executeScript({ target: scriptTarget(tabId, documentId), files: [file] });
    return true;
  } catch {
    return false;
  }
}

/**
 * The page is there and still lacks a module after the worker injected it (the browser refused
 * the file, or it did not register): say so. Not `context_changed`, which would send the agent to
 * resolve again and again; nothing was done.
 */
function moduleMissing(file: string, tabId: number): TetherError {
  const what = file === ACT_MODULE_FILE ? 'act module' : file === READER_MODULE_FILE ? 'reader module' : 'site adapters';
  return tetherError(
    'invalid_request',
    `Tether's ${what} could not be loaded into this page, so nothing was done. Reload the page and resolve again; if it keeps happening, this build of Tether is damaged (reinstall it).`,
    { module: file, tabId },
  );
}

/** The module the page asks for before it can answer, if it asks for one. */
function moduleAskedFor(reply: unknown): string | null {
  const load = typeof reply === 'object' && reply !== null ? (reply as { load?: unknown }).load : undefined;
  return typeof load === 'string' && MODULE_FILES.includes(load) ? load : null;
}

/**
 * One port per document (pagePorts.ts). Chromium reports why a port closed through
 * `runtime.lastError`; Firefox on the port itself.
 */
const mainWorld = browserMainWorld(
  browser.webNavigation as unknown as Parameters<typeof browserMainWorld>[0],
  browser.scripting as unknown as Parameters<typeof browserMainWorld>[1],
  topCommitKey,
);
const trixWorld = browserTrixWorld(mainWorld.topDocument, browser.scripting as unknown as Parameters<typeof browserTrixWorld>[1]);
const codemirrorWorld = browserCodemirrorWorld(mainWorld.topDocument, browser.scripting as unknown as Parameters<typeof browserCodemirrorWorld>[1]);
const pagePorts = new PagePorts({
  connect: (tabId, target, name) => browser.tabs.connect(tabId, { ...target, name } as Tabs.ConnectConnectInfoType) as PagePort,
  lastError: () => (typeof chrome === 'undefined' ? undefined : chrome.runtime.lastError?.message),
  // During an act, and only then, the act module may ask for SmartEditor ONE's, the block editor's (mainWorld.ts), a Trix editor's (trixWorld.ts) or a CodeMirror view's (codemirrorWorld.ts) model in its own document.
  callsDuring: (request) => (request as { type?: unknown } | null)?.type === 'act',
  call: (target, request) =>
    isTrixCall(request)
      ? callTrix(trixWorld, target, request)
      : isCodemirrorCall(request)
        ? callCodemirror(codemirrorWorld, target, request)
        : callMainWorld(mainWorld, target, request),
});

export async function askPage<R extends PageRequestBody>(
  tabId: number,
  documentId: string,
  request: R,
  timeoutMs?: number,
): Promise<Outcome<PageAnswers[R['type']]>> {
  const type: R['type'] = request.type;
  const message = { ...request, channel: PAGE_CHANNEL } as PageRequest;
  const limit = timeoutMs ?? DEFAULT_TIMEOUT_MS[type];
  let reply: unknown;
  try {
    try {
      reply = await pagePorts.ask(tabId, documentId, message, limit);
    } catch (error) {
      if (!isMissingReceiver(error) || !(await injectContentScript(tabId, documentId))) throw error;
      reply = await pagePorts.ask(tabId, documentId, message, limit);
    }
    // A page may ask for the site adapters, then the reader module, then the act module (an act, a markdown read): each once.
    for (const tried = new Set<string>(); ;) {
      const file = moduleAskedFor(reply);
      if (file === null) break;
      if (tried.has(file)) return failure(moduleMissing(file, tabId));
      tried.add(file);
      // Asked again either way: a page that cannot be reached any more is context_changed (below).
      await injectModule(tabId, documentId, file);
      reply = await pagePorts.ask(tabId, documentId, message, limit);
    }
  } catch (error) {
    if (error instanceof Error && error.message === PAGE_TIMEOUT) {
      return failure(tetherError('timeout', `The page did not answer within ${Math.round(limit / 1000)} s.`, { tabId }));
    }
    // The bound document is gone (navigated, reloaded, closed) or cannot host Tether.
    return failure(
      tetherError('context_changed', 'The bound page can no longer be reached: it was navigated, reloaded or closed.', {
        changed: ['document'],
        tabId,
        cause: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  return parseReply(type, reply);
}

function parseReply<K extends keyof PageAnswers>(type: K, reply: unknown): Outcome<PageAnswers[K]> {
  if (typeof reply !== 'object' || reply === null || !('ok' in reply)) {
    return failure(tetherError('context_changed', 'The page answered with something Tether did not send for.', { changed: ['document'] }));
  }
  const wrapped = reply as { ok: unknown; value?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
  if (wrapped.ok !== true) {
    const code = isErrorCode(wrapped.error?.code) ? wrapped.error.code : 'invalid_request';
    const message = typeof wrapped.error?.message === 'string' ? wrapped.error.message.slice(0, 1000) : 'The page refused.';
    const details =
      typeof wrapped.error?.details === 'object' && wrapped.error.details !== null ? (wrapped.error.details as Record<string, unknown>) : undefined;
    return failure(tetherError(code, message, details));
  }
  const parsed = pageAnswerSchemas[type].safeParse(wrapped.value);
  if (!parsed.success) {
    return failure(tetherError('invalid_request', 'The page answered in an unexpected shape.', { issues: parsed.error.issues.slice(0, 5) }));
  }
  return success(parsed.data as PageAnswers[K]);
}
