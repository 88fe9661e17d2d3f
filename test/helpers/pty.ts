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
export async function runOnPty(args: string[], opts: { configDir: string; steps: PtyStep[]; timeoutMs?: number; columns?: number; env?: Record<string, string> }) {
  // sized as a person's terminal is: a pty nobody sized says 0 columns and 0 rows
  const command = `stty cols ${opts.columns ?? 100} rows 40 2>/dev/null; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const proc = execa('script', ['-qfec', command, '/dev/null'], {
    env: { ...cleanEnv(), ...opts.env, CHAMBERCTL_CONFIG_DIR: opts.configDir, TERM: 'xterm', COLUMNS: String(opts.columns ?? 100), LINES: '40' },
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
  return { exitCode: result.exitCode ?? -1, output: plain, raw: output, unanswered: steps.length };
}

/**
 * What a terminal shows once `raw` (a pty's output) has been written to it, as lines without
 * trailing blanks: enough of a VT100 for what readline and inquirer write (cursor moves,
 * erasing lines and the screen below, colours ignored), so that a test can tell text that
 * was drawn and then erased from text that stays. The screen grows downwards without end.
 */
export function screenOf(raw: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  // eslint-disable-next-line no-control-regex
  const tokens = raw.match(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[^[]|[\s\S]/gu) ?? [];
  for (const t of tokens) {
    const csi = /^\u001b\[([0-9;?]*)([A-Za-z])$/.exec(t);
    if (csi) {
      const [, params = '', cmd] = csi;
      const n = Number(params.split(';')[0]) || 1;
      if (cmd === 'A') row = Math.max(0, row - n);
      else if (cmd === 'B') row += n;
      else if (cmd === 'C') col += n;
      else if (cmd === 'D') col = Math.max(0, col - n);
      else if (cmd === 'G') col = n - 1;
      else if (cmd === 'H') [row, col] = [(Number(params.split(';')[0]) || 1) - 1, (Number(params.split(';')[1]) || 1) - 1];
      else if (cmd === 'K') {
        const mode = Number(params) || 0;
        if (mode === 2) lines[row] = [];
        else if (mode === 0) line().length = Math.min(line().length, col);
        else for (let i = 0; i <= col; i++) line()[i] = ' ';
      } else if (cmd === 'J' && (Number(params) || 0) === 0) {
        line().length = Math.min(line().length, col);
        lines.length = row + 1;
      }
      continue; // colours (m), cursor shown or hidden (h, l): nothing on the screen
    }
    if (t.startsWith('\u001b')) continue;
    if (t === '\r') col = 0;
    else if (t === '\n') row++;
    else if (t === '\b') col = Math.max(0, col - 1);
    else if (t >= ' ') {
      const l = line();
      while (l.length < col) l.push(' ');
      l[col++] = t;
    }
  }
  return Array.from(lines, (l) => (l ?? []).join('').trimEnd());
}
