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
import { tetherError, type ErrorCode, type TetherError } from '../shared/errors.ts';
import { fieldHash, normalizeFieldText } from '../shared/fieldText.ts';
import { checkFieldBinding, pinDrift, type ClickPin, type SeenElement } from '../shared/elementBinding.ts';
import type { PageActResult, PlanProblem, PostImage, StepOutcome, ActionKind } from '../shared/pageProtocol.ts';
import { APPROVAL_ACTION_KINDS } from '../shared/pageProtocol.ts';
import type { Plan, PlanStep } from '../shared/protocol.ts';
import { draftState, elementId, lastEditBy, personIsTyping, readPageModel, rememberTetherWrite, seenElement } from './actHost.ts';
import { acceptOf, isDisabled, readEditable, readEditableHtml, typingSurface, type Editable } from './editables.ts';
import { TooLarge } from './editors/structuredText.ts';
import { fieldExpectation, holdsExpected, type FieldExpectation } from './fieldExpectation.ts';
import type { LocatedAction, LocatedField, PageModel } from './pageModel.ts';
import {
  planText,
  restoreField,
  sameText,
  selectValue,
  snapshotField,
  writeText,
  type FieldSnapshot,
  type PlannedText,
  type WriteOutcome,
} from './writeField.ts';
import { familyOf } from './editors/families/index.ts';
import { blockAfter, insertImage, removeImage, UPLOAD_LIMIT_MS } from './editors/image.ts';
import { acceptsType, chooseFile, clearChoice } from './editors/fileInput.ts';
import type { ImageType } from '../shared/imageBytes.ts';
import { markdownPieces } from '../shared/planImages.ts';
import { releaseImages, stagedImage } from './imageStage.ts';
import type { StagedImage } from './editors/image.ts';

const completed = new Map<string, PageActResult>();
const running = new Set<string>();

export function actStatus(requestId: string): { state: 'unknown' | 'running' | 'done'; result?: PageActResult } {
  const result = completed.get(requestId);
  if (result) return { state: 'done', result };
  return { state: running.has(requestId) ? 'running' : 'unknown' };
}

interface PlannedWrite {
  step: number;
  field: LocatedField;
  /** What the field should hold before this step, and the text after it. */
  expectedBefore: FieldExpectation;
  expectedAfter: string;
  /** fill/append: the text converted for the editor (markdown/HTML), checked before anything runs. */
  planned: PlannedText | null;
  /** A markdown fill/append that places images: each image, after the block its text follows (none: at the start of the text, put at the end). */
  pieces?: Array<{ image: StagedImage; alt: string; after?: string }>;
  /** An image step: the bytes and where they go. */
  image?: { image: StagedImage; alt: string; after?: string };
  /** An image step into the site's own file chooser: the photo chosen in it (its script uploads it). */
  file?: { image: StagedImage; alt: string };
}

interface Validation {
  problems: PlanProblem[];
  writes: Map<number, PlannedWrite>;
  clicks: Array<{ step: number; action: string; kind: ActionKind; located: LocatedAction; seen: SeenElement }>;
}

/** What the worker sends with a plan: what this handle saw of the page, and, for a run, the dry run's clicks. */
export interface PlanContext {
  /** Field hashes the last inspect saw. */
  inspected: Record<string, string>;
  /** The element each field name meant when the handle last saw the page. */
  elements: Record<string, string>;
  /** For a run: the element each click was validated (and approved) against at the dry run. */
  pins: ClickPin[];
  /** The act's request id and its staged images, by use (shared/planImages.ts): their bytes are kept by id. */
  requestId?: string;
  images?: Record<string, string>;
  /** Each image's type by its bytes, by use: what a dry run checks a file chooser's accept= against (a run checks the staged bytes' own). */
  types?: Record<string, ImageType>;
}

function problem(step: number, code: ErrorCode, message: string, extra: Pick<PlanProblem, 'changed' | 'cause' | 'editor'> = {}): PlanProblem {
  return { step, code, message, ...extra };
}

function movedElement(step: number, action: string, drift: string[], pin: ClickPin | undefined, seen: SeenElement): PlanProblem {
  const what = drift.includes('unpinned')
    ? 'Tether has no record of which button was validated for it'
    : drift.includes('element')
      ? 'another element on the page now has its name'
      : `it was changed (label “${pin?.label ?? ''}” → “${seen.label}”)`;
  return problem(step, 'context_changed', `The “${action}” button is not the one validated and approved: ${what}.`, { changed: ['element'] });
}

