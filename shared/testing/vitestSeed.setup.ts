/** Vitest setup file: every fast-check property in this run starts from the run's seed (vitestSeed.global.ts). */
import fc from 'fast-check';
import { inject } from 'vitest';
import './vitestSeed.global.ts';

fc.configureGlobal({ seed: inject('propertySeed') });
