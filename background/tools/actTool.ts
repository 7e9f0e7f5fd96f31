/**
 * `act`: full context + a write handle + a plan. The whole plan is validated before any of it
 * runs (the handle and its role, the site's permission, the binding now, then every step against
 * the page in a dry run); any problem → nothing runs, every problem listed. Publish-type steps
 * wait for the person's approval unless the site allows them. A request id makes retries run once.
 */
import { agentWords, labelOf } from '../../shared/agent/agentIdentity.ts';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { describePlan, previewStep } from '../../shared/model/describePlan.ts';
import { inLang } from '../../shared/model/explain.ts';
import type { ClickPin } from '../../shared/page/elementBinding.ts';
import { planDigest } from '../../shared/model/planDigest.ts';
import { newId } from '../../shared/ids.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import { APPROVAL_ACTION_KINDS } from '../../shared/page/pageProtocol.ts';
import type { SitePolicy } from '../../shared/model/targetModel.ts';
import { actArgsSchema, type ActArgs } from '../../shared/agent/agentProtocol.ts';
import type { ActResult } from '../../shared/agent/results.ts';
import { actFinished, mayWrite, releaseTab } from '../core/holdStore.ts';
import { busyError, heldByDetails, holderChanged } from '../core/tabHolds.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { defineTool, withHandle, type HandleScope } from './defineTool.ts';
import { revalidateNow } from './revalidateNow.ts';
import { answerFromPage, expectationOf, runAct, type ActInput } from './runAct.ts';
import { planImages } from '../../shared/agent/planImages.ts';
import { approvalImages, postImageThumbnails } from '../adapters/imageThumbnail.ts';
import { gatherImages, imagesNeedingApproval, pagePlan } from './actImages.ts';
import type { ToolContext } from '../toolContext.ts';

const DEFAULT_APPROVAL_TIMEOUT_S = 120;
const MAX_SCHEDULE_AHEAD_MS = 7 * 24 * 60 * 60 * 1000;
/** A request id recorded as running this long ago, that the page does not know, is taken as never run. */
const UNFINISHED_ACT_GRACE_MS = 30_000;

/** A request id seen before: answer as before, or say it is still running. Null: run it. */
async function replay(context: ToolContext, requestId: string, handle: string, input: ActInput, trace: RequestTrace): Promise<Outcome<ActResult> | null> {
  const prior = await context.actRecords.get(requestId);
  if (!prior) return null;
  if (prior.handle !== handle) {
    return failure(tetherError('invalid_request', 'This requestId was already used with another handle. Use a new requestId.'));
  }
  trace.decision = { replayOf: requestId };
  if (prior.state === 'done' && prior.answer !== null) return prior.answer;
  // A worker stopped mid-act: the page knows whether the plan ran.
  const status = await context.askPage(prior.tabId, prior.documentId, { type: 'actStatus', requestId });
  if (status.ok && status.value.state === 'done' && status.value.result) {
    const answer = answerFromPage(input, status.value.result, trace);
    await context.actRecords.put(requestId, { ...prior, state: 'done', answer });
    return answer;
  }
  if ((status.ok && status.value.state === 'running') || context.clock() - prior.startedAt < UNFINISHED_ACT_GRACE_MS) {
    return failure(tetherError('target_busy', 'This request is still running. Ask again with the same requestId in a moment.'));
  }
  return null;
}

export const actTool = defineTool({
  name: 'act',
  args: actArgsSchema,
  description:
    'Run a plan on a write handle, all or nothing: problems listed first; a failure undoes earlier steps. Publish waits for approval unless allowed; release frees the tab.',
  needs: { context: ['profile', 'workspace', 'handle', 'plan'], role: 'write' },
  // An act that only releases its tab needs no plan.
  excused: (args) => (args.release === true ? ['plan'] : []),
  handler: withHandle(act),
});

