/**
 * The seed of a reliability property test: fresh each run, printed, and named in any failure, so
 * the failing inputs can be drawn again (`TETHER_SEED=<n> npx playwright test <spec>`).
 */
import { test } from '@playwright/test';
import { propertySeed, seedLine } from '../../shared/testing/propertySeed.ts';

/** Runs `body` with the run's seed; a failure's message ends with the seed to replay. */
export async function withSeed<T>(what: string, body: (seed: number) => Promise<T>): Promise<T> {
  const seed = propertySeed();
  const line = seedLine(seed, what);
  console.log(line);
  test.info().annotations.push({ type: 'seed', description: line });
  try {
    return await body(seed);
  } catch (error) {
    if (error instanceof Error) {
      // Reporters print the message or the stack: both name the seed.
      error.message = `${error.message}\n\n${line}`;
      if (error.stack) error.stack = `${error.stack}\n\n${line}`;
    }
    throw error;
  }
}
