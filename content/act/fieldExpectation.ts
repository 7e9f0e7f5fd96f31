/**
 * The plan-expectation rule, pure: before a step writes a field, the field must still hold what the
 * plan expects it to hold — otherwise someone (the person, the page) changed it since, and the
 * write is refused (`field_changed`) instead of overwriting their work. runPlan.ts applies it twice:
 * when it validates the plan, and again right before each write.
 */
import { fieldHash } from '../../shared/page/fieldText.ts';

/** What a field should hold: the text when it is known, else only its hash (from an inspect). */
export interface FieldExpectation {
  text: string | null;
  hash: string;
}

export interface ExpectationSources {
  /** What this plan's earlier steps left in the field (predicted at validation, read back while running). */
  planned?: string | undefined;
  /** What the step itself says the field holds. */
  expect?: { text?: string | undefined; hash?: string | undefined } | undefined;
  /** The hash the handle's last inspect saw. */
  inspected?: string | undefined;
}

function ofText(text: string): FieldExpectation {
  return { text, hash: fieldHash(text) };
}

/**
 * What a step expects, by precedence: an earlier step of the same plan, then the step's
 * `expect.text`, its `expect.hash`, then the last inspect. Null: nothing says (the plan must).
 */
export function fieldExpectation(sources: ExpectationSources): FieldExpectation | null {
  if (sources.planned !== undefined) return ofText(sources.planned);
  if (sources.expect?.text !== undefined) return ofText(sources.expect.text);
  if (sources.expect?.hash !== undefined) return { text: null, hash: sources.expect.hash };
  if (sources.inspected !== undefined) return { text: null, hash: sources.inspected };
  return null;
}

/** The rule: the field's current text is what was expected (compared as inspect hashes it). */
export function holdsExpected(current: string, expected: FieldExpectation): boolean {
  return fieldHash(current) === (expected.text !== null ? fieldHash(expected.text) : expected.hash);
}
