/** Vitest global setup: draws (or takes from TETHER_SEED) the run's property seed once and prints it. */
import type { TestProject } from 'vitest/node';
import { propertySeed, seedLine } from './propertySeed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    propertySeed: number;
  }
}

export default function setup(project: TestProject): void {
  const seed = propertySeed();
  console.log(seedLine(seed, 'Property tests (fast-check)'));
  project.provide('propertySeed', seed);
}
