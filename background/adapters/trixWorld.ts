/**
 * The worker's side of a Trix call (shared/page/trixCall.ts), run in the MAIN world (trixMain.ts)
 * under the rules of anyHostCall.ts: any http(s) host (Trix is a library sites embed), the bound
 * top document only, once, with a time limit, its answer checked against the schema.
 */
import { trixAnswerSchema, trixCallSchema, type TrixAnswer, type TrixCall } from '../../shared/page/trixCall.ts';
import type { MainWorldDeps } from './mainWorld.ts';
import { trixMain } from './trixMain.ts';
import { browserAnyHost, callAnyHost, type AnyHostDeps } from './anyHostCall.ts';

export type TrixWorldDeps = AnyHostDeps<TrixCall>;

export const isTrixCall = (request: unknown): boolean => typeof request === 'object' && request !== null && (request as { kind?: unknown }).kind === 'trix';

export function callTrix(deps: TrixWorldDeps, target: { tabId: number; documentId: string }, request: unknown): Promise<TrixAnswer> {
  return callAnyHost({ call: trixCallSchema, answer: trixAnswerSchema }, deps, target, request);
}

export function browserTrixWorld(topDocument: MainWorldDeps['topDocument'], scripting: Parameters<typeof browserAnyHost<TrixCall>>[1]): TrixWorldDeps {
  return browserAnyHost(topDocument, scripting, trixMain, 10_000);
}
