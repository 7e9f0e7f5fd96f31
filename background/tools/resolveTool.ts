/**
 * `resolve`: a destination and references in a scope → target handles with roles, and one line
 * a person can read (R10). Metadata first (the pure resolver), then only the chosen tabs are
 * observed for sign-in, account and drafts (R1, R6, R7).
 */
import { agentWords, labelOf } from '../../shared/agent/agentIdentity.ts';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { explainResolution, inLang, type ExplainedTarget } from '../../shared/model/explain.ts';
import { newId } from '../../shared/ids.ts';
import type { JournalTarget } from '../../shared/model/journalRecord.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import type { TabMeta, TargetBinding, TargetSpec } from '../../shared/model/targetModel.ts';
import { resolveArgsSchema, type ResolveArgs } from '../../shared/agent/agentProtocol.ts';
import type { QuestionCandidate } from '../../shared/model/question.ts';
import type { ResolvedReference, ResolvedWrite, ResolveResult } from '../../shared/agent/results.ts';
import { checkObservedTarget } from '../core/checkObservedTarget.ts';
import { checkHandle } from '../core/checkHandle.ts';
import { claimTab, holdInput } from '../core/holdStore.ts';
import { findProgram, programsOf, startProgram } from '../core/programs.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { resolveTargets, type ResolveRequest, type ResolvedTarget, type Resolution } from '../core/resolveTargets.ts';
import { busyError, otherHolder } from '../core/tabHolds.ts';
import { checkScope } from '../core/scope.ts';
import type { ToolContext } from '../toolContext.ts';
import { defineTool } from './defineTool.ts';

function namedHandles(args: ResolveArgs): string[] {
  const specs: TargetSpec[] = [...(args.destination ? [args.destination] : []), ...(args.references ?? [])];
  return specs.flatMap((spec) => (spec.handle !== undefined ? [spec.handle] : []));
}

export const resolveTool = defineTool({
  name: 'resolve',
  args: resolveArgsSchema,
  description: 'Pick the tab to write and tabs only read: handles and a line for the person. Never guesses; ask: the person picks.',
  needs: { context: ['profile', 'workspace'] },
  handler: resolve,
});

