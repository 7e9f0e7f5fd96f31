/**
 * What the reliability suite checked, summed across its tests: scenarios run, generated inputs
 * (property-test cases, model commands, load requests) and writes checked against their binding.
 * Each test appends a line; the global teardown prints the totals (README quotes them).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '@playwright/test';

export const COUNTS_FILE = join(import.meta.dirname, '..', '..', 'test-results', 'reliability-counts.jsonl');

export interface Counts {
  scenario: string;
  inputs?: number;
  writes?: number;
}

export function recordCounts(counts: Counts): void {
  mkdirSync(dirname(COUNTS_FILE), { recursive: true });
  // The same scenario run in Firefox is a scenario of its own.
  const project = test.info().project.name;
  const scenario = project.startsWith('firefox') ? `${project}: ${counts.scenario}` : counts.scenario;
  appendFileSync(COUNTS_FILE, `${JSON.stringify({ ...counts, scenario })}\n`);
}
