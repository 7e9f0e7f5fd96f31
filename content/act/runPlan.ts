/**
 * Runs an act plan inside the bound page, all or nothing.
 *
 * 1. Every step is validated against the page as it is now — the field exists and can take the
 *    step, its name still means the element this handle saw, it still holds what the plan expects,
 *    the person is not typing or composing in it, the action exists and (for a run) is the very
 *    element the dry run saw and the person approved — and every problem is listed. If there is
 *    any, nothing runs. A click is checked once more right before it happens.
 * 2. Steps run in order; each write is read back. If step k fails, the fields steps 1..k-1 wrote
 *    are put back as they were, formatting included.
 * 3. The result is kept per request id, so a retry after the worker was stopped gets the same
 *    answer instead of a second run.
 */
import { tetherError, type ErrorCode } from '../../shared/errors.ts';
import { fieldHash, normalizeFieldText } from '../../shared/page/fieldText.ts';
import { pinDrift, type ClickPin } from '../../shared/page/elementBinding.ts';
import type { PageActResult, PostImage, StepOutcome } from '../../shared/page/pageProtocol.ts';
import { APPROVAL_ACTION_KINDS } from '../../shared/page/pageProtocol.ts';
import type { Plan } from '../../shared/agent/agentProtocol.ts';
import { draftState, personIsTyping, readPageModel, rememberTetherWrite, seenElement } from './actHost.ts';
import { readEditable, typingSurface, type Editable } from '../editables.ts';
import { fieldExpectation, holdsExpected } from './fieldExpectation.ts';
import type { LocatedField, PageModel } from '../pageModel.ts';
import { planText, selectValue, writeText, type PlannedText, type WriteOutcome } from './writeField.ts';
import { insertImage, UPLOAD_LIMIT_MS, type StagedImage } from '../editors/image.ts';
import { chooseFile } from '../editors/fileInput.ts';
import { releaseImages } from './imageStage.ts';
import { fieldChanged, movedElement, problem, problemDetails, summarize } from './planProblems.ts';
import { PlanLedger, refusal } from './planRollback.ts';
import { validateSteps, type PlanContext, type PlannedWrite, type Validation } from './planSteps.ts';

export type { PlanContext } from './planSteps.ts';

const completed = new Map<string, PageActResult>();
const running = new Set<string>();

export function actStatus(requestId: string): { state: 'unknown' | 'running' | 'done'; result?: PageActResult } {
  const result = completed.get(requestId);
  if (result) return { state: 'done', result };
  return { state: running.has(requestId) ? 'running' : 'unknown' };
}

/** What the agent learns about how a write went in: the editor, the path, and for markup what was kept. */
function reportOf(outcome: WriteOutcome): Partial<StepOutcome> {
  const report: Partial<StepOutcome> = { editor: outcome.editor };
  if (outcome.path) report.path = outcome.path;
  if (outcome.tried.length > 1 || outcome.path === null) report.tried = outcome.tried;
  if (outcome.took) report.took = outcome.took;
  if (outcome.kept) report.kept = outcome.kept;
  if (outcome.dropped) report.dropped = outcome.dropped;
  if (outcome.undo) report.undo = outcome.undo;
  // A write that changed the field but is not verified says why (what the editor's model holds instead).
  if (!outcome.verified && outcome.path !== null && outcome.why) report.reason = outcome.why;
  return report;
}

function clickInfos(validation: Validation) {
  return validation.clicks.map(({ step, action, kind, seen }) => ({ step, action, kind, ...seen }));
}

/** Why a markdown step with images did not verify (kept beside its outcome). */
const piecesProblem = new WeakMap<WriteOutcome, string>();

/**
 * A markdown fill/append that places images: the text first (one markdown write, verified as any),
 * then each image after the block it follows. Images after the same block go in last first, so
 * that they end in the text's order.
 */
async function writePieces(
  editable: Editable,
  mode: 'fill' | 'append',
  planned: PlannedText,
  pieces: NonNullable<PlannedWrite['pieces']>,
  images: string[],
): Promise<WriteOutcome> {
  const wrote = await writeText(editable, mode, planned);
  if (!wrote.verified) return wrote;
  const order: number[] = [];
  for (let at = 0; at < pieces.length;) {
    let end = at;
    while (end + 1 < pieces.length && pieces[end + 1]?.after === pieces[at]?.after) end += 1;
    for (let index = end; index >= at; index -= 1) order.push(index);
    at = end + 1;
  }
  const srcs: string[] = new Array<string>(pieces.length).fill('');
  let outcome: WriteOutcome = wrote;
  for (const index of order) {
    const piece = pieces[index];
    if (!piece) continue;
    const put = await insertImage(editable, piece.image, piece.alt, piece.after);
    if (put.src !== undefined) {
      srcs[index] = put.src;
      images.push(put.src);
    }
    outcome = {
      ...outcome,
      path: put.path ? `${wrote.path ?? ''}+image` : outcome.path,
      tried: [...outcome.tried, ...put.tried],
      verified: put.verified,
      text: put.text,
    };
    if (!put.verified) {
      piecesProblem.set(outcome, put.problem ?? 'the editor did not keep it');
      return outcome;
    }
  }
  // In the text's order, for the answer.
  images.splice(0, images.length, ...srcs.filter(Boolean));
  return { ...outcome, tried: [...new Set(outcome.tried)], kept: [...(wrote.kept ?? []), 'img'] };
}