async function resolve(args: ResolveArgs, trace: RequestTrace, context: ToolContext): Promise<Outcome<ResolveResult>> {
  let now = context.clock();
  const scopeNow = () => checkScope(context.local.getState(), args.profile ?? '', args.workspace ?? '');
  const scope = scopeNow();
  if (!scope.ok) return scope;
  let { profile, workspace } = scope.value;
  const programNow = () => (args.program !== undefined ? findProgram(context.local.getState(), workspace.id, args.program) : null);
  let program = programNow();
  const handleBindings: Record<string, TargetBinding> = {};
  for (const token of namedHandles(args)) {
    const record = checkHandle(await context.handles.get(token), token, { profileId: profile.id, workspaceId: workspace.id }, now);
    if (!record.ok) return record;
    handleBindings[token] = record.value.binding;
  }

  const request: ResolveRequest = { destination: args.destination, references: args.references ?? [], readOnly: args.readOnly === true };
  const decide = async () => {
    const [tabs, requestTimeTabId] = await Promise.all([context.tabs.readTabsMeta(workspace.tabIds), context.tabs.readRequestTimeTab(workspace.tabIds)]);
    const resolution = resolveTargets({
      profileId: profile.id,
      workspace,
      tabs,
      request,
      requestTimeTabId,
      program,
      programs: programsOf(context.local.getState(), workspace.id),
      // An act a stopped worker left behind is the page's to guard: it runs one plan at a time.
      busyTabIds: context.reservations.reserved(),
      handleBindings,
    });
    return { tabs, requestTimeTabId, resolution };
  };
  let { tabs, requestTimeTabId, resolution: resolved } = await decide();
  // Tether cannot decide (several tabs match), and the agent said to ask: the person picks, in the panel.
  const askSeconds = args.ask === true ? DEFAULT_ASK_SECONDS : typeof args.ask === 'number' ? args.ask : null;
  const asked: Array<{ named: string; answer: string; tabId?: number }> = [];
  while (!resolved.ok && resolved.error.code === 'ambiguous_target' && askSeconds !== null && asked.length <= request.references.length) {
    const settled = await askThePerson(context, trace, resolved.error.details, tabs, workspace.id, askSeconds);
    asked.push({ named: settled.named, answer: settled.answer.kind, ...(settled.answer.kind === 'picked' ? { tabId: settled.answer.tabId } : {}) });
    if (settled.answer.kind === 'declined') {
      trace.decision = { asked };
      return failure(
        tetherError('approval_denied', `The person declined to choose which tab “${settled.named}” means. Name one by tabId, url or title, or ask them.`, {
          role: settled.role,
          named: settled.named,
        }),
      );
    }
    if (settled.answer.kind === 'timeout') {
      trace.decision = { asked };
      const error = resolved.error;
      return failure({
        ...error,
        message: `${error.message} The person did not choose within ${askSeconds} s.`,
        details: { ...error.details, asked: 'no answer' },
      });
    }
    // The person's pick names that one tab; the request is resolved again against the workspace and
    // its tabs as they are now (the person may have changed them while the question waited).
    const again = scopeNow();
    if (!again.ok) return again;
    ({ profile, workspace } = again.value);
    program = programNow();
    now = context.clock();
    const picked: TargetSpec = { tabId: settled.answer.tabId };
    if (settled.reference === null) request.destination = picked;
    else request.references = request.references.map((spec, index) => (index === settled.reference ? picked : spec));
    ({ tabs, requestTimeTabId, resolution: resolved } = await decide());
  }
  trace.point('decide');
  trace.decision = {
    requestTimeTabId,
    program: program?.id ?? null,
    resolved: resolved.ok ? summarize(resolved.value) : resolved.error.code,
    ...(asked.length > 0 ? { asked } : {}),
  };
  if (!resolved.ok) return resolved;
  // Another agent's task holds the write target: refused before its page is even looked at.
  const agent = trace.caller();
  const heldBy = resolved.value.write ? otherHolder(holdInput(context), resolved.value.write.tab.tabId, agent.session) : null;
  if (heldBy && resolved.value.write) return failure(busyError(heldBy, resolved.value.write.tab.tabId));
  const { write, references } = resolved.value;

  // Only the chosen tabs are observed, never every tab's page (R1).
  trace.point('dispatch');
  const writeObservation = write ? await context.observeTab(write.tab) : null;
  const referenceObservations = await Promise.all(references.map((reference) => context.observeTab(reference.tab)));
  trace.point('observe');
  if (write && writeObservation) {
    if (!writeObservation.ok) return writeObservation;
    const checked = checkObservedTarget({
      origin: write.origin,
      observation: writeObservation.value,
      policy: workspace.sites[write.origin],
      // Continuing a program continues its draft — on the program's own target only.
      continueDraft: args.continueDraft === true || (program !== null && write.rule === 'program_target'),
    });
    if (!checked.ok) return checked;
  }

  const bind = (target: ResolvedTarget, account: string | null, pageInstance: string | null): TargetBinding => ({
    profileId: profile.id,
    workspaceId: workspace.id,
    tabId: target.tab.tabId,
    documentId: target.tab.documentId ?? '',
    origin: target.origin,
    url: target.tab.url,
    title: target.tab.title,
    role: target.role,
    account,
    pageInstance,
  });

  const requestId = newId('rq', 9);
  let writeResult: ResolvedWrite | null = null;
  let programResult: ResolveResult['program'] | null = null;
  let writeExplained: ExplainedTarget | null = null;
  const journalTargets: JournalTarget[] = [];
  if (write && writeObservation?.ok) {
    const seen = writeObservation.value;
    const binding = bind(write, seen.signIn.state === 'signed_in' ? seen.signIn.account : null, seen.pageInstance);
    if (binding.documentId === '')
      return failure({ code: 'context_changed', message: 'The write target has no loaded page.', details: { changed: ['document'] } });
    // The write target becomes this agent's task's (or stays it): decided now, against every other request.
    const claimed = await claimTab(context, {
      tabId: write.tab.tabId,
      workspaceId: workspace.id,
      agent,
      ...(args.program !== undefined ? { task: args.program } : {}),
    });
    if (!claimed.ok) return failure(busyError(claimed.heldBy, write.tab.tabId));
    // Field names mean the elements the page showed now, until an inspect through the handle rebinds them.
    const handle = await context.handles.mint(binding, requestId, now, seen.fieldElements, claimed.hold.id);
    writeResult = { handle, tabId: write.tab.tabId, rule: write.rule };
    if (binding.account !== null) writeResult.account = binding.account;
    writeExplained = { title: write.tab.title, site: siteLabel(write.tab.url), account: binding.account, rule: write.rule, namedAs: write.namedAs };
    journalTargets.push({ tabId: write.tab.tabId, site: siteLabel(write.tab.url), title: write.tab.title, account: binding.account, role: 'write' });
    if (program && write.rule === 'program_target') {
      writeExplained.programLabel = program.label;
      programResult = { id: program.id, label: program.label, continued: true };
    } else if (program) {
      // This request named another destination (R2): the program keeps its own target.
      programResult = { id: program.id, label: program.label, continued: false };
    } else if (args.program !== undefined) {
      const started = await startProgram(context.local, args.program, binding, 'running', now);
      programResult = { id: started.id, label: started.label, continued: false };
    }
  }

  const referenceResults: ResolvedReference[] = [];
  for (const [index, reference] of references.entries()) {
    const seen = referenceObservations[index];
    const pageInstance = seen?.ok ? seen.value.pageInstance : null;
    const handle = await context.handles.mint(bind(reference, null, pageInstance), requestId, now, seen?.ok ? seen.value.fieldElements : {});
    referenceResults.push({ handle, tabId: reference.tab.tabId });
    journalTargets.push({ tabId: reference.tab.tabId, site: siteLabel(reference.tab.url), title: reference.tab.title, account: null, role: 'reference' });
  }

  const explanation = explainResolution(
    writeExplained,
    references.map((reference) => ({
      title: reference.tab.title,
      site: siteLabel(reference.tab.url),
      account: null,
      rule: reference.rule,
      namedAs: reference.namedAs,
    })),
  );
  trace.explanation = explanation;
  trace.targets = journalTargets;
  trace.requestId = requestId;
  return success({
    ...(writeResult ? { write: writeResult } : {}),
    ...(referenceResults.length > 0 ? { references: referenceResults } : {}),
    explanation: inLang(explanation, args.lang),
    ...(programResult ? { program: programResult } : {}),
  });
}