/** A field_changed problem that says who changed the field, when Tether saw it. */
function fieldChanged(step: number, field: LocatedField, when: string): PlanProblem {
  const by = lastEditBy(typingSurface(field.editable));
  if (by === 'page') {
    return problem(
      step,
      'field_changed',
      `"${field.name}" changed ${when} — by the page's own script, not by the person (no keys, IME, paste or drop). A page that keeps rewriting a field blocks writes to it.`,
      { cause: 'page' },
    );
  }
  return problem(step, 'field_changed', `"${field.name}" changed ${when} (someone edited it). Inspect again and rebuild the plan.`, by ? { cause: by } : {});
}

/**
 * An image step's (or a markdown step's images') bytes and place, or the problem: the field's
 * editor must have an upload path (Tether never links an image instead), the block `after` names
 * must be there, and for a run the bytes must have been staged.
 */
function imagesFor(
  index: number,
  step: PlanStep,
  field: LocatedField,
  context: PlanContext,
  dryRun: boolean,
): { image?: { image: StagedImage; alt: string; after?: string }; pieces: Record<string, StagedImage> } | { problem: PlanProblem } {
  const family = familyOf(field.editable);
  if (!family.image) {
    return {
      problem: problem(
        index,
        'invalid_request',
        `"${field.name}" is a ${family.id} editor, which has no image upload Tether can drive; Tether never links an image from elsewhere instead. Put the image in by hand, or into a field whose editor uploads.`,
        { editor: family.id },
      ),
    };
  }
  const staged = (use: string): StagedImage | null => {
    const id = context.images?.[use];
    return id !== undefined && context.requestId !== undefined ? stagedImage(context.requestId, id) : null;
  };
  // A dry run sees no bytes (they are staged for the run only): a stand-in keeps the checks the same.
  const standIn: StagedImage = { blob: new Blob(), name: 'image', type: 'image/png', width: 1, height: 1 };
  if (step.op === 'image') {
    if (step.after !== undefined) {
      const found = blockAfter(field.editable.element, step.after);
      if ('problem' in found) return { problem: problem(index, 'invalid_request', `Where should the image go in "${field.name}"? ${found.problem}.`) };
    }
    const image = dryRun ? standIn : staged(String(index));
    if (!image) return { problem: problem(index, 'invalid_request', 'The image’s bytes did not reach the page. Send the act again.') };
    return { image: { image, alt: step.alt, ...(step.after === undefined ? {} : { after: step.after }) }, pieces: {} };
  }
  const pieces: Record<string, StagedImage> = {};
  if (step.op === 'fill' || step.op === 'append') {
    for (const key of Object.keys(step.images ?? {})) {
      const image = dryRun ? standIn : staged(`${index}/${key}`);
      if (!image) return { problem: problem(index, 'invalid_request', `The bytes of image:${key} did not reach the page. Send the act again.`) };
      pieces[key] = image;
    }
  }
  return { pieces };
}

/**
 * An image step into a file chooser, or the problem: it has no inside (no `after`), it must accept
 * the image's type (its accept=, by the type the bytes say), and one without `multiple` takes one
 * photo per act (a second choice would replace the first on many sites).
 */
function fileChoiceFor(
  index: number,
  step: Extract<PlanStep, { op: 'image' }>,
  field: LocatedField,
  plan: Plan,
  context: PlanContext,
  dryRun: boolean,
): { file: { image: StagedImage; alt: string } } | { problem: PlanProblem } {
  const refuse = (message: string) => ({ problem: problem(index, 'invalid_request', message, { editor: field.editable.family }) });
  if (step.after !== undefined) return refuse(`"${field.name}" is a file chooser: a photo has no place inside it, so leave out after.`);
  const input = field.editable.element as HTMLInputElement;
  const into = plan.steps.filter((other) => other.op === 'image' && other.field === step.field).length;
  if (into > 1 && !input.multiple) {
    return refuse(`"${field.name}" is a file chooser that takes one file (no multiple), and this plan puts ${into} photos in it: send one per act.`);
  }
  const use = String(index);
  const id = context.images?.[use];
  const type = dryRun ? context.types?.[use] : undefined;
  const image = dryRun
    ? type && { blob: new Blob(), name: 'image', type, width: 1, height: 1 }
    : id !== undefined && context.requestId !== undefined
      ? stagedImage(context.requestId, id)
      : null;
  if (!image)
    return refuse(dryRun ? 'The image’s type did not reach the page. Send the act again.' : 'The image’s bytes did not reach the page. Send the act again.');
  const accept = acceptOf(input);
  if (!acceptsType(accept, image.type)) {
    return refuse(`"${field.name}" accepts ${accept.join(', ')}; this image is ${image.type} (by its bytes). Choose an image it accepts.`);
  }
  return { file: { image, alt: step.alt } };
}

