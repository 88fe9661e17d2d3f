// The import loop with an injected input, a scripted sender and collected stderr.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import type { MemberCreate } from '../../src/contract/index.js';
import { openInput } from '../../src/import/input.js';
import { ReportWriter } from '../../src/import/report.js';
import { importRows, type ImportDeps, type ImportRequest } from '../../src/import/run-import.js';
import { FatalSendError, type SendOutcome } from '../../src/import/sender.js';
import { collector } from '../output/fakes.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chamberctl-import-run-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const HEADER = 'name,email,phone,membership_type\n';
const row = (i: number) => `Person ${i},p${i}@example.org,,standard\n`;
const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i)).join('');

/** A sender whose answers the test decides; by default every row is created at once. */
function fakeSender(answer: (body: MemberCreate, line: number) => SendOutcome | Promise<SendOutcome> = () => ({ status: 'created' })) {
  const sent: Array<{ email: string; line: number }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    sent,
    maxInFlight: () => maxInFlight,
    async send(body: MemberCreate, line: number): Promise<SendOutcome> {
      sent.push({ email: body.email, line });
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await answer(body, line);
      } finally {
        inFlight--;
      }
    },
  };
}

interface Harness {
  deps: ImportDeps;
  stderr: ReturnType<typeof collector>;
  signal(sig?: NodeJS.Signals): void;
  exits: number[];
  stdin: PassThrough;
}

async function harness(over: Partial<ImportDeps> = {}, source?: Readable): Promise<Harness> {
  const stdin = new PassThrough();
  const stderr = collector();
  let handler: ((s: NodeJS.Signals) => void) | undefined;
  const exits: number[] = [];
  let t = 0;
  const deps: ImportDeps = {
    input: await openInput('-', source ?? stdin),
    stderr,
    progressMode: 'off',
    onSignal: (h) => {
      handler = h;
      return () => (handler = undefined);
    },
    clock: () => (t += 10),
    hardExit: (code) => void exits.push(code),
    ...over,
  };
  return { deps, stderr, exits, stdin, signal: (sig = 'SIGINT') => handler?.(sig) };
}

