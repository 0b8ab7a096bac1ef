import { defineConfig } from 'vitest/config';

// `npm run test:live`: the pre-flight endpoints against real chains (public endpoints, or the
// chopsticks/fork URLs in LIVE_WS_* variables). Never part of `npm test` (vitest.config.mts excludes test/live).
export default defineConfig({
  test: {
    include: ['test/live/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
