// One V8 code cache directory per test run for the built binary's runs (test/helpers/cli.ts),
// removed at the end; and the scan of every server log of the run for secrets.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLogDir, scanRunLogs } from './helpers/run-logs.js';

export default function setup() {
  process.env.CHAMBERCTL_TEST_RUN ??= String(process.pid);
  const dir = join(tmpdir(), `chamberctl-test-code-cache-${process.env.CHAMBERCTL_TEST_RUN}`);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    // docs/operations/shared-deployment.md#logs: no log line holds a secret, a token or an Authorization header; every
    // server this run started kept its log in runLogDir()
    const { files, lines, leaks } = scanRunLogs();
    await rm(runLogDir(), { recursive: true, force: true });
    if (leaks.length) {
      // vitest reports an error thrown here but still exits 0: the exit code is set by hand
      console.error(`log scan: ${leaks.length} log lines of this run hold a secret or token:\n${leaks.slice(0, 20).join('\n')}`);
      process.exitCode = 1;
      return;
    }
    console.log(`log scan: ${lines} lines of ${files} server logs, no secret or token`);
  };
}