const req = (over: Partial<ImportRequest> = {}): ImportRequest => ({ chamberId: 'ch_1', delimiter: ',', concurrency: 4, dryRun: false, ...over });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('importRows', () => {
  it('sends the valid rows, reports the others by line, and counts each row once', async () => {
    const sender = fakeSender((b) => ({ status: b.email.startsWith('old') ? 'skipped' : 'created' }));
    const report = await ReportWriter.create(join(dir, 'r.csv'), { delimiter: ',' });
    const h = await harness({ sender, report });
    h.stdin.end(
      'Name,Email,Phone,Membership_Type,Notes\n' +
        'Ada,ada@example.org,,premium,vip\n' +
        '\n' +
        'Bad,not-an-email,,standard,\n' +
        'Old,old@example.org,,standard,\n' +
        ',,,,\n' +
        'Again,ADA@example.org,,standard,dup\n' +
        '"Broken,b@example.org,,standard,\n' +
        'Last,last@example.org,,corporate,\n',
    );
    const { summary, fatal, signal } = await importRows(req({ concurrency: 1 }), h.deps);
    await report.close();
    expect(fatal).toBeUndefined();
    expect(signal).toBeUndefined();
    expect(sender.sent).toEqual([
      { email: 'ada@example.org', line: 2 },
      { email: 'old@example.org', line: 5 },
      { email: 'last@example.org', line: 9 },
    ]);
    expect(summary).toMatchObject({ rows: 6, created: 2, skipped: 1, invalid: 2, duplicate: 1, failed: 0, valid: 0, last_line: 9, interrupted: false });
    expect(h.stderr.text()).toBe(
      'warning: ignoring the column "Notes"\n' +
        'line 4 (invalid): email: must be a valid e-mail address\n' +
        'line 7 (duplicate): the same e-mail as line 2\n' +
        'line 8 (invalid): a quoted value is never closed (unbalanced "); the line reads: "Broken,b@example.org,,standard,\n',
    );
    expect(await readFile(join(dir, 'r.csv'), 'utf8')).toBe(
      '\uFEFFName,Email,Phone,Membership_Type,Notes,line,status,reason\n' +
        'Bad,not-an-email,,standard,,4,invalid,email: must be a valid e-mail address\n' +
        'Again,ADA@example.org,,standard,dup,7,duplicate,the same e-mail as line 2\n' +
        ',,,,,8,invalid,"a quoted value is never closed (unbalanced ""); the line reads: ""Broken,b@example.org,,standard,"\n',
    );
  });

  it('--dry-run checks every row and sends nothing', async () => {
    const h = await harness();
    h.stdin.end(`${HEADER}${rows(3)}x,bad,,standard\n`);
    const { summary } = await importRows(req({ dryRun: true }), h.deps);
    expect(summary).toMatchObject({ dry_run: true, rows: 4, valid: 3, invalid: 1, created: 0 });
  });

  it('keeps at most --concurrency rows in flight and reads only a little ahead of them', async () => {
    let pulled = 0;
    const chunk = Buffer.from(rows(100)); // ~3 kB
    const source = Readable.from(
      (function* () {
        yield Buffer.from(HEADER);
        for (let i = 0; i < 2000; i++) {
          pulled += chunk.length;
          yield chunk.map((b) => b); // a copy; the e-mails repeat, which is fine here
        }
      })(),
      { objectMode: false, highWaterMark: 16 * 1024 },
    );
    const gates: Array<() => void> = [];
    const sender = fakeSender(() => new Promise<SendOutcome>((resolve) => gates.push(() => resolve({ status: 'created' }))));
    const h = await harness({ sender }, source);
    const done = importRows(req({ concurrency: 3 }), h.deps);
    await tick(50);
    expect(sender.sent).toHaveLength(3);
    // the parser holds one 16 KiB slice, the source one 64 KiB read and its own buffer: nowhere near the 6 MB
    expect(pulled).toBeLessThan(256 * 1024);
    h.signal();
    for (const open of gates.splice(0)) open();
    const { summary } = await done;
    expect(sender.maxInFlight()).toBe(3);
    expect(summary).toMatchObject({ interrupted: true, created: 3, rows: 3 });
  });

  it('Ctrl-C stops reading, lets the requests in flight finish and says so; a second Ctrl-C quits at once', async () => {
    const gates: Array<() => void> = [];
    const sender = fakeSender(() => new Promise<SendOutcome>((resolve) => gates.push(() => resolve({ status: 'created' }))));
    const h = await harness({ sender });
    h.stdin.write(`${HEADER}${rows(50)}`);
    const done = importRows(req({ concurrency: 4 }), h.deps);
    await tick(20);
    expect(sender.sent).toHaveLength(4);
    h.signal('SIGINT');
    expect(h.stderr.text()).toBe('stopping: waiting for 4 requests in flight; press Ctrl-C again to quit at once\n');
    for (const open of gates.splice(0)) open();
    const result = await done;
    expect(result.signal).toBe('SIGINT');
    expect(result.summary).toMatchObject({ interrupted: true, rows: 4, created: 4, last_line: 5 });
    expect(sender.sent).toHaveLength(4);
    expect(h.exits).toEqual([]);

    const again = await harness({ sender: fakeSender(() => new Promise<SendOutcome>(() => undefined)) });
    again.stdin.write(`${HEADER}${rows(5)}`);
    void importRows(req(), again.deps);
    await tick(20);
    again.signal('SIGINT');
    again.signal('SIGINT');
    expect(again.exits).toEqual([130]);
  });

  it('stops when many rows in a row fail (the server is down): exit 1, resume by running again', async () => {
    const sender = fakeSender(() => ({ status: 'failed', reason: 'cannot reach http://x: connection refused' }));
    const h = await harness({ sender, maxProblemLines: 2 });
    h.stdin.end(`${HEADER}${rows(100)}`);
    const { summary, fatal } = await importRows(req({ concurrency: 1 }), h.deps);
    expect(fatal?.exitCode).toBe(ExitCode.FAILURE);
    expect(fatal?.message).toBe(
      'stopped after 16 rows in a row failed (the last: cannot reach http://x: connection refused); run the same command again when the server is back: rows already created are skipped',
    );
    expect(summary).toMatchObject({ interrupted: true, failed: 16, rows: 16 });
    expect(h.stderr.text().split('\n')).toEqual([
      'line 2 (failed): cannot reach http://x: connection refused',
      'line 3 (failed): cannot reach http://x: connection refused',
      '… more problem rows are not shown; --report PATH lists every one',
      '',
    ]);
  });

  it('a fatal answer (the chamber is gone) ends the import with its exit code', async () => {
    const sender = fakeSender(() => {
      throw new FatalSendError(new CliError('chamber "ch_1" was not found', ExitCode.NOT_FOUND));
    });
    const h = await harness({ sender });
    h.stdin.end(`${HEADER}${rows(20)}`);
    const { fatal, summary } = await importRows(req({ concurrency: 1 }), h.deps);
    expect(fatal?.exitCode).toBe(ExitCode.NOT_FOUND);
    expect(summary.failed).toBe(1);
    expect(sender.sent).toHaveLength(1);
  });

  it('a header without a required column, and an empty input, are errors before anything is sent (exit 5)', async () => {
    const sender = fakeSender();
    const h = await harness({ sender });
    h.stdin.end(`name,mail,membership_type\n${rows(3)}`);
    const err = await importRows(req(), h.deps).catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(ExitCode.REJECTED);
    expect(sender.sent).toEqual([]);

    const empty = await harness({ sender });
    empty.stdin.end('\n\n');
    const e2 = await importRows(req(), empty.deps).catch((e: unknown) => e);
    expect((e2 as CliError).message).toBe(
      'stdin has no header row; the first line must name the columns name, email, membership_type and optionally phone',
    );
    expect((e2 as CliError).exitCode).toBe(ExitCode.REJECTED);
  });

  it('a malformed header row is an error', async () => {
    const h = await harness();
    h.stdin.end('"name,email\nx,y\n');
    const err = await importRows(req(), h.deps).catch((e: unknown) => e);
    expect((err as CliError).message).toBe('the header row (line 1) is malformed: a quoted value is never closed (unbalanced ")');
  });
});