async function execute(plan: Plan, validation: Validation, pins: ClickPin[]): Promise<PageActResult> {
  const ledger = new PlanLedger(validation.writes);
  const { ran } = ledger;
  /** What each field read back after this plan's last write to it: later steps expect exactly that. */
  const written = new Map<LocatedField, string>();

  for (const [index, step] of plan.steps.entries()) {
    if (step.op === 'click') {
      const click = validation.clicks.find((item) => item.step === index);
      if (!click) continue;
      // The writes before it may have set the page off: the button must still be the approved one.
      const pin = pins.find((item) => item.step === index);
      const seen = seenElement(click.located.element);
      const drift = pinDrift(pin, seen);
      if (drift.length > 0) {
        const moved = movedElement(index, step.action, drift, pin, seen);
        return ledger.abort({
          code: 'context_changed',
          problems: [moved],
          details: problemDetails([moved]),
          message: ({ all }) => `Step ${index + 1}: ${moved.message} Nothing was pressed; ${all}.`,
        });
      }
      click.located.element.click();
      ran.push({ step: index, op: 'click', target: step.action, verified: true });
      continue;
    }
    const write = validation.writes.get(index);
    if (!write) continue;
    const { editable } = write.field;
    // The person may have started typing since validation: check again at the last moment, and
    // once more where a write waits on the page (the block editor's store read, a worker round trip).
    const expectedNow = fieldExpectation({ planned: written.get(write.field) }) ?? write.expectedBefore;
    const stillExpected = () => !personIsTyping(typingSurface(editable)) && holdsExpected(readEditable(editable), expectedNow);
    const moved = () => {
      const typing = personIsTyping(typingSurface(editable));
      const code: ErrorCode = typing ? 'target_busy' : 'field_changed';
      const found = typing
        ? problem(index, code, `"${step.field}" is in use by the person.`, { cause: 'person' })
        : fieldChanged(index, write.field, 'while the plan ran');
      return ledger.abort({
        code,
        problems: [found],
        details: problemDetails([found]),
        message: ({ all }) => `Step ${index + 1}: "${step.field}" ${typing ? 'is being typed in by the person' : 'changed while the plan ran'}; ${all}.`,
      });
    };
    const now = readEditable(editable);
    if (!stillExpected()) return moved();
    await ledger.before(write);
    const beforeHash = fieldHash(now);
    const images = ledger.imagesOf(index);
    let problemWords: string | null = null;
    let outcome: WriteOutcome;
    if (write.file || write.image) {
      const put = write.file
        ? await chooseFile(editable, write.file.image, UPLOAD_LIMIT_MS)
        : await insertImage(editable, write.image?.image as StagedImage, write.image?.alt ?? '', write.image?.after);
      if (put.src !== undefined) images.push(put.src);
      problemWords = put.problem ?? null;
      // A file chooser has no alt to give: the site decides its image's.
      const altDropped = write.file !== undefined && write.file.alt !== '';
      outcome = {
        editor: editable.family,
        path: put.path,
        tried: put.tried,
        verified: put.verified,
        text: put.text,
        ...(put.verified ? { kept: ['img'], ...(altDropped ? { dropped: ['alt'] } : {}) } : {}),
      };
    } else if (write.pieces) {
      outcome = await writePieces(
        editable,
        step.op === 'fill' ? 'fill' : 'append',
        write.planned ?? planText(editable, 'fill', '', 'markdown'),
        write.pieces,
        images,
      );
      problemWords = outcome.verified ? null : (piecesProblem.get(outcome) ?? null);
    } else {
      outcome =
        step.op === 'select'
          ? await selectValue(editable, step.value)
          : await writeText(
              editable,
              step.op === 'fill' && step.text === '' ? 'clear' : (step.op as 'fill' | 'append' | 'clear'),
              write.planned,
              stillExpected,
            );
    }
    // Nothing was written because the field moved under the write (a store fill checks again): say so, as above.
    if (!outcome.verified && outcome.sent === false && !stillExpected()) return moved();
    const verified = step.op === 'select' ? outcome.verified && normalizeFieldText(outcome.text) === normalizeFieldText(write.expectedAfter) : outcome.verified;
    ran.push({
      step: index,
      op: step.op,
      target: step.field,
      ...reportOf(outcome),
      ...((write.image || write.file) && images[0] !== undefined && verified ? { src: images[0] } : {}),
      ...(write.pieces && images.length > 0 ? { images } : {}),
      beforeHash,
      afterHash: fieldHash(outcome.text),
      verified,
    });
    if (!verified) return ledger.abort(notKept(index, step.field, outcome, problemWords));
    written.set(write.field, outcome.text);
    rememberTetherWrite(editable.element, outcome.text);
  }
  return { ok: true, dryRun: false, steps: ran, clicks: clickInfos(validation), url: location.href };
}

