import { defineConfig } from 'vitest/config';

/**
 * Unit tests: the pure core (resolver, revalidation, plan checks, protocol) and the bridge, in Node.
 * Property tests draw a fresh seed per run, printed at the start; TETHER_SEED=<n> replays one.
 */
export default defineConfig({
  // As the product build has it (vite.config.ts): the demo sites' adapters and allowances are off.
  define: { __TETHER_TEST_SITES__: 'false' },
  test: {
    include: ['background/**/*.test.ts', 'shared/**/*.test.ts', 'bridge/**/*.test.ts', 'content/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The property tests run thousands of cases; on a shared 2-core machine, and under Stryker's
    // instrumented code, 5 s is not enough for them.
    testTimeout: 30_000,
    globalSetup: ['shared/testing/vitestSeed.global.ts'],
    setupFiles: ['shared/testing/vitestSeed.setup.ts'],
  },
});