/** Validates every step; `pinned` checks each click against the dry run's (a run, not a dry run). */
function validateSteps(plan: Plan, model: PageModel, context: PlanContext, pinned: boolean): Validation {
  const dryRun = !pinned;
  const { inspected, elements, pins } = context;
  const problems: PlanProblem[] = [];
  const writes = new Map<number, PlannedWrite>();
  const clicks: Validation['clicks'] = [];
  // What each field will hold after the steps so far: later steps expect that, not the inspect.
  const predicted = new Map<string, string>();
  const fieldNames = model.fields.map((field) => field.name).join(', ') || 'none';
  const actionNames = model.actions.map((action) => action.name).join(', ') || 'none';

  plan.steps.forEach((step, index) => {
    if (step.op === 'click') {
      const located = model.actions.find((action) => action.name === step.action);
      if (!located) {
        problems.push(problem(index, 'invalid_request', `No action "${step.action}" on this page. Actions here: ${actionNames}.`));
        return;
      }
      if (isDisabled(located.element)) problems.push(problem(index, 'invalid_request', `The "${step.action}" button is disabled now.`));
      if (APPROVAL_ACTION_KINDS.includes(located.kind) && index !== plan.steps.length - 1) {
        problems.push(problem(index, 'invalid_request', `"${step.action}" publishes and cannot be undone, so it must be the last step.`));
      }
      const seen = seenElement(located.element);
      if (pinned) {
        const pin = pins.find((item) => item.step === index);
        const drift = pinDrift(pin, seen);
        if (drift.length > 0) problems.push(movedElement(index, step.action, drift, pin, seen));
      }
      clicks.push({ step: index, action: step.action, kind: located.kind, located, seen });
      return;
    }

    const field = model.fields.find((candidate) => candidate.name === step.field);
    if (!field) {
      problems.push(problem(index, 'invalid_request', `No field "${step.field}" on this page. Fields here: ${fieldNames}.`));
      return;
    }
    if (field.editable.kind === 'file' && step.op !== 'image') {
      problems.push(
        problem(index, 'invalid_request', `"${step.field}" is a file chooser: put a photo in it with an image step.`, { editor: field.editable.family }),
      );
      return;
    }
    const isSelect = field.editable.kind === 'select';
    if (isSelect !== (step.op === 'select')) {
      problems.push(
        problem(index, 'invalid_request', isSelect ? `"${step.field}" is a choice: use select.` : `"${step.field}" is text: use fill, append or clear.`),
      );
      return;
    }
    if (isDisabled(field.editable.element)) {
      problems.push(problem(index, 'invalid_request', `"${step.field}" is disabled or read-only on the page.`));
      return;
    }
    const typing = personIsTyping(typingSurface(field.editable));
    if (typing) {
      problems.push(
        problem(
          index,
          'target_busy',
          typing === 'composing' ? `The person is composing text (IME) in "${step.field}".` : `The person is typing in "${step.field}".`,
        ),
      );
    }

    const current = readEditable(field.editable);
    const prior = predicted.get(field.name);
    const expectedBefore = fieldExpectation({ planned: prior, expect: step.expect, inspected: inspected[field.name] });
    if (expectedBefore === null) {
      problems.push(problem(index, 'invalid_request', `Say what "${step.field}" holds now: inspect this handle first, or give expect.hash or expect.text.`));
      return;
    }
    // The name must still mean the element this handle saw: a page can move a name to another element.
    const binding = checkFieldBinding(elements[field.name], elementId(field.editable.element));
    if (binding !== 'same') {
      problems.push(
        problem(
          index,
          'field_changed',
          binding === 'unknown'
            ? `Tether has not seen "${step.field}" through this handle. Inspect again and rebuild the plan.`
            : `"${step.field}" now means another element on the page than when this handle inspected it. Inspect again and rebuild the plan.`,
          { changed: ['element'] },
        ),
      );
      return;
    }
    // A field an earlier step writes is checked when that step has run (its text is predicted, not read).
    if (prior === undefined && !holdsExpected(current, expectedBefore)) {
      problems.push(fieldChanged(index, field, 'since it was inspected'));
    }
    const base = expectedBefore.text ?? current;
    const imageKeys = step.op === 'image' ? ['image'] : (step.op === 'fill' || step.op === 'append') && step.images ? Object.keys(step.images) : [];
    if (step.op === 'image' && field.editable.kind === 'file') {
      const chosen = fileChoiceFor(index, step, field, plan, context, dryRun);
      if ('problem' in chosen) {
        problems.push(chosen.problem);
        return;
      }
      // What a chooser reads as once a file is chosen (the HTML Living Standard's filename mode).
      const after = `C:\\fakepath\\${chosen.file.image.name}`;
      predicted.set(field.name, after);
      writes.set(index, { step: index, field, expectedBefore, expectedAfter: after, planned: null, file: chosen.file });
      return;
    }
    if (imageKeys.length > 0) {
      const imaging = imagesFor(index, step, field, context, dryRun);
      if ('problem' in imaging) {
        problems.push(imaging.problem);
        return;
      }
      if (step.op === 'image') {
        predicted.set(field.name, base);
        writes.set(index, { step: index, field, expectedBefore, expectedAfter: base, planned: null, image: imaging.image });
        return;
      }
      if (step.op === 'fill' || step.op === 'append') {
        // The text goes in as one markdown write (its images left out), then each image after the
        // block it follows in the text (the first words of that block's text), verified in turn.
        const pieces: NonNullable<PlannedWrite['pieces']> = [];
        let planned: PlannedText;
        try {
          const parts = markdownPieces(step.text);
          planned = planText(
            field.editable,
            step.op,
            parts
              .map((part) => part.text.trim())
              .filter(Boolean)
              .join('\n\n'),
            'markdown',
          );
          let lastBlock: string | undefined;
          for (const part of parts) {
            const text = part.text.trim();
            if (text !== '') {
              const lines = planText(field.editable, 'fill', text, 'markdown')
                .payload.htmlText.split('\n')
                .map((line) => line.trim())
                .filter(Boolean);
              lastBlock = lines[lines.length - 1] ?? lastBlock;
            }
            if (part.image) {
              const image = imaging.pieces[part.image.key] as StagedImage;
              pieces.push({ image, alt: part.image.alt, ...(lastBlock === undefined ? {} : { after: lastBlock }) });
            }
          }
        } catch (error) {
          if (!(error instanceof TooLarge)) throw error;
          problems.push(problem(index, 'invalid_request', `The markdown for "${step.field}" is too large once converted. Send it in smaller steps.`));
          return;
        }
        const after = planned.expected(base)[0] ?? '';
        predicted.set(field.name, after);
        writes.set(index, { step: index, field, expectedBefore, expectedAfter: after, planned, pieces });
        return;
      }
    }
    let planned: PlannedText | null = null;
    if (step.op === 'fill' || step.op === 'append') {
      try {
        planned = planText(field.editable, step.op, step.text, step.format ?? 'text');
      } catch (error) {
        if (!(error instanceof TooLarge)) throw error;
        problems.push(
          problem(index, 'invalid_request', `The ${step.format ?? 'text'} for "${step.field}" is too large once converted. Send it in smaller steps.`),
        );
        return;
      }
    }
    const expectedAfter = planned ? (planned.expected(base)[0] ?? '') : step.op === 'select' ? step.value : '';
    predicted.set(field.name, expectedAfter);
    writes.set(index, { step: index, field, expectedBefore, expectedAfter, planned });
  });
  return { problems, writes, clicks };
}