/**
 * A write the page did not keep: an image that did not go in says why; text that nothing took
 * says which editor this is and what was tried (only what ran); text something else took, so.
 */
function notKept(index: number, field: string, outcome: WriteOutcome, imageProblem: string | null): Parameters<PlanLedger['abort']>[0] {
  const details = { editor: outcome.editor, tried: outcome.tried, field };
  if (imageProblem !== null) {
    return {
      code: 'invalid_request',
      problems: [problem(index, 'invalid_request', `The image did not go in: ${imageProblem}.`, { editor: outcome.editor })],
      details,
      message: ({ all }) => `Step ${index + 1}: the image did not go into "${field}": ${imageProblem}; ${all}.`,
    };
  }
  const untouched = outcome.path === null;
  const unsent = outcome.tried.length === 0 || outcome.sent === false;
  return {
    code: 'invalid_request',
    problems: [
      problem(
        index,
        'invalid_request',
        !untouched ? 'The page rejected or rewrote the text.' : unsent ? 'Nothing was written.' : 'The editor ignored every way of writing Tether tried.',
      ),
    ],
    details: { ...details, ...(outcome.why ? { why: outcome.why } : {}) },
    message: ({ all, before }) =>
      !untouched
        ? `Step ${index + 1}: the page did not keep the text written to "${field}"${outcome.why ? ` (${outcome.why})` : ''}; ${all}.`
        : unsent
          ? `Step ${index + 1}: Tether did not write to "${field}" (the ${outcome.editor} editor): ${outcome.why ?? 'no way of writing it applies here'}; ${before}.`
          : `Step ${index + 1}: the ${outcome.editor} editor in "${field}" took the text by none of the ways Tether tried (${outcome.tried.join(', ')}); ${before}.`,
  };
}

/**
 * The images the post holds now, for a publish approval's thumbnails: those a person sees in its
 * fields (an editor's document included) and in the form its publish button sends (a chooser's
 * stored copies), at an http(s) address, 48 px a side at least (no icons), not aria-hidden; each
 * address once, 20 at most. Only named here: the worker loads and checks each one.
 */
function postImages(model: PageModel, publishing: Validation['clicks']): PostImage[] {
  const roots: Element[] = model.fields
    .filter((field) => !['input', 'textarea', 'select', 'file'].includes(field.editable.kind))
    .map((field) => field.editable.element);
  for (const click of publishing) {
    const form = click.located.element.closest('form');
    if (form) roots.push(form);
  }
  const found = new Map<string, PostImage>();
  for (const root of roots) {
    for (const img of Array.from(root.querySelectorAll('img'))) {
      const src = img.currentSrc || img.src;
      if (found.size >= 20 || found.has(src) || !/^https?:\/\//i.test(src)) continue;
      if (img.naturalWidth < 48 || img.naturalHeight < 48 || img.closest('[aria-hidden="true"]')) continue;
      found.set(src, { src, alt: (img.getAttribute('alt') ?? '').slice(0, 300), width: img.naturalWidth, height: img.naturalHeight });
    }
  }
  return [...found.values()];
}

export async function runPlan(requestId: string, plan: Plan, context: PlanContext, dryRun: boolean, approved: boolean): Promise<PageActResult> {
  const done = completed.get(requestId);
  if (done && !dryRun) return done;
  // One plan at a time in a page, whoever sent it (a worker that was stopped may have left one running).
  if (running.size > 0) return refusal(tetherError('target_busy', 'Another plan is running on this page now. Try again when it has finished.'));

  const model = readPageModel();
  const validation = validateSteps(plan, model, context, !dryRun);
  const draft = draftState(model);
  if (draft.inProgress && plan.continueDraft !== true) {
    validation.problems.unshift(
      problem(
        0,
        'draft_in_progress',
        `The page has a draft in progress (${draft.reasons.join(', ')}). Set plan.continueDraft to continue it, or ask the person.`,
      ),
    );
  }
  if (validation.problems.length > 0) return refusal(summarize(validation.problems), validation.problems);
  if (dryRun) {
    const publishing = validation.clicks.filter((click) => APPROVAL_ACTION_KINDS.includes(click.kind));
    const shown = publishing.length > 0 ? postImages(model, publishing) : [];
    return { ok: true, dryRun: true, steps: [], clicks: clickInfos(validation), url: location.href, ...(shown.length > 0 ? { postImages: shown } : {}) };
  }
  // The page is read again for the run: a click that became publish-type since the dry run, and was
  // not approved, does not run.
  const unapproved = validation.clicks.find((click) => APPROVAL_ACTION_KINDS.includes(click.kind));
  if (unapproved && !approved) {
    return refusal(tetherError('approval_required', `"${unapproved.action}" publishes and was not approved for this plan. Nothing ran.`), [
      problem(unapproved.step, 'approval_required', 'Needs the person’s approval.'),
    ]);
  }

  running.add(requestId);
  try {
    const result = await execute(plan, validation, context.pins);
    completed.set(requestId, result);
    return result;
  } finally {
    running.delete(requestId);
    releaseImages(requestId);
  }
}
