// Runs the built binary on a pseudo-terminal (util-linux `script`), so that stdin, stdout and
// stderr are all a TTY, as in a person's terminal; answers prompts as they appear.
import { execa } from 'execa';
import { BIN, cleanEnv } from './cli.js';

export interface PtyStep {
  /** Wait until the output (so far) matches this, then type `send`. */
  when: RegExp;
  send: string;
}

export const KEY = { enter: '\r', down: '\u001b[B', up: '\u001b[A' };

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `chamberctl args` on a terminal, typing each step's text once its prompt shows. */
export async function runOnPty(args: string[], opts: { configDir: string; steps: PtyStep[]; timeoutMs?: number; columns?: number }) {
  // sized as a person's terminal is: a pty nobody sized says 0 columns and 0 rows
  const command = `stty cols ${opts.columns ?? 100} rows 40 2>/dev/null; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const proc = execa('script', ['-qfec', command, '/dev/null'], {
    env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: opts.configDir, TERM: 'xterm', COLUMNS: String(opts.columns ?? 100), LINES: '40' },
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    buffer: false,
    timeout: opts.timeoutMs ?? 20_000,
  });
  let output = '';
  const steps = [...opts.steps];
  let from = 0; // each step's prompt is looked for after the previous answer
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    const next = steps[0];
    if (next && next.when.test(output.slice(from))) {
      steps.shift();
      from = output.length;
      setTimeout(() => proc.stdin!.write(next.send), 50);
    }
  });
  const result = await proc;
  // strip the terminal's control sequences for assertions
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  return { exitCode: result.exitCode ?? -1, output: plain, unanswered: steps.length };
}
