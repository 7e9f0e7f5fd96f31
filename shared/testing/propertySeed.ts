/**
 * One seed for a run's property tests: fresh each run (so runs explore different inputs), printed,
 * and replayable. `TETHER_SEED=<n>` replays a run; fast-check names the seed (and the shrunk
 * path) of any failure it finds, so a failure can be replayed from its own message.
 */
export const SEED_VARIABLE = 'TETHER_SEED';

/** The seed given in TETHER_SEED, or a fresh 31-bit one. */
export function propertySeed(environment: Record<string, string | undefined> = process.env): number {
  const given = environment[SEED_VARIABLE];
  if (given === undefined || given.trim() === '') return Math.floor(Math.random() * 0x7fffffff);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`${SEED_VARIABLE} must be an integer (the seed a run printed), not "${given}".`);
  return seed | 0;
}

/** The line a run prints, naming how to replay it. */
export function seedLine(seed: number, what: string): string {
  return `${what}: seed ${seed} (replay with ${SEED_VARIABLE}=${seed})`;
}
