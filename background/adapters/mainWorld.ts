/**
 * The worker's side of the only main-world code Tether runs (shared/page/smartEditorCall.ts): a page's
 * call during an act, for its own document, run there once with `scripting.executeScript` in the
 * MAIN world (smartEditorMain.ts). Refused unless the call is well formed, the bound document is
 * still the tab's top document, and its address is on a host the Naver adapters claim (https; the
 * test build also takes http, which its fixtures are served over). An object named SmartEditor on
 * any other site is never called.
 */
import { isCommitKey } from '../../shared/page/documentKey.ts';
import { smartEditorAnswerSchema, smartEditorCallSchema, type SmartEditorAnswer, type SmartEditorCall } from '../../shared/page/smartEditorCall.ts';
import { NAVER_BLOG, NAVER_CAFE } from '../../content/sites/adapters/claims.ts';
import { smartEditorMain } from './smartEditorMain.ts';
import { UPLOAD_WAIT_MS } from '../../shared/imageBytes.ts';

/** Set by the build (vite.config.ts): true only in the test build, never in the product. */
declare const __TETHER_TEST_SITES__: boolean;

/** Where SmartEditor ONE's model may be called: the Naver adapters' hosts, nothing else. */
export const SMART_EDITOR_HOSTS: readonly string[] = [...NAVER_BLOG.hosts, ...NAVER_CAFE.hosts];

export function mayCallSmartEditor(url: string, allowHttp: boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const scheme = parsed.protocol === 'https:' || (allowHttp && parsed.protocol === 'http:');
  return scheme && SMART_EDITOR_HOSTS.includes(parsed.hostname);
}

export interface MainWorldDeps {
  /** The tab's top document now: its documentId (or the commit key the worker minted) and its address. */
  topDocument(tabId: number): Promise<{ documentId: string; url: string } | null>;
  /** Runs the function in that document's main world, if it is still of `origin`; resolves to what it returned. */
  run(tabId: number, documentId: string, call: SmartEditorCall, origin: string): Promise<unknown>;
  allowHttp: boolean;
  timeoutMs: number;
}

const refuse = (reason: 'host' | 'invalid' | 'timeout' | 'failed', message: string): SmartEditorAnswer => ({ ok: false, reason, message });

export async function callSmartEditor(deps: MainWorldDeps, target: { tabId: number; documentId: string }, request: unknown): Promise<SmartEditorAnswer> {
  const call = smartEditorCallSchema.safeParse(request);
  if (!call.success) return refuse('invalid', 'Not a call Tether makes.');
  const top = await deps.topDocument(target.tabId);
  if (!top || top.documentId !== target.documentId) return refuse('host', 'The bound document is no longer the tab’s page.');
  if (!mayCallSmartEditor(top.url, deps.allowHttp)) return refuse('host', 'SmartEditor ONE’s model is called only on Naver Blog and Naver Cafe.');
  let timer: ReturnType<typeof setTimeout> | undefined;
  // An upload waits for the site as long as every family's upload may (UPLOAD_WAIT_MS).
  const limitMs = call.data.op === 'upload' ? Math.max(deps.timeoutMs, UPLOAD_WAIT_MS) : deps.timeoutMs;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limitMs);
  });
  try {
    const result = await Promise.race([deps.run(target.tabId, target.documentId, call.data, new URL(top.url).origin), timeout]);
    if (result === 'timeout') return refuse('timeout', `The editor did not answer within ${Math.round(limitMs / 1000)} s.`);
    const answer = smartEditorAnswerSchema.safeParse(result);
    return answer.success ? answer.data : refuse('invalid', 'The page answered in an unexpected shape.');
  } catch (error) {
    return refuse('failed', (error instanceof Error ? error.message : String(error)).slice(0, 300));
  } finally {
    clearTimeout(timer);
  }
}

/** The browser's side: webNavigation for the top document, scripting in the MAIN world for the call. */
export function browserMainWorld(
  webNavigation: { getFrame(details: { tabId: number; frameId: number }): Promise<{ url: string; documentId?: string } | null | undefined> },
  scripting: {
    executeScript(injection: {
      target: { tabId: number; documentIds?: string[]; frameIds?: number[] };
      world: 'MAIN';
      func: typeof smartEditorMain;
      args: [SmartEditorCall, string];
    }): Promise<Array<{ result?: unknown }>>;
  },
  topCommitKey: (tabId: number) => Promise<string | null>,
): MainWorldDeps {
  return {
    async topDocument(tabId) {
      const frame = await webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
      if (!frame) return null;
      const documentId = frame.documentId ?? (await topCommitKey(tabId));
      return documentId ? { documentId, url: frame.url } : null;
    },
    async run(tabId, documentId, call, origin) {
      const target = isCommitKey(documentId) ? { tabId, frameIds: [0] } : { tabId, documentIds: [documentId] };
      const [injection] = await scripting.executeScript({ target, world: 'MAIN', func: smartEditorMain, args: [call, origin] });
      return injection?.result;
    },
    allowHttp: __TETHER_TEST_SITES__,
    timeoutMs: 15_000,
  };
}
