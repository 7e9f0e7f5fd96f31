/**
 * The one request entry of the service worker: every agent request passes the five lifecycle
 * points and leaves a journal record.
 *
 *   prepare   — wait for state, parse the input (invalid_request), check context (missing_context)
 *   decide    — the tool resolves targets or validates its plan
 *   dispatch  — only a request that passed validation reaches a page; refusals change nothing
 *               (an inspect, which only reads, asks the page while its binding is revalidated,
 *               and uses the answer only if the binding holds: there dispatch comes before decide)
 *   observe   — the page's answer, bound to the request that caused it
 *   record    — the journal record is saved; then the caller is answered
 *
 * The record is saved as soon as the outcome is known: a tool that still has bookkeeping to do
 * after it (an act's record for retries) says so with `trace.settle`, and both writes run side by
 * side. The answer still waits for the record.
 *
 * If saving the record fails, the answer still goes out with the observation, and `meta.journal`
 * says what the storage problem was: a failed save is not a failed action. Other diagnostics (times,
 * journal id, call id, profile) are in `meta` only when the request asked for them (`debug: true`).
 */
import { agentSessionOf, PAGE_AGENT, type AgentSession } from '../shared/agent/agentIdentity.ts';
import { failure, tetherError, type Outcome } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import { isToolName, parseAgentRequest, toolLabel, type ParsedRequest } from '../shared/agent/parseAgentRequest.ts';
import type { AgentRequest, AnyToolEnvelope, EnvelopeMeta, ToolName } from '../shared/agent/agentProtocol.ts';
import type { ToolResult } from '../shared/agent/results.ts';
import type { JournalSink } from './state/journal.ts';
import { renewSession } from './core/holdStore.ts';
import { shownAgent } from './core/agentLabels.ts';
import { RequestTrace } from './core/requestTrace.ts';
import type { ToolContext } from './toolContext.ts';
import type { ToolHandlers } from './tools/registry.ts';

export type { ToolHandlers } from './tools/registry.ts';

export interface HarnessDeps {
  ready(): Promise<void>;
  tools: ToolHandlers;
  /** What the tools may touch (stores, handles, tabs, the page channel, the clock): passed to each call. */
  context: ToolContext;
  journal: JournalSink;
  onRecorded?(record: JournalRecord): void;
  clock?: () => number;
}

export type RequestVia = JournalRecord['via'];

async function decide(tools: ToolHandlers, context: ToolContext, request: AgentRequest, trace: RequestTrace): Promise<Outcome<ToolResult>> {
  const checked = parseAgentRequest(request.tool, request.args);
  if (!checked.ok) return checked;
  const parsed = checked.value;
  trace.debug = parsed.args.debug === true;
  if ('profile' in parsed.args && typeof parsed.args.profile === 'string') trace.profileId = parsed.args.profile;
  if ('workspace' in parsed.args && typeof parsed.args.workspace === 'string') trace.workspaceId = parsed.args.workspace;
  return dispatch(tools, parsed, trace, context);
}

/** The parsed request to its tool's handler (one generic call: each name meets its own arguments). */
function dispatch<K extends ToolName>(tools: ToolHandlers, request: ParsedRequest<K>, trace: RequestTrace, context: ToolContext): Promise<Outcome<ToolResult>> {
  return tools[request.tool](request.args, trace, context);
}

type Saved = { saved: true; id: string } | { saved: false; problem: string };

export function createHarness(deps: HarnessDeps) {
  const save = async (trace: RequestTrace, outcome: Outcome<unknown>): Promise<Saved> => {
    trace.point('record');
    const record = trace.toRecord(outcome);
    try {
      await deps.journal.save(record);
      // Telling open pages (a runtime message) holds the worker for a while: after the answer has gone.
      if (deps.onRecorded) setTimeout(() => deps.onRecorded?.(record), 0);
      return { saved: true, id: record.id };
    } catch (error) {
      return { saved: false, problem: `storage: the journal record could not be saved (${error instanceof Error ? error.message : String(error)})` };
    }
  };

  /**
   * `as`: who a request from Tether's own pages speaks for (the person's tools, the tests); an
   * agent's request is the MCP session its envelope names.
   */
  return async function handleAgentRequest(request: AgentRequest, via: RequestVia, as?: AgentSession): Promise<AnyToolEnvelope> {
    const trace = new RequestTrace(toolLabel(request.tool), via, request.args, request.callId, deps.clock);
    let agent = via === 'agent' ? agentSessionOf(request.agent) : (as ?? PAGE_AGENT);
    trace.agent = agent;
    trace.point('prepare');
    let saving: Promise<Saved> | null = null;
    trace.onSettle = (outcome) => {
      saving ??= save(trace, outcome);
    };
    let outcome: Outcome<ToolResult>;
    try {
      await deps.ready();
      // Shown with an id no other session key shows (a client can draw keys until one matches).
      if (via === 'agent' && request.agent) {
        agent = await shownAgent(deps.context, agent);
        trace.agent = agent;
      }
      // Every request of a session keeps what it holds in use (the lease: see core/tabHolds.ts).
      await renewSession(deps.context, agent.session);
      outcome = await decide(deps.tools, deps.context, request, trace);
    } catch (error) {
      outcome = failure(
        tetherError('invalid_request', `Tether failed while handling this request: ${error instanceof Error ? error.message : String(error)}`, {
          internal: true,
        }),
      );
    }
    // A tool that settled early had its record saving while it finished its own writes.
    const journal = await (saving ?? save(trace, outcome));
    let meta: EnvelopeMeta | undefined;
    if (trace.debug) {
      meta = { tool: isToolName(request.tool) ? request.tool : 'unknown', journal, tookMs: trace.elapsed() };
      if (request.callId !== undefined) meta.callId = request.callId;
      if (trace.profileId !== null) meta.profile = trace.profileId;
    } else if (!journal.saved) {
      meta = { journal };
    }
    const envelope: AnyToolEnvelope = outcome.ok ? { ok: true, result: outcome.value } : { ok: false, error: outcome.error };
    if (meta) envelope.meta = meta;
    return envelope;
  };
}
