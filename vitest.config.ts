import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built binary and servers; two cores, so keep it modest.
    maxWorkers: 2,
  },
});
