/**
 * The one request entry of the service worker: every agent request passes the five lifecycle
 * points and leaves a journal record.
 *
 *   prepare   — wait for state, parse the input (invalid_request), check context (missing_context)
 *   decide    — the tool resolves targets or validates its plan
 *   dispatch  — only a request that passed validation reaches a page; refusals change nothing
 *   observe   — the page's answer, bound to the request that caused it
 *   record    — the journal record is saved; then the caller is answered
 *
 * If saving the record fails, the answer still goes out with the observation, and `meta.journal`
 * says what the storage problem was: a failed save is not a failed action.
 */
import { failure, tetherError, type Outcome } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/journalRecord.ts';
import { isToolName, parseAgentRequest, toolLabel } from '../shared/parseAgentRequest.ts';
import type { ActArgs, AgentRequest, ContextArgs, Envelope, EnvelopeMeta, InspectArgs, ResolveArgs } from '../shared/protocol.ts';
import type { JournalSink } from './journal.ts';
import { RequestTrace } from './requestTrace.ts';

export interface ToolHandlers {
  context(args: ContextArgs, trace: RequestTrace): Promise<Outcome<unknown>>;
  resolve(args: ResolveArgs, trace: RequestTrace): Promise<Outcome<unknown>>;
  inspect(args: InspectArgs, trace: RequestTrace): Promise<Outcome<unknown>>;
  act(args: ActArgs, trace: RequestTrace): Promise<Outcome<unknown>>;
}

export interface HarnessDeps {
  ready(): Promise<void>;
  tools: ToolHandlers;
  journal: JournalSink;
  onRecorded?(record: JournalRecord): void;
  clock?: () => number;
}

export type RequestVia = JournalRecord['via'];

async function decide(tools: ToolHandlers, request: AgentRequest, trace: RequestTrace): Promise<Outcome<unknown>> {
  const checked = parseAgentRequest(request.tool, request.args);
  if (!checked.ok) return checked;
  const parsed = checked.value;
  if ('profile' in parsed.args && typeof parsed.args.profile === 'string') trace.profileId = parsed.args.profile;
  if ('workspace' in parsed.args && typeof parsed.args.workspace === 'string') trace.workspaceId = parsed.args.workspace;
  switch (parsed.tool) {
    case 'context':
      return tools.context(parsed.args, trace);
    case 'resolve':
      return tools.resolve(parsed.args, trace);
    case 'inspect':
      return tools.inspect(parsed.args, trace);
    case 'act':
      return tools.act(parsed.args, trace);
  }
}

export function createHarness(deps: HarnessDeps) {
  return async function handleAgentRequest(request: AgentRequest, via: RequestVia): Promise<Envelope> {
    const trace = new RequestTrace(toolLabel(request.tool), via, request.args, request.callId, deps.clock);
    trace.point('prepare');
    let outcome: Outcome<unknown>;
    try {
      await deps.ready();
      outcome = await decide(deps.tools, request, trace);
    } catch (error) {
      outcome = failure(
        tetherError('invalid_request', `Tether failed while handling this request: ${error instanceof Error ? error.message : String(error)}`, {
          internal: true,
        }),
      );
    }
    trace.point('record');
    const record = trace.toRecord(outcome);
    const meta: EnvelopeMeta = { tool: isToolName(request.tool) ? request.tool : 'unknown' };
    if (request.callId !== undefined) meta.callId = request.callId;
    if (trace.profileId !== null) meta.profile = trace.profileId;
    try {
      await deps.journal.save(record);
      meta.journal = { saved: true, id: record.id };
      deps.onRecorded?.(record);
    } catch (error) {
      meta.journal = { saved: false, problem: `storage: the journal record could not be saved (${error instanceof Error ? error.message : String(error)})` };
    }
    meta.tookMs = trace.elapsed();
    return outcome.ok ? { ok: true, result: outcome.value, meta } : { ok: false, error: outcome.error, meta };
  };
}
