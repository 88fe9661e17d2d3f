// One V8 code cache directory per test run for the built binary's runs (test/helpers/cli.ts),
// removed at the end.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  process.env.CHAMBERCTL_TEST_RUN ??= String(process.pid);
  const dir = join(tmpdir(), `chamberctl-test-code-cache-${process.env.CHAMBERCTL_TEST_RUN}`);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
