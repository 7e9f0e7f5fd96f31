/**
 * The worker's side of a Trix call (shared/page/trixCall.ts): refused unless the call is well formed
 * and the bound document is still the tab's top document (Trix in a frame is not called); run
 * there once, in the MAIN world (trixMain.ts), with a time limit; its answer checked against the
 * schema. Any host: Trix is a library sites embed, and the call only reads or describes what that
 * page's own editor holds; the act module re-checks every answer against the page.
 */
import { isCommitKey } from '../../shared/page/documentKey.ts';
import { trixAnswerSchema, trixCallSchema, type TrixAnswer, type TrixCall } from '../../shared/page/trixCall.ts';
import type { MainWorldDeps } from './mainWorld.ts';
import { trixMain } from './trixMain.ts';

export interface TrixWorldDeps {
  topDocument: MainWorldDeps['topDocument'];
  run(tabId: number, documentId: string, call: TrixCall, origin: string): Promise<unknown>;
  timeoutMs: number;
}

export const isTrixCall = (request: unknown): boolean => typeof request === 'object' && request !== null && (request as { kind?: unknown }).kind === 'trix';

export async function callTrix(deps: TrixWorldDeps, target: { tabId: number; documentId: string }, request: unknown): Promise<TrixAnswer> {
  const call = trixCallSchema.safeParse(request);
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
    const answer = trixAnswerSchema.safeParse(result);
    return answer.success ? answer.data : { ok: false, reason: 'invalid', message: 'The page answered in an unexpected shape.' };
  } catch (error) {
    return { ok: false, reason: 'failed', message: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

export function browserTrixWorld(
  topDocument: MainWorldDeps['topDocument'],
  scripting: {
    executeScript(injection: {
      target: { tabId: number; documentIds?: string[]; frameIds?: number[] };
      world: 'MAIN';
      func: typeof trixMain;
      args: [TrixCall, string];
    }): Promise<Array<{ result?: unknown }>>;
  },
): TrixWorldDeps {
  return {
    topDocument,
    async run(tabId, documentId, call, origin) {
      const target = isCommitKey(documentId) ? { tabId, frameIds: [0] } : { tabId, documentIds: [documentId] };
      const [injection] = await scripting.executeScript({ target, world: 'MAIN', func: trixMain, args: [call, origin] });
      return injection?.result;
    },
    timeoutMs: 10_000,
  };
}
