import { configDefaults, defineConfig } from 'vitest/config';

// Which run this is: `npm test` (SQLite), its second run on PostgreSQL, or the real-shell
// completion tests (`npm run test:shells`, which need bash, zsh and fish installed).
const run = process.env.CHAMBERCTL_TEST_SHELLS ? 'shells' : process.env.CHAMBERCTL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const SHELL_TESTS = 'test/completion/shells.test.ts';
// Tests of a shared deployment, always on PostgreSQL whatever the pass: run once, in its pass.
const POSTGRES_ONLY = ['test/e2e/outage.test.ts', 'test/e2e/shared-deployment.test.ts'];

export default defineConfig({
  test: {
    include: run === 'shells' ? [SHELL_TESTS] : ['test/**/*.test.ts'],
    exclude: run === 'shells' ? configDefaults.exclude : [...configDefaults.exclude, SHELL_TESTS, ...(run === 'sqlite' ? POSTGRES_ONLY : [])],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built binary and servers; two cores, so keep it modest.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line: one
    // report per run and runtime (.ci/run runs the suite on every runtime of `engines`).
    reporters: ['default', ['json', { outputFile: `.test-results-${run}-node${process.versions.node.split('.')[0]}.json` }]],
  },
});
