/**
 * The worker's side of a CodeMirror call (shared/page/codemirrorCall.ts), run in the MAIN world
 * (codemirrorMain.ts) under the rules of anyHostCall.ts: any http(s) host (CodeMirror is a library
 * sites embed), the bound top document only, once, with a time limit, its answer checked against
 * the schema.
 */
import { codemirrorAnswerSchema, codemirrorCallSchema, type CodemirrorAnswer, type CodemirrorCall } from '../../shared/page/codemirrorCall.ts';
import type { MainWorldDeps } from './mainWorld.ts';
import { codemirrorMain } from './codemirrorMain.ts';
import { browserAnyHost, callAnyHost, type AnyHostDeps } from './anyHostCall.ts';

export type CodemirrorWorldDeps = AnyHostDeps<CodemirrorCall>;

export function callCodemirror(deps: CodemirrorWorldDeps, target: { tabId: number; documentId: string }, request: unknown): Promise<CodemirrorAnswer> {
  return callAnyHost({ call: codemirrorCallSchema, answer: codemirrorAnswerSchema }, deps, target, request);
}

export function browserCodemirrorWorld(
  topDocument: MainWorldDeps['topDocument'],
  scripting: Parameters<typeof browserAnyHost<CodemirrorCall>>[1],
): CodemirrorWorldDeps {
  return browserAnyHost(topDocument, scripting, codemirrorMain, 10_000);
}
