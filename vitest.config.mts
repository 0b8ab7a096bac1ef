import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/live/**', 'test/real/**', 'node_modules/**'],
    // Offline guard and openapi.yaml response checks for every test file.
    setupFiles: ['test/support/setup.ts'],
    // Fails the run when a test wrote into the working tree (test/support/clean-tree.ts).
    globalSetup: ['test/support/clean-tree.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers even on two cores (vitest's default there is one): most of a test's time is
    // spent waiting on sockets, child processes and deadlines, which another file can use.
    maxWorkers: 2,
  },
});
