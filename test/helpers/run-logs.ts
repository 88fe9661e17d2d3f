// Every log line the test run's servers write (in-process servers and `serve` processes),
// kept in one directory per run, and every secret and token the tests sent or received, so
// that the end of the run can check that no log line holds one (docs/operations/shared-deployment.md#logs: no log line
// holds a secret, a token or an Authorization header). test/global-setup.ts scans them.
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = () => join(tmpdir(), `chamberctl-test-logs-${process.env.CHAMBERCTL_TEST_RUN ?? process.pid}`);
const SECRETS = 'secrets.txt';

function append(file: string, text: string): void {
  mkdirSync(dir(), { recursive: true, mode: 0o700 });
  appendFileSync(join(dir(), file), text, { mode: 0o600 });
}

/** Keeps a server's log (`source` names it in a failure) for the end-of-run scan. */
export function keepLog(source: string, text: string): void {
  if (text !== '') append(`${source.replace(/[^\w.-]/g, '_')}.log`, text.endsWith('\n') ? text : `${text}\n`);
}

/** A secret or token the test used: no log line may hold it. */
export function noteSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= 8) append(SECRETS, `${value}\n`);
}

/** Whatever a line must never show, whichever secret it is. */
const ALWAYS = [/"authorization":"(?!\[redacted\])/i, /Bearer [A-Za-z0-9._~+/-]{16,}/, /"client_secret":"(?!\[redacted\])/];

/** The log lines that hold a noted secret or token, or an Authorization header; each as `file: what` (never the secret itself). */
export function scanRunLogs(): { files: number; lines: number; leaks: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir());
  } catch {
    return { files: 0, lines: 0, leaks: [] };
  }
  const secrets = names.includes(SECRETS) ? [...new Set(readFileSync(join(dir(), SECRETS), 'utf8').split('\n').filter(Boolean))] : [];
  const leaks: string[] = [];
  let lines = 0;
  const logs = names.filter((n) => n.endsWith('.log'));
  for (const name of logs) {
    for (const [i, line] of readFileSync(join(dir(), name), 'utf8').split('\n').entries()) {
      if (line === '') continue;
      lines++;
      if (ALWAYS.some((re) => re.test(line))) leaks.push(`${name}:${i + 1}: an Authorization header, a bearer token or a client_secret`);
      else if (secrets.some((s) => line.includes(s))) leaks.push(`${name}:${i + 1}: a secret or token a test used`);
    }
  }
  return { files: logs.length, lines, leaks };
}

export const runLogDir = dir;