async function act(args: ActArgs, scoped: HandleScope, trace: RequestTrace, context: ToolContext): Promise<Outcome<ActResult>> {
  const { now, token, handle: record } = scoped;
  const { binding } = record;
  const agent = trace.caller();
  const plan = args.plan;
  if (!plan && args.release === true) return releaseOnly(context, binding, agent.session, trace);
  if (!plan) return failure(tetherError('missing_context', 'Missing plan.', { missing: ['plan'] }));
  const requestId = args.requestId ?? newId('rq', 9);
  trace.requestId = requestId;
  trace.targets = [{ tabId: binding.tabId, site: siteLabel(binding.url), title: binding.title, account: binding.account, role: binding.role }];
  const input: ActInput = {
    handle: token,
    binding,
    plan,
    inspected: record.inspected ?? {},
    elements: record.elements ?? {},
    requestId,
    lang: args.lang,
    agent,
    // It writes only under the hold its handle was minted with (none: a handle older than holds, refused below).
    ...(record.hold !== undefined ? { holdId: record.hold } : {}),
  };

  const replayed = args.requestId !== undefined ? await replay(context, requestId, token, input, trace) : null;
  if (replayed) return replayed;

  // R5: references are read, never written; and the person may have withdrawn write permission.
  if (binding.role !== 'write') {
    return failure(
      tetherError('read_only_target', 'This handle is a reference: it may be read, never written. Resolve a write target.', { role: binding.role }),
    );
  }
  const policy = scoped.workspace.sites[binding.origin];
  if (policy?.writable !== true) {
    return failure(
      tetherError('read_only_target', `Workspace "${scoped.workspace.name}" no longer allows writing on ${binding.origin}.`, { origin: binding.origin }),
    );
  }
  // Another agent's task holds the tab, or this handle's hold is gone (released, expired, ended).
  if (record.hold === undefined) return failure(holderChanged(binding.tabId));
  const may = mayWrite(context, { tabId: binding.tabId, session: agent.session, holdId: record.hold });
  if (!may.ok) return failure(may.reason === 'held' ? busyError(may.heldBy, binding.tabId) : holderChanged(binding.tabId));
  // A time is checked before anything else is asked of the page or the person.
  let dueAt: number | null = null;
  if (args.at !== undefined) {
    dueAt = Date.parse(args.at);
    if (dueAt < now - 60_000 || dueAt > now + MAX_SCHEDULE_AHEAD_MS) {
      return failure(tetherError('invalid_request', 'at must be a time from now to 7 days ahead.', { at: args.at }));
    }
  }
  // One act at a time per tab, and one run per request id: a second copy in flight is refused.
  if (!context.reservations.reserve(binding.tabId, requestId)) {
    return failure(tetherError('target_busy', 'Another act is running on this tab now. Try again when it has finished.', { tabId: binding.tabId }));
  }
  let answer: Outcome<ActResult>;
  try {
    // Images: every byte checked before the page or the person is asked anything.
    const imageUses = planImages(plan).uses;
    if (imageUses.length > 0) {
      if (dueAt !== null) {
        // Refused rather than kept: Tether does not keep image bytes (a local file's, up to 20 × 20 MB)
        // in the browser's storage for days, and a reference page's image is read as the act runs.
        answer = failure(
          tetherError(
            'invalid_request',
            `An act with images cannot be scheduled (at): Tether does not keep image bytes until later, and a reference page's image is read as the act runs. Send it without at when it should run, or schedule the text now and send the images then. Nothing was scheduled.`,
            { at: args.at, images: imageUses.length, steps: [...new Set(imageUses.map((use) => use.step))] },
          ),
        );
      } else {
        const images = await gatherImages(context, binding, plan);
        if (!images.ok) answer = images;
        else {
          trace.images = images.value.map(({ kind, from, name, bytes, width, height }) => ({ kind, from, name, bytes, width, height }));
          answer = await validateAndRun(context, args, { ...input, plan: pagePlan(plan, images.value), images: images.value }, policy, dueAt, trace, now);
        }
      }
    } else {
      answer = await validateAndRun(context, args, input, policy, dueAt, trace, now);
    }
  } finally {
    context.reservations.release(binding.tabId, requestId);
    // The act's outcome is kept: a session that ended meanwhile lets its hold go now.
    await actFinished(context, binding.tabId, agent.session);
  }
  // The agent's task on this tab ends with this act (a refused plan keeps the hold, to try again).
  if (args.release === true && answer.ok && 'steps' in answer.value) {
    const freed = await releaseTab(context, binding.tabId, agent.session);
    if (freed.ok) answer = success({ ...answer.value, released: { tabId: binding.tabId } });
  }
  return answer;
}

/** `release: true` without a plan: the session lets go of the handle's tab, or hears who holds it. */
async function releaseOnly(
  context: ToolContext,
  binding: { tabId: number; workspaceId: string },
  session: string,
  trace: RequestTrace,
): Promise<Outcome<ActResult>> {
  trace.point('decide');
  const released = await releaseTab(context, binding.tabId, session);
  trace.decision = { release: binding.tabId, released: released.ok };
  if (released.ok) return success({ released: { tabId: binding.tabId } });
  const holder = released.heldBy;
  return failure(
    tetherError(
      'invalid_request',
      holder
        ? `You do not hold this tab: ${agentWords(holder.agent)} does${holder.until !== undefined ? ` (a scheduled act, until ${new Date(holder.until).toISOString()})` : ''}. Nothing was released.`
        : 'You do not hold this tab: nobody does. Nothing was released.',
      { tabId: binding.tabId, ...(holder ? { heldBy: heldByDetails(holder) } : {}) },
    ),
  );
}