/** A page's path and query, as short as a person reads it. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    const path = `${parsed.pathname}${parsed.search}`;
    return path.length > 80 ? `${path.slice(0, 79)}…` : path;
  } catch {
    return '';
  }
}

/** How long the person has to choose when a resolve says `ask: true`. */
export const DEFAULT_ASK_SECONDS = 120;

/**
 * One ambiguous spec put to the person: the candidates in words (site, title, the account the page
 * showed), and the agent that asks. Waits for the pick, the decline or the time limit.
 */
async function askThePerson(
  context: ToolContext,
  trace: RequestTrace,
  details: Record<string, unknown> | undefined,
  tabs: TabMeta[],
  workspaceId: string,
  seconds: number,
) {
  const named = typeof details?.named === 'string' ? details.named : '';
  const role = details?.role === 'reference' ? 'reference' : 'write';
  const reference = typeof details?.reference === 'number' ? details.reference : null;
  const ids = Array.isArray(details?.candidates)
    ? details.candidates.flatMap((item: unknown) =>
        typeof item === 'object' && item !== null && 'tabId' in item && typeof item.tabId === 'number' ? [item.tabId] : [],
      )
    : [];
  const seen = context.session.getState().seen;
  const holds = holdInput(context);
  const candidates = tabs
    .filter((tab) => ids.includes(tab.tabId))
    .map((tab): QuestionCandidate => {
      const shown = seen[String(tab.tabId)];
      const heldBy = role === 'write' ? otherHolder(holds, tab.tabId, trace.caller().session) : null;
      return {
        tabId: tab.tabId,
        site: siteLabel(tab.url),
        title: tab.title,
        account: shown && shown.documentId === tab.documentId ? shown.account : null,
        path: pathOf(tab.url),
        ...(heldBy ? { heldBy: agentWords(heldBy.agent) } : {}),
      };
    });
  const answer = await context.questions.ask({ agent: labelOf(trace.caller()), workspaceId, role, named, candidates }, seconds * 1000);
  return { named, role, reference, answer };
}

function summarize(resolution: Resolution) {
  return {
    write: resolution.write ? { tabId: resolution.write.tab.tabId, rule: resolution.write.rule } : null,
    references: resolution.references.map((reference) => reference.tab.tabId),
  };
}
