// The conformance check of a `serve` process the tests start (test/helpers/serve-process.ts):
// the process records every answer it gives (record-exchanges.mjs, loaded through
// NODE_OPTIONS), and when it ends, however it ends, the answers are checked against the
// OpenAPI documents it published (test/helpers/conformance.ts). So the requests of the built
// CLI count too, as they do for in-process servers (test/helpers/server.ts).
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { onTestFinished } from 'vitest';
import { checkRecordedExchanges, Conformance, watchServeProcess, type Documents } from './conformance.js';

const RECORDER = new URL('./record-exchanges.mjs', import.meta.url).href;
let started = 0;

export interface ServeRecording {
  /** To add to the process's environment: the recorder and the file it writes. */
  env: Record<string, string>;
  /** Once the process listens: fetches its documents, and checks its answers when it ends. */
  watch(proc: ResultPromise, baseUrl: string): Promise<ServeCheck>;
}

export interface ServeCheck {
  /** Before stopping the process: stop() reports what the check finds. */
  stopping(): void;
  /** Once the process has ended: throws when an answer did not conform (once per process). */
  report(): Promise<void>;
}

/** A recording for one process; `env` is the environment the test gives it. */
export function recordServeAnswers(env: Record<string, string>): ServeRecording {
  const file = join(tmpdir(), `chamberctl-exchanges-${process.pid}-${++started}.jsonl`);
  const inherited = env.NODE_OPTIONS ?? process.env.NODE_OPTIONS;
  return {
    env: { CHAMBERCTL_TEST_EXCHANGES: file, NODE_OPTIONS: [inherited, `--import=${RECORDER}`].filter(Boolean).join(' ') },
    async watch(proc, baseUrl) {
      const docs = await publishedDocuments(baseUrl).catch((err: unknown) => {
        proc.kill('SIGKILL');
        throw err;
      });
      watchServeProcess(baseUrl, docs); // what `call` receives is checked at once, too
      const conformance = new Conformance(baseUrl, docs);
      const verdict = proc.then(() => {
        try {
          return checkRecordedExchanges(conformance, readRecorded(file), `serve at ${baseUrl}`);
        } catch (err) {
          return err as Error;
        } finally {
          rmSync(file, { force: true });
        }
      });
      // Reported once, by the first of: stop(); the end of the test that started the process,
      // when it ended during that test (a kill, a crash); else an uncaught error of the run
      // (started in a beforeAll and killed without stop()), which names the test file.
      let reported = false;
      let stopping = false;
      let inItsTest = false;
      const report = async () => {
        const err = await verdict;
        if (err && !reported) {
          reported = true;
          throw err;
        }
      };
      try {
        onTestFinished(async () => {
          inItsTest = false;
          if (proc.exitCode !== null || proc.signalCode !== null) await report();
        });
        inItsTest = true;
      } catch {
        // not started in a test
      }
      void verdict.then((err) => {
        if (!err || reported || stopping || inItsTest) return;
        reported = true;
        process.nextTick(() => {
          throw new Error(`serve at ${baseUrl} ended without stop(), outside the test that started it: ${err.message}`);
        });
      });
      return { stopping: () => void (stopping = true), report };
    },
  };
}

/** The documents a running server publishes at /v1/openapi.json and /v2/openapi.json. */
async function publishedDocuments(baseUrl: string): Promise<Documents> {
  const [v1, v2] = await Promise.all(
    (['v1', 'v2'] as const).map(async (v) => {
      const res = await fetch(`${baseUrl}/${v}/openapi.json`);
      if (res.status !== 200) throw new Error(`GET ${baseUrl}/${v}/openapi.json answered ${res.status}`);
      return (await res.json()) as Documents['v1'];
    }),
  );
  return { v1: v1!, v2: v2! };
}

function readRecorded(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ''; // not one answer
    throw err;
  }
}