async function validateAndRun(
  context: ToolContext,
  args: ActArgs,
  input: ActInput,
  policy: SitePolicy,
  dueAt: number | null,
  trace: RequestTrace,
  now: number,
): Promise<Outcome<ActResult>> {
  const { binding, plan, requestId } = input;
  // A plan that presses nothing and runs now needs no separate dry run: the run itself checks every
  // step before any runs (and nothing needs approval or pins). Clicks, and plans kept for later, are
  // checked first.
  const images = input.images ?? [];
  const askFor = imagesNeedingApproval(images, policy.uploadImagesWithoutAsking);
  if (dueAt === null && plan.steps.every((step) => step.op !== 'click') && askFor.length === 0) {
    trace.point('decide');
    trace.decision = { validated: 'in the run', needsApproval: false };
    return runAct(context, { ...input, pins: [], mayPublish: false }, trace);
  }
  const still = await revalidateNow(context, binding);
  if (!still.ok) return still;

  // The whole plan against the page as it is now; nothing runs if anything is wrong.
  const dry = await context.askPage(binding.tabId, binding.documentId, {
    type: 'act',
    expect: expectationOf(binding),
    requestId,
    plan,
    inspected: input.inspected,
    elements: input.elements,
    pins: [],
    dryRun: true,
    approved: false,
    // No bytes in a dry run: each image's type (by its bytes), for the checks that need it (a file chooser's accept=).
    ...(images.length > 0 ? { images: images.map(({ use, id, name, type }) => ({ use, id, name, type })) } : {}),
  });
  trace.point('decide');
  if (!dry.ok) return dry;
  if (!dry.value.ok) return answerFromPage(input, dry.value, trace);
  // The run may press only the elements validated now: the ones the person sees in the approval.
  const pins: ClickPin[] = dry.value.clicks.map(({ step, element, label, fingerprint }) => ({ step, element, label, fingerprint }));
  const publishes = dry.value.clicks.some((click) => APPROVAL_ACTION_KINDS.includes(click.kind)) && policy.publishWithoutApproval !== true;
  // Image files leave the computer only with the person's yes (or their standing permission for this site).
  const needsApproval = publishes || askFor.length > 0;
  trace.decision = { validated: plan.steps.length, needsApproval };

  const words = describePlan(plan, { title: binding.title, site: siteLabel(binding.url), account: binding.account });
  trace.explanation = words;
  if (needsApproval) {
    const digest = await planDigest({
      tabId: binding.tabId,
      documentId: binding.documentId,
      pageInstance: binding.pageInstance,
      plan,
      pins,
      at: args.at ?? null,
    });
    const decision = await context.approvals.request(
      {
        requestId,
        digest,
        workspaceId: binding.workspaceId,
        tabId: binding.tabId,
        site: siteLabel(binding.url),
        title: binding.title,
        account: binding.account,
        agent: labelOf(trace.caller()),
        action: dry.value.clicks.some((click) => click.kind === 'publish') ? 'publish' : 'submit',
        summary: words,
        // A click shows the label on the very button it will press.
        steps: plan.steps.map((step, index) => ({
          ...previewStep(step),
          ...(step.op === 'click' ? { preview: pins.find((pin) => pin.step === index)?.label ?? '' } : {}),
        })),
        ...(images.length > 0 ? { images: await approvalImages(images, askFor) } : {}),
        // A publish shows the photos the post holds, drawn from the addresses the page shows them at.
        ...(publishes && dry.value.postImages
          ? { postImages: await postImageThumbnails(dry.value.postImages, (url) => context.fetchImage(url, binding.url)) }
          : {}),
      },
      (args.approvalTimeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_S) * 1000,
    );
    if (decision === 'denied') {
      const what = askFor.length > 0 && !publishes ? 'the image upload of this plan' : 'this plan';
      return failure(tetherError('approval_denied', `The person declined ${what} in Tether. Do not retry it unchanged.`, { requestId }));
    }
    if (decision === 'timeout') {
      const why = publishes
        ? 'This plan publishes'
        : `This plan uploads ${askFor.length === 1 ? 'an image file' : `${askFor.length} image files`} from this computer`;
      return failure(
        tetherError('approval_required', `${why} and needs the person’s approval in Tether’s panel. Ask them, then send it again.`, { requestId }),
      );
    }
  }
  // Publishing may go ahead now: the person approved it, or the workspace allows it without asking.
  const mayPublish = publishes || policy.publishWithoutApproval === true;

  if (dueAt !== null) {
    const scheduled = await context.schedule({ ...input, pins, mayPublish }, Math.max(dueAt, now + 1000), now);
    trace.successOutcome = 'scheduled';
    const answer: Outcome<ActResult> = success({
      requestId,
      scheduled: { id: scheduled.id, at: new Date(scheduled.dueAt).toISOString(), program: scheduled.programId },
      will: inLang(words, args.lang),
    });
    // A retry with the same request id gets this answer again instead of a second schedule.
    await context.actRecords.put(requestId, {
      requestId,
      handle: input.handle,
      tabId: binding.tabId,
      documentId: binding.documentId,
      state: 'done',
      startedAt: now,
      answer,
    });
    return answer;
  }

  return runAct(context, { ...input, pins, mayPublish }, trace);
}
