/**
 * The worker's side of a main-world call into an editor library a site embeds (Trix's, trixWorld.ts;
 * CodeMirror's, codemirrorWorld.ts): refused unless the call is well formed and the bound document
 * is still the tab's top document (an editor in a frame is not called); run there once, in the MAIN
 * world, with a time limit; its answer checked against the schema. Any http(s) host: the library is
 * the site's, and the call only reads or selects in what that page's own editor holds; the act
 * module re-checks every answer against the page.
 */
import type { z } from 'zod';
import { isCommitKey } from '../../shared/page/documentKey.ts';
import type { MainWorldDeps } from './mainWorld.ts';

type Failure = { ok: false; reason: 'host' | 'invalid' | 'timeout' | 'failed'; message: string };

export interface AnyHostDeps<Call> {
  topDocument: MainWorldDeps['topDocument'];
  run(tabId: number, documentId: string, call: Call, origin: string): Promise<unknown>;
  timeoutMs: number;
}

export async function callAnyHost<Call, Answer>(
  schemas: { call: z.ZodType<Call>; answer: z.ZodType<Answer> },
  deps: AnyHostDeps<Call>,
  target: { tabId: number; documentId: string },
  request: unknown,
): Promise<Answer | Failure> {
  const call = schemas.call.safeParse(request);
  if (!call.success) return { ok: false, reason: 'invalid', message: 'Not a call Tether makes.' };
  const top = await deps.topDocument(target.tabId);
  if (!top || top.documentId !== target.documentId) return { ok: false, reason: 'host', message: 'The bound document is no longer the tab’s page.' };
  let origin: string;
  try {
    const parsed = new URL(top.url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: 'host', message: 'Not a web page.' };
    origin = parsed.origin;
  } catch {
    return { ok: false, reason: 'host', message: 'Not a web page.' };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deps.timeoutMs);
  });
  try {
    const result = await Promise.race([deps.run(target.tabId, target.documentId, call.data, origin), timeout]);
    if (result === 'timeout') return { ok: false, reason: 'timeout', message: 'The editor did not answer in time.' };
    const answer = schemas.answer.safeParse(result);
    return answer.success ? answer.data : { ok: false, reason: 'invalid', message: 'The page answered in an unexpected shape.' };
  } catch (error) {
    return { ok: false, reason: 'failed', message: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/** The browser's side: the function run once in the bound document's MAIN world (its top frame when the key is the worker's commit key). */
export function browserAnyHost<Call>(
  topDocument: MainWorldDeps['topDocument'],
  scripting: {
    executeScript(injection: {
      target: { tabId: number; documentIds?: string[]; frameIds?: number[] };
      world: 'MAIN';
      func: (call: Call, origin: string) => unknown;
      args: [Call, string];
    }): Promise<Array<{ result?: unknown }>>;
  },
  func: (call: Call, origin: string) => unknown,
  timeoutMs: number,
): AnyHostDeps<Call> {
  return {
    topDocument,
    async run(tabId, documentId, call, origin) {
      const target = isCommitKey(documentId) ? { tabId, frameIds: [0] } : { tabId, documentIds: [documentId] };
      const [injection] = await scripting.executeScript({ target, world: 'MAIN', func, args: [call, origin] });
      return injection?.result;
    },
    timeoutMs,
  };
}
