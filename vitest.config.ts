import { defineConfig } from 'vitest/config';

/** Unit tests: the pure core (resolver, revalidation, plan checks, protocol) and the bridge, in Node. */
export default defineConfig({
  test: {
    include: ['background/**/*.test.ts', 'shared/**/*.test.ts', 'bridge/**/*.test.ts', 'content/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
  },
});
