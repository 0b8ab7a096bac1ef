import { defineConfig } from 'vitest/config';

// `npm run test:real`: our call data on real runtimes (chopsticks running the chain specs in the
// folder REALRUN_SPECS_DIR names; test/support/real-network.ts). Never part of `npm test`
// (vitest.config.mts excludes test/real). Without the folder it says so in one line and skips.
export default defineConfig({
  test: {
    include: ['test/real/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    globalSetup: ['test/support/clean-tree.ts', 'test/real/specs-check.ts'],
    // Starting the runtimes takes about a minute on a busy machine; each transfer builds a few blocks.
    testTimeout: 180_000,
    hookTimeout: 400_000,
    pool: 'forks',
    // One file at a time: each starts its own chains, and a runtime's blocks take a core.
    fileParallelism: false,
  },
});
