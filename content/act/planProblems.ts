/**
 * The words of a plan's refusals (runPlan.ts), pure but for who last edited a field: each problem a
 * step has, the details every refusal carries, and what a refusal says of the steps before it.
 */
import { tetherError, type ErrorCode, type TetherError } from '../../shared/errors.ts';
import type { ClickPin, SeenElement } from '../../shared/page/elementBinding.ts';
import type { PlanProblem, StepOutcome } from '../../shared/page/pageProtocol.ts';
import { lastEditBy } from './actHost.ts';
import { typingSurface } from '../editables.ts';
import type { LocatedField } from '../pageModel.ts';

export function problem(step: number, code: ErrorCode, message: string, extra: Pick<PlanProblem, 'changed' | 'cause' | 'editor'> = {}): PlanProblem {
  return { step, code, message, ...extra };
}

/** A click whose button is not the one the dry run validated (and the person approved). */
export function movedElement(step: number, action: string, drift: string[], pin: ClickPin | undefined, seen: SeenElement): PlanProblem {
  const what = drift.includes('unpinned')
    ? 'Tether has no record of which button was validated for it'
    : drift.includes('element')
      ? 'another element on the page now has its name'
      : `it was changed (label “${pin?.label ?? ''}” → “${seen.label}”)`;
  return problem(step, 'context_changed', `The “${action}” button is not the one validated and approved: ${what}.`, { changed: ['element'] });
}

/** A field_changed problem that says who changed the field, when Tether saw it. */
export function fieldChanged(step: number, field: LocatedField, when: string): PlanProblem {
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

/** Details every refusal of a plan carries: the problems, what changed, and whether the page did it. */
export function problemDetails(problems: PlanProblem[]): Record<string, unknown> {
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

/** The refusal of a plan validation found problems in: one code when they agree, and nothing ran. */
export function summarize(problems: PlanProblem[]): TetherError {
  const codes = [...new Set(problems.map((item) => item.code))];
  const code: ErrorCode = codes.length === 1 ? (codes[0] as ErrorCode) : 'invalid_request';
  const first = problems[0];
  const message =
    problems.length === 1 && first
      ? `Step ${first.step + 1}: ${first.message} Nothing ran.`
      : `${problems.length} problems in the plan; nothing ran. Fix them all and send the plan again.`;
  return tetherError(code, message, problemDetails(problems));
}

/** A field a rollback could not put back: what it holds now (Tether's leftover, never the person's draft). */
export interface LeftOver {
  step: number;
  field: string;
  length: number;
  hash: string;
  /** A photo chosen in the site's file chooser: the copy the site stored (and may still show), which Tether cannot take back. */
  uploaded?: string;
  /** Why it is left over, where the numbers alone do not say. */
  why?: string;
}

export interface Undone {
  restored: number[];
  leftOver: LeftOver[];
}

/** What a refusal says of the steps before it: undone only when every one was put back and read back so. */
export function undoneWords(undone: Undone, ran: StepOutcome[]): string {
  if (ran.length === 0) return 'nothing had run';
  if (undone.leftOver.length === 0) return 'earlier steps were undone';
  const fields = [...new Set(undone.leftOver.map((item) => `"${item.field}"`))].join(', ');
  return `Tether could not undo its writes to ${fields}: the page still differs from before (details.leftOver)`;
}

export function withLeftOver(details: Record<string, unknown>, undone: Undone): Record<string, unknown> {
  return undone.leftOver.length > 0 ? { ...details, leftOver: undone.leftOver } : details;
}
