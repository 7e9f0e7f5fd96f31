/**
 * What a running plan has done, and the one way it stops part way (runPlan.ts step 2): every field
 * it wrote is put back, latest first, each read back like a write, and the refusal says what ran,
 * what was undone and what could not be.
 */
import { tetherError, type ErrorCode, type TetherError } from '../../shared/errors.ts';
import { fieldHash } from '../../shared/page/fieldText.ts';
import type { PageActResult, PlanProblem, StepOutcome } from '../../shared/page/pageProtocol.ts';
import { rememberTetherWrite } from './actHost.ts';
import { readEditable, readEditableHtml } from '../editables.ts';
import { removeImage, removesByUndo, withoutCaretFillers } from '../editors/image.ts';
import { clearChoice } from '../editors/fileInput.ts';
import type { LocatedField } from '../pageModel.ts';
import { undoneWords, withLeftOver, type Undone } from './planProblems.ts';
import type { PlannedWrite } from './planSteps.ts';
import { fieldImages, photosMissing, restoreField, sameText, snapshotField, type FieldSnapshot } from './writeField.ts';

export function refusal(error: TetherError, problems: PlanProblem[] = [], ran: StepOutcome[] = [], rolledBack: number[] = []): PageActResult {
  return { ok: false, error, problems, ran, rolledBack };
}

/** How a plan stops part way: the error's code, its problems and details, and its message given what the rollback did. */
export interface Abort {
  code: ErrorCode;
  problems: PlanProblem[];
  details: Record<string, unknown>;
  /**
   * The message, given what the refusal says of the steps that ran: `all` counts the step that
   * failed, `before` only the steps before it (for a write that did not happen at all).
   */
  message: (undone: { all: string; before: string }) => string;
}

/** A leftover's words for photos a restore did not bring back. */
function photosWhy(lost: number, textBack: boolean): string {
  const photos = `${lost} photo${lost === 1 ? '' : 's'} the field held before`;
  const verb = lost === 1 ? 'is' : 'are';
  return textBack ? `the text is back, but ${photos} ${verb} not` : `neither the text nor ${photos} ${verb} back`;
}

export class PlanLedger {
  /** The steps that ran, in order (a failed write included: it may have left something). */
  readonly ran: StepOutcome[] = [];
  /** Each field's text and markup before the plan's first write to it. */
  private readonly snapshots = new Map<LocatedField, FieldSnapshot>();
  /** The images this plan put in, by step, in order: a rollback takes each back out. */
  private readonly placed = new Map<number, string[]>();
  /** Each field's text before the plan's first write to it: an undo that took an image out must leave it so. */
  private readonly textBefore = new Map<LocatedField, string>();

  private readonly writes: ReadonlyMap<number, PlannedWrite>;

  constructor(writes: ReadonlyMap<number, PlannedWrite>) {
    this.writes = writes;
  }

  /** Before a write: keeps the field as it was, once (an image step changes no text: it needs only its images taken out, or its chooser emptied). */
  async before(write: PlannedWrite): Promise<void> {
    if (!this.textBefore.has(write.field)) this.textBefore.set(write.field, readEditable(write.field.editable));
    if (!this.snapshots.has(write.field) && !write.image && !write.file) this.snapshots.set(write.field, await snapshotField(write.field.editable));
  }

  /** The list a step's placed images go into (its srcs, as the editor named them). */
  imagesOf(step: number): string[] {
    const images: string[] = [];
    this.placed.set(step, images);
    return images;
  }

  /**
   * Puts back every field the plan wrote, latest first, each read back like a write: its images
   * taken out first (newest first: they are the latest in the editor's own history), then its text.
   * A field that already reads as it was (the write did not take) needs nothing. One that cannot be
   * put back is a leftover: said so, and remembered as Tether's, so the next act does not take it
   * for the person's draft.
   */
  async rollback(): Promise<Undone> {
    const undone: Undone = { restored: [], leftOver: [] };
    for (const outcome of [...this.ran].reverse()) {
      const write = this.writes.get(outcome.step);
      if (!write) continue;
      const { editable } = write.field;
      if (write.file) {
        // The chooser is emptied; what the site's script uploaded stays with the site (said so, never "undone").
        clearChoice(editable);
        const uploaded = this.placed.get(outcome.step)?.[0];
        if (uploaded === undefined) undone.restored.push(outcome.step);
        else undone.leftOver.push({ step: outcome.step, field: write.field.name, length: 0, hash: fieldHash(''), uploaded });
        continue;
      }
      let removed = true;
      for (const src of [...(this.placed.get(outcome.step) ?? [])].reverse()) {
        // A family's removal that throws (page data it did not expect) is one image not taken out, not a rollback stopped half-way.
        removed = (await removeImage(editable, src).catch(() => false)) && removed;
      }
      const snapshot = this.snapshots.get(write.field);
      let back = removed;
      let lostPhotos = 0;
      if (snapshot) {
        this.snapshots.delete(write.field); // the earliest snapshot restores the field once
        const unchanged = sameText(editable, readEditable(editable), snapshot.text) && readEditableHtml(editable) === snapshot.html;
        back = (unchanged || (await restoreField(editable, snapshot))) && removed;
        // A restore is read back by its text; the photos the field held before are counted too
        // (a block editor's restore of allowlisted markup does not bring an image block back).
        lostPhotos = photosMissing(snapshot.images, fieldImages(editable));
      } else if (!write.image) continue;
      // The editor's undo took the image out; it must not have taken (or brought back) any text with it.
      // (A family's own removal through its model, e.g. SmartEditor ONE's, is read back by that family.)
      // (The caret's fillers the editor renders beside the photo its undo selected are no text.)
      const textKept =
        snapshot !== undefined ||
        !removesByUndo(editable) ||
        sameText(editable, withoutCaretFillers(readEditable(editable)), withoutCaretFillers(this.textBefore.get(write.field) ?? ''));
      if (back && textKept && lostPhotos === 0) {
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
        ...(!(back && !textKept) && lostPhotos > 0 ? { why: photosWhy(lostPhotos, back && textKept) } : {}),
      });
    }
    return undone;
  }

  /** Stops the plan: rolls back what ran, and refuses saying so. */
  async abort(stop: Abort): Promise<PageActResult> {
    const undone = await this.rollback();
    const words = { all: undoneWords(undone, this.ran), before: undoneWords(undone, this.ran.slice(0, -1)) };
    return refusal(tetherError(stop.code, stop.message(words), withLeftOver(stop.details, undone)), stop.problems, this.ran, undone.restored);
  }
}
