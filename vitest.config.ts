import { configDefaults, defineConfig } from 'vitest/config';

// Which run this is: `npm test` (SQLite), its second run on PostgreSQL, the real-shell
// completion tests (`npm run test:shells`, which need bash, zsh and fish installed), the
// single executable's smoke suite (`npm run test:binary`, which builds it first), or the
// inner loop (`npm run test:unit`: no PostgreSQL, no browser, no built binary or serve process).
const run = process.env.CHAMBERCTL_TEST_SHELLS
  ? 'shells'
  : process.env.CHAMBERCTL_TEST_BINARY
    ? 'binary'
    : process.env.CHAMBERCTL_TEST_UNIT
    ? 'unit'
    : process.env.CHAMBERCTL_TEST_BACKEND === 'postgres'
      ? 'postgres'
      : 'sqlite';
const SHELL_TESTS = 'test/completion/shells.test.ts';
const BINARY_TESTS = 'test/binary/**';
// Tests of a shared deployment, always on PostgreSQL whatever the pass: run once, in its pass.
const POSTGRES_ONLY = ['test/e2e/outage.test.ts', 'test/e2e/shared-deployment.test.ts', 'test/e2e/deployment.test.ts'];
// Run once, in the SQLite pass: the docs' examples, whose pages show the default (SQLite) database.
const SQLITE_ONLY = ['test/e2e/doc-examples.test.ts'];
// Left out of test:unit: the end-to-end and HTTP suites, the package, the generated client,
// the completion scripts, and every test that needs PostgreSQL (pg-*, and those below).
const NOT_UNIT = [
  'test/e2e/**',
  'test/server/**',
  'test/packaging/**',
  'test/openapi-client/**',
  'test/completion/scripts.test.ts',
  'test/storage/pg-*.test.ts',
  'test/storage/allowed-values.test.ts',
  'test/storage/snapshot.test.ts',
  'test/storage/unavailable.test.ts',
  'test/storage/threaded-copy.test.ts',
];

export default defineConfig({
  test: {
    include: run === 'shells' ? [SHELL_TESTS] : run === 'binary' ? [BINARY_TESTS] : ['test/**/*.test.ts'],
    exclude:
      run === 'shells' || run === 'binary'
        ? configDefaults.exclude
        : [...configDefaults.exclude, SHELL_TESTS, BINARY_TESTS, ...(run === 'sqlite' || run === 'unit' ? POSTGRES_ONLY : []), ...(run === 'postgres' ? SQLITE_ONLY : []), ...(run === 'unit' ? NOT_UNIT : [])],
    globalSetup: ['test/global-setup.ts'],
    // Generous: a test's own waits are for events, and on a machine busy with another suite an
    // end-to-end test that starts several servers took over 30 s (2026-11-28); a hang still ends.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built binary and servers; two cores, so keep it modest.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line: one
    // report per run and runtime (.ci/run runs the suite on every runtime of `engines`).
    reporters: ['default', ['json', { outputFile: `.test-results-${run}-node${process.versions.node.split('.')[0]}.json` }]],
  },
});
