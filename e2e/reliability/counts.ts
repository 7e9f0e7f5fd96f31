/**
 * What the reliability suite observed, counted the same way by every scenario. The global teardown
 * (e2e/reliabilityCounts.ts) prints the totals; docs/reliability.md quotes them.
 *
 *   const counts = scenarioCounts('worker stopped between resolve and act');
 *   counts.generated(cases.length);                          // inputs fast-check drew, as sent
 *   counts.sent(attacks.length);                             // crafted inputs sent (attacks, load requests)
 *   counts.checkedWrite(await tether.agent('act', args));    // asserts it ran; counts it
 *   counts.write(envelope);                                  // asserts it ran; counts it apart
 *   counts.refused(await tether.agent('act', args), 'context_changed'); // asserts the code; counts it
 *   counts.save();                                           // the test's last line
 *
 * What each count means (a count is only ever what a call above observed, never a number typed in):
 * - scenarios: the distinct scenarios that reached save() (one that runs in Firefox too counts twice).
 * - generated inputs: inputs fast-check drew from a fresh seed (property cases, model-based
 *   commands) and the test sent, counted as they are sent.
 * - crafted inputs: inputs written into a test or made by a loop — hostile frames, messages, files,
 *   the load test's requests — counted as they are sent.
 * - writes checked against their binding: acts that ran (every step read back) after something that
 *   could have changed their binding happened since the handle was resolved or inspected — the
 *   worker stopped, the tab moved to another window, other commands interleaved — so revalidation
 *   at execution had something to catch, and let the write through to the same tab and document.
 *   A scheduled act counts when its journal record says it ran (`checkedWrite(record)`).
 * - other writes: acts that ran right after their resolve and inspect, with nothing in between
 *   that could move the binding (the load test's). Counted, but not as checked.
 * - refusals: answers refused with the code the test expected, by code. An answer with another
 *   code, or that succeeded, fails the test instead of being counted.
 *
 * A test that fails before save() records nothing: the totals are of scenarios that passed.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import type { Envelope, ToolEnvelope } from '../../shared/agent/agentProtocol.ts';
import type { ActDone } from '../../shared/agent/results.ts';
import { ok, ran, refused } from '../support/answers.ts';

export const COUNTS_FILE = join(import.meta.dirname, '..', '..', 'test-results', 'reliability-counts.jsonl');

/** One line of the counts file: one scenario that passed. */
export interface Counts {
  scenario: string;
  generated: number;
  crafted: number;
  checkedWrites: number;
  otherWrites: number;
  refusals: Record<string, number>;
}

export interface ScenarioCounts {
  /** Inputs fast-check drew that the test sent (property cases, model-based commands). */
  generated(inputs: number): void;
  /** Crafted inputs the test sent (attacks written in the test, the load test's requests). */
  sent(inputs: number): void;
  /**
   * An act that ran after something could have changed its binding: asserts it ran now (not
   * scheduled) with every step read back, counts it, and returns its result. A journal record
   * stands for a scheduled act that ran later: asserts it is an act that was done.
   */
  checkedWrite(answer: ToolEnvelope<'act'> | JournalRecord): ActDone | JournalRecord;
  /** An act that ran with nothing in between that could change its binding: asserted and counted apart. */
  write(answer: ToolEnvelope<'act'>): ActDone;
  /** Asserts the answer is refused with this code, counts it under the code, and returns the error. */
  refused(answer: Envelope, code: string): ReturnType<typeof refused>;
  /** What has been counted so far (for a test's own assertions and console lines). */
  readonly counts: Readonly<Counts>;
  /** Appends this scenario's line; call it last, once. */
  save(): void;
}

function ranAndVerified(answer: ToolEnvelope<'act'>): ActDone {
  const result = ran(ok(answer));
  expect(
    result.steps.map((step) => step.verified),
    'every step of a counted write was read back',
  ).toEqual(result.steps.map(() => true));
  return result;
}

export function scenarioCounts(scenario: string): ScenarioCounts {
  const counts: Counts = { scenario, generated: 0, crafted: 0, checkedWrites: 0, otherWrites: 0, refusals: {} };
  const count = (inputs: number) => {
    expect(Number.isInteger(inputs) && inputs >= 0, `a count of inputs (${inputs})`).toBe(true);
    return inputs;
  };
  let saved = false;
  return {
    counts,
    generated(inputs) {
      counts.generated += count(inputs);
    },
    sent(inputs) {
      counts.crafted += count(inputs);
    },
    checkedWrite(answer) {
      if ('tool' in answer) {
        expect({ tool: answer.tool, outcome: answer.outcome }, 'a journal record of an act that ran').toEqual({ tool: 'act', outcome: 'done' });
        counts.checkedWrites += 1;
        return answer;
      }
      const result = ranAndVerified(answer);
      counts.checkedWrites += 1;
      return result;
    },
    write(answer) {
      const result = ranAndVerified(answer);
      counts.otherWrites += 1;
      return result;
    },
    refused(answer, code) {
      const error = refused(answer, code);
      counts.refusals[code] = (counts.refusals[code] ?? 0) + 1;
      return error;
    },
    save() {
      if (saved) throw new Error(`counts of "${scenario}" saved twice`);
      saved = true;
      mkdirSync(dirname(COUNTS_FILE), { recursive: true });
      // The same scenario run in Firefox is a scenario of its own.
      const project = test.info().project.name;
      const name = project.startsWith('firefox') ? `${project}: ${scenario}` : scenario;
      appendFileSync(COUNTS_FILE, `${JSON.stringify({ ...counts, scenario: name })}\n`);
    },
  };
}
