/**
 * The execution half of `act`, shared by immediate and scheduled acts: mark the request running,
 * revalidate the binding one last time (R8), send the plan to the bound document, keep the answer
 * under the request id (so a retry gets it instead of a second run), and describe what happened.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { describePlan } from '../../shared/model/describePlan.ts';
import { inLang } from '../../shared/model/explain.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import type { PageActResult } from '../../shared/page/pageProtocol.ts';
import type { ActResult } from '../../shared/agent/results.ts';
import type { ActRecord } from '../state/actRecords.ts';
import { stageImages } from './actImages.ts';
import { UPLOAD_WAIT_MS } from '../../shared/imageBytes.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { mayWrite } from '../core/holdStore.ts';
import { busyError, holderChanged } from '../core/tabHolds.ts';
import { revalidateNow } from './revalidateNow.ts';
import type { ToolContext } from '../toolContext.ts';
import type { ActInput } from '../core/contracts.ts';

export type { ActInput } from '../core/contracts.ts';

import { expectationOf } from '../core/pageExpectation.ts';
export { expectationOf };

/** The answer of a page's act result, as the agent gets it. */
export function answerFromPage(input: ActInput, result: PageActResult, trace: RequestTrace): Outcome<ActResult> {
  if (!result.ok) {
    trace.steps = result.ran;
    trace.rolledBack = result.ran.length > 0;
    // What the agent needs to fix the plan: every problem, and what ran and was undone (if anything did).
    return failure(
      tetherError(result.error.code, result.error.message, {
        ...(result.error.details ?? {}),
        ...(result.problems.length > 0 ? { problems: result.problems } : {}),
        ...(result.ran.length > 0 ? { ran: result.ran.map((step) => step.step), rolledBack: result.rolledBack } : {}),
      }),
    );
  }
  trace.steps = result.steps;
  const words = describePlan(input.plan, { title: input.binding.title, site: siteLabel(input.binding.url), account: input.binding.account });
  trace.explanation = words;
  return success({
    requestId: input.requestId,
    // The plan says what each step was; the answer says how it went (the editor, the path the text took, and for markup what was kept and dropped).
    steps: result.steps.map(({ beforeHash: _before, afterHash: _after, op: _op, target: _target, ...step }) => step),
    url: result.url,
    done: inLang(words, input.lang),
  });
}

export async function runAct(context: ToolContext, input: ActInput, trace: RequestTrace): Promise<Outcome<ActResult>> {
  const { binding } = input;
  const started: ActRecord = {
    requestId: input.requestId,
    handle: input.handle,
    tabId: binding.tabId,
    documentId: binding.documentId,
    state: 'running',
    startedAt: context.clock(),
    answer: null,
  };

  const saveAct = (record: ActRecord) => context.actRecords.put(record.requestId, record);
  // The answer is final once the page has spoken: the journal record is saved while it is kept for retries.
  const finish = async (answer: Outcome<ActResult>): Promise<Outcome<ActResult>> => {
    trace.settle(answer);
    await saveAct({ ...started, state: 'done', answer });
    return answer;
  };

  // Approval may have taken minutes: check again right before the page is touched — the binding
  // (R8) and the person's permission to write there (R5), as they are now. Both this and the
  // "running" mark must be done before the page is asked; they do not depend on each other.
  const [still] = await Promise.all([revalidateNow(context, binding), saveAct(started)]);
  if (!still.ok) return finish(still);
  // The person may have released the tab meanwhile (or another task may hold it now): never written then.
  const may = mayWrite(context, { tabId: binding.tabId, session: input.agent?.session ?? '', ...(input.holdId !== undefined ? { holdId: input.holdId } : {}) });
  if (!may.ok) return finish(failure(may.reason === 'held' ? busyError(may.heldBy, binding.tabId) : holderChanged(binding.tabId)));
  if (context.local.getState().workspaces[binding.workspaceId]?.sites[binding.origin]?.writable !== true) {
    return finish(failure(tetherError('read_only_target', `The workspace no longer allows writing on ${binding.origin}.`, { origin: binding.origin })));
  }
  const images = input.images ?? [];
  if (images.length > 0) {
    const staged = await stageImages(context, binding, input.requestId, images);
    if (!staged.ok) return finish(staged);
  }
  trace.point('dispatch');
  const ran = await context.askPage(
    binding.tabId,
    binding.documentId,
    {
      type: 'act',
      expect: expectationOf(binding),
      requestId: input.requestId,
      plan: input.plan,
      inspected: input.inspected,
      elements: input.elements,
      // No pins (a scheduled act stored before pins existed): every click is refused, never guessed.
      pins: input.pins ?? [],
      dryRun: false,
      approved: input.mayPublish === true,
      ...(images.length > 0 ? { images: images.map(({ use, id, name, type }) => ({ use, id, name, type })) } : {}),
    },
    // Each image may wait for its upload.
    images.length > 0 ? 60_000 + images.length * UPLOAD_WAIT_MS : undefined,
  );
  trace.point('observe');
  if (!ran.ok) return finish(ran);
  return finish(answerFromPage(input, ran.value, trace));
}
