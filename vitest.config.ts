import { defineConfig } from 'vitest/config';

/** Unit tests: the pure core (resolver, revalidation, plan checks, protocol) and the bridge, in Node. */
export default defineConfig({
  // As the product build has it (vite.config.ts): the demo sites' adapters and allowances are off.
  define: { __TETHER_TEST_SITES__: 'false' },
  test: {
    include: ['background/**/*.test.ts', 'shared/**/*.test.ts', 'bridge/**/*.test.ts', 'content/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
  },
});
