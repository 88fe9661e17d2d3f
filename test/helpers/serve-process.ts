import { execa, type ResultPromise } from 'execa';
import { BIN, cleanEnv } from './cli.js';
import { recordServeAnswers, type ServeRecording } from './serve-conformance.js';
import { keepLog } from './run-logs.js';

export interface ServeProcess {
  proc: ResultPromise;
  baseUrl: string;
  /** stdout and stderr so far */
  output(): { stdout: string; stderr: string };
  /** Stops the process; throws when an answer it gave did not conform to its OpenAPI document. */
  stop(signal?: NodeJS.Signals): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }>;
}

/**
 * The built `chamberctl serve`, started and not waited for (as a supervisor starts it), its
 * output collected and its log kept for the run's secret scan; every answer it gives is
 * recorded, to be checked once `recording.watch` has its documents.
 */
export function spawnServe(args: string[], env: Record<string, string>): { proc: ResultPromise; recording: ServeRecording; output(): { stdout: string; stderr: string } } {
  const recording = recordServeAnswers(env);
  const proc = execa(process.execPath, [BIN, 'serve', ...args], {
    env: { ...cleanEnv(), ...env, ...recording.env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  void proc.then(() => keepLog(`serve-${proc.pid}`, stderr)); // scanned for secrets at the end of the run
  return { proc, recording, output: () => ({ stdout, stderr }) };
}

/**
 * Runs the built `chamberctl serve` and waits for the line that names its URL. Every answer
 * it gives is checked against its OpenAPI documents when it ends (serve-conformance.ts).
 */
export async function startServeProcess(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const { proc, recording, output } = spawnServe(args, env);
  const stderr = () => output().stderr;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output().stdout}\n${stderr()}`)), 20_000);
    const check = () => {
      const m = /(?:listening on |"base_url":")(http:\/\/[^\s"]+)/.exec(output().stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    void proc.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited early:\n${output().stdout}\n${stderr()}`));
    });
  });
  const check = await recording.watch(proc, baseUrl);
  return {
    proc,
    baseUrl,
    output,
    async stop(signal = 'SIGTERM') {
      check.stopping();
      // as a supervisor signals it: execa's own kill() would add a SIGKILL 5 s later, which
      // a serve that drains before it stops (serve --drain) outlasts
      try {
        process.kill(proc.pid!, signal);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e; // it has exited already
      }
      const r = await proc;
      await check.report();
      return { exitCode: r.exitCode, ...output() };
    },
  };
}

/**
 * serve's log (stderr) as readable lines: the message of each JSON line, with `warning: ` or
 * `error: ` before those of that level, and a request line as `GET /path 200`. Any line that
 * is not JSON is an error of the test (serve's log is JSON lines off a terminal).
 */
export function logMessages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\(node:\d+\)|^\(Use `node --trace/.test(l))
    .map((l) => {
      let entry: { level: number; msg: string; req?: { method: string; url: string }; res?: { statusCode: number } };
      try {
        entry = JSON.parse(l);
      } catch {
        throw new Error(`serve wrote a log line that is not JSON: ${l}`);
      }
      if (entry.req && entry.res) return `${entry.req.method} ${entry.req.url} ${entry.res.statusCode}`;
      return `${entry.level >= 50 ? 'error: ' : entry.level >= 40 ? 'warning: ' : ''}${entry.msg}`;
    });
}
