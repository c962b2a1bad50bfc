import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'frameworks/**/*.test.ts'],
    // LevelDB, worker pools and child processes: keep parallelism within the 2-core machines.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // one PostgreSQL server for the run: the store's behaviour suite runs on it too
    globalSetup: ['test/setup/postgres.ts'],
  },
});
