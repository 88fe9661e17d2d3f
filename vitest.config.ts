import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built binary and servers; two cores, so keep it modest.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    // (the second run of `npm test`, on PostgreSQL, writes a report of its own)
    reporters: [
      'default',
      ['json', { outputFile: process.env.CHAMBERCTL_TEST_BACKEND === 'postgres' ? '.test-results-postgres.json' : '.test-results.json' }],
    ],
  },
});
