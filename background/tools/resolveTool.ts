/**
 * `resolve`: a destination and references in a scope → target handles with roles, and one line
 * a person can read (R10). Metadata first (the pure resolver), then only the chosen tabs are
 * observed for sign-in, account and drafts (R1, R6, R7).
 */
import { failure, success, type Outcome } from '../../shared/errors.ts';
import { explainResolution, inLang, type ExplainedTarget } from '../../shared/explain.ts';
import { newId } from '../../shared/ids.ts';
import type { JournalTarget } from '../../shared/journalRecord.ts';
import { siteLabel } from '../../shared/matchSite.ts';
import type { TargetBinding, TargetSpec } from '../../shared/model.ts';
import type { ResolveArgs } from '../../shared/protocol.ts';
import type { ResolvedReference, ResolvedWrite, ResolveResult } from '../../shared/results.ts';
import { checkObservedTarget } from '../core/checkObservedTarget.ts';
import { checkHandle } from '../core/checkHandle.ts';
import { findProgram, programsOf, startProgram } from '../core/programs.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { resolveTargets, type ResolvedTarget } from '../core/resolveTargets.ts';
import { checkScope } from '../core/scope.ts';
import type { ToolContext } from '../toolContext.ts';

function namedHandles(args: ResolveArgs): string[] {
  const specs: TargetSpec[] = [...(args.destination ? [args.destination] : []), ...(args.references ?? [])];
  return specs.flatMap((spec) => (spec.handle !== undefined ? [spec.handle] : []));
}

export async function resolveTool(args: ResolveArgs, trace: RequestTrace, context: ToolContext): Promise<Outcome<ResolveResult>> {
  const now = context.clock();
  const state = context.local.getState();
  const scope = checkScope(state, args.profile ?? '', args.workspace ?? '');
  if (!scope.ok) return scope;
  const { profile, workspace } = scope.value;

  const [tabs, requestTimeTabId] = await Promise.all([context.tabs.readTabsMeta(workspace.tabIds), context.tabs.readRequestTimeTab(workspace.tabIds)]);
  const program = args.program !== undefined ? findProgram(state, workspace.id, args.program) : null;
  const handleBindings: Record<string, TargetBinding> = {};
  for (const token of namedHandles(args)) {
    const record = checkHandle(await context.handles.get(token), token, { profileId: profile.id, workspaceId: workspace.id }, now);
    if (!record.ok) return record;
    handleBindings[token] = record.value.binding;
  }

  const resolved = resolveTargets({
    profileId: profile.id,
    workspace,
    tabs,
    request: { destination: args.destination, references: args.references ?? [], readOnly: args.readOnly === true },
    requestTimeTabId,
    program,
    programs: programsOf(state, workspace.id),
    // An act a stopped worker left behind is the page's to guard: it runs one plan at a time.
    busyTabIds: context.reservations.reserved(),
    handleBindings,
  });
  trace.point('decide');
  trace.decision = { requestTimeTabId, program: program?.id ?? null, resolved: resolved.ok ? summarize(resolved.value) : resolved.error.code };
  if (!resolved.ok) return resolved;
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
    // Field names mean the elements the page showed now, until an inspect through the handle rebinds them.
    const handle = await context.handles.mint(binding, requestId, now, seen.fieldElements);
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

function summarize(resolution: { write: ResolvedTarget | null; references: ResolvedTarget[] }) {
  return {
    write: resolution.write ? { tabId: resolution.write.tab.tabId, rule: resolution.write.rule } : null,
    references: resolution.references.map((reference) => reference.tab.tabId),
  };
}
