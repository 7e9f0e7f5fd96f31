// Mutation testing (`npm run test:mutation`; not part of `npm test`, it is slow): StrykerJS mutates
// the pure core, the shared rules and the plan runner, and runs the unit tests (Vitest) against
// each mutant. A mutant that no test kills is a line whose breaking no test notices. The seed of
// the property tests is fixed for these runs (package.json), so every mutant meets the same inputs.
// Results: reports/mutation/ (HTML and JSON); the score and the survivors judged equivalent are in
// docs/reliability-notes.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['background/core/**/*.ts', 'shared/**/*.ts', 'content/act/runPlan.ts', 'content/act/plan*.ts', '!**/*.test.ts', '!shared/testing/**'],
  coverageAnalysis: 'perTest',
  // The machine is shared: one or two test runners at a time (STRYKER_CONCURRENCY to change).
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  ignorePatterns: ['dist', 'dist-*', 'release', 'test-results', 'bench/out', 'reports', '.tether-profile', 'e2e/screenshots', 'playwright-report'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
  timeoutMS: 10000,
};