/** Details every refusal of a plan carries: the problems, what changed, and whether the page did it. */
function problemDetails(problems: PlanProblem[]): Record<string, unknown> {
  const changed = [...new Set(problems.flatMap((item) => item.changed ?? []))];
  const byPage = problems.filter((item) => item.cause === 'page');
  const editor = problems.find((item) => item.editor !== undefined)?.editor;
  return {
    problems,
    ...(editor === undefined ? {} : { editor }),
    ...(changed.length > 0 ? { changed } : {}),
    ...(byPage.length > 0
      ? { changedByPage: { steps: byPage.map((item) => item.step), note: 'The page’s own script changes these fields; it blocks writes to itself.' } }
      : {}),
  };
}

function summarize(problems: PlanProblem[]): TetherError {
  const codes = [...new Set(problems.map((item) => item.code))];
  const code: ErrorCode = codes.length === 1 ? (codes[0] as ErrorCode) : 'invalid_request';
  const first = problems[0];
  const message =
    problems.length === 1 && first
      ? `Step ${first.step + 1}: ${first.message} Nothing ran.`
      : `${problems.length} problems in the plan; nothing ran. Fix them all and send the plan again.`;
  return tetherError(code, message, problemDetails(problems));
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

function refusal(error: TetherError, problems: PlanProblem[] = [], ran: StepOutcome[] = [], rolledBack: number[] = []): PageActResult {
  return { ok: false, error, problems, ran, rolledBack };
}

/** A field a rollback could not put back: what it holds now (Tether's leftover, never the person's draft). */
interface LeftOver {
  step: number;
  field: string;
  length: number;
  hash: string;
  /** A photo chosen in the site's file chooser: the copy the site stored (and may still show), which Tether cannot take back. */
  uploaded?: string;
  /** Why it is left over, where the numbers alone do not say. */
  why?: string;
}

interface Undone {
  restored: number[];
  leftOver: LeftOver[];
}

/** What a refusal says of the steps before it: undone only when every one was put back and read back so. */
function undoneWords(undone: Undone, ran: StepOutcome[]): string {
  if (ran.length === 0) return 'nothing had run';
  if (undone.leftOver.length === 0) return 'earlier steps were undone';
  const fields = [...new Set(undone.leftOver.map((item) => `"${item.field}"`))].join(', ');
  return `Tether could not undo its writes to ${fields}: the page still differs from before (details.leftOver)`;
}

function withLeftOver(details: Record<string, unknown>, undone: Undone): Record<string, unknown> {
  return undone.leftOver.length > 0 ? { ...details, leftOver: undone.leftOver } : details;
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
  const ran: StepOutcome[] = [];
  const snapshots = new Map<LocatedField, FieldSnapshot>();
  /** What each field read back after this plan's last write to it: later steps expect exactly that. */
  const written = new Map<LocatedField, string>();
  /** The images this plan put in, by step, in order: a rollback takes each back out. */
  const placed = new Map<number, string[]>();
  /** The text of each field an image step went into, before the plan's first write to it: an undo that took the image out must leave it so. */
  const textBefore = new Map<LocatedField, string>();
  /**
   * Puts back every field the plan wrote, latest first, each read back like a write: its images
   * taken out first (newest first: they are the latest in the editor's own history), then its text.
   * A field that already reads as it was (the write did not take) needs nothing. One that cannot be
   * put back is a leftover: said so, and remembered as Tether's, so the next act does not take it
   * for the person's draft.
   */
  const rollback = async (): Promise<Undone> => {
    const undone: Undone = { restored: [], leftOver: [] };
    for (const outcome of [...ran].reverse()) {
      const write = validation.writes.get(outcome.step);
      if (!write) continue;
      const { editable } = write.field;
      if (write.file) {
        // The chooser is emptied; what the site's script uploaded stays with the site (said so, never "undone").
        clearChoice(editable);
        const uploaded = placed.get(outcome.step)?.[0];
        if (uploaded === undefined) undone.restored.push(outcome.step);
        else undone.leftOver.push({ step: outcome.step, field: write.field.name, length: 0, hash: fieldHash(''), uploaded });
        continue;
      }
      let removed = true;
      for (const src of [...(placed.get(outcome.step) ?? [])].reverse()) removed = (await removeImage(editable, src)) && removed;
      const snapshot = snapshots.get(write.field);
      let back = removed;
      if (snapshot) {
        snapshots.delete(write.field); // the earliest snapshot restores the field once
        const unchanged = sameText(editable, readEditable(editable), snapshot.text) && readEditableHtml(editable) === snapshot.html;
        back = (unchanged || (await restoreField(editable, snapshot))) && removed;
      } else if (!write.image) continue;
      // The editor's undo took the image out; it must not have taken (or brought back) any text with it.
      const textKept = snapshot !== undefined || sameText(editable, readEditable(editable), textBefore.get(write.field) ?? '');
      if (back && textKept) {
        undone.restored.push(outcome.step);
        continue;
      }
      const text = readEditable(editable);
      rememberTetherWrite(editable.element, text);
      undone.leftOver.push({
        step: outcome.step,
        field: write.field.name,
        length: text.length,
        hash: fieldHash(text),
        ...(back && !textKept ? { why: 'the editor’s undo took the image out, but the field’s text is not what it was before the plan' } : {}),
      });
    }
    return undone;
  };

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
        const undone = await rollback();
        const message = `Step ${index + 1}: ${moved.message} Nothing was pressed; ${undoneWords(undone, ran)}.`;
        return refusal(tetherError('context_changed', message, withLeftOver(problemDetails([moved]), undone)), [moved], ran, undone.restored);
      }
      click.located.element.click();
      ran.push({ step: index, op: 'click', target: step.action, verified: true });
      continue;
    }
    const write = validation.writes.get(index);
    if (!write) continue;
    const { editable } = write.field;
    // The person may have started typing since validation: check again at the last moment.
    const typing = personIsTyping(typingSurface(editable));
    const now = readEditable(editable);
    const expectedNow = fieldExpectation({ planned: written.get(write.field) }) ?? write.expectedBefore;
    if (typing || !holdsExpected(now, expectedNow)) {
      const undone = await rollback();
      const code: ErrorCode = typing ? 'target_busy' : 'field_changed';
      const found = typing
        ? problem(index, code, `"${step.field}" is in use by the person.`, { cause: 'person' })
        : fieldChanged(index, write.field, 'while the plan ran');
      return refusal(
        tetherError(
          code,
          `Step ${index + 1}: "${step.field}" ${typing ? 'is being typed in by the person' : 'changed while the plan ran'}; ${undoneWords(undone, ran)}.`,
          withLeftOver(problemDetails([found]), undone),
        ),
        [found],
        ran,
        undone.restored,
      );
    }
    // An image step changes no text: the field's text needs no putting back, only the image taking out.
    if (!snapshots.has(write.field) && !write.image && !write.file) snapshots.set(write.field, await snapshotField(editable));
    if (!textBefore.has(write.field)) textBefore.set(write.field, now);
    const beforeHash = fieldHash(now);
    const images: string[] = [];
    placed.set(index, images);
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
          : await writeText(editable, step.op === 'fill' && step.text === '' ? 'clear' : (step.op as 'fill' | 'append' | 'clear'), write.planned);
    }
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
    if (!verified && problemWords !== null) {
      const undone = await rollback();
      const details = { editor: outcome.editor, tried: outcome.tried, field: step.field };
      return refusal(
        tetherError(
          'invalid_request',
          `Step ${index + 1}: the image did not go into "${step.field}": ${problemWords}; ${undoneWords(undone, ran)}.`,
          withLeftOver(details, undone),
        ),
        [problem(index, 'invalid_request', `The image did not go in: ${problemWords}.`, { editor: outcome.editor })],
        ran,
        undone.restored,
      );
    }
    if (!verified) {
      const undone = await rollback();
      // Nothing took: say which editor this is and what was tried (only what ran). Something else took: say so.
      const untouched = outcome.path === null;
      const details = { editor: outcome.editor, tried: outcome.tried, field: step.field, ...(outcome.why ? { why: outcome.why } : {}) };
      const earlier = undoneWords(undone, ran.slice(0, -1));
      const message = !untouched
        ? `Step ${index + 1}: the page did not keep the text written to "${step.field}"${outcome.why ? ` (${outcome.why})` : ''}; ${undoneWords(undone, ran)}.`
        : outcome.tried.length === 0 || outcome.sent === false
          ? `Step ${index + 1}: Tether did not write to "${step.field}" (the ${outcome.editor} editor): ${outcome.why ?? 'no way of writing it applies here'}; ${earlier}.`
          : `Step ${index + 1}: the ${outcome.editor} editor in "${step.field}" took the text by none of the ways Tether tried (${outcome.tried.join(', ')}); ${earlier}.`;
      return refusal(
        tetherError('invalid_request', message, withLeftOver(details, undone)),
        [
          problem(
            index,
            'invalid_request',
            !untouched
              ? 'The page rejected or rewrote the text.'
              : outcome.tried.length === 0 || outcome.sent === false
                ? 'Nothing was written.'
                : 'The editor ignored every way of writing Tether tried.',
          ),
        ],
        ran,
        undone.restored,
      );
    }
    written.set(write.field, outcome.text);
    rememberTetherWrite(editable.element, outcome.text);
  }
  return { ok: true, dryRun: false, steps: ran, clicks: clickInfos(validation), url: location.href };
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
