import { describe, expect, it } from 'vitest';
import { Progress, progressText, type ProgressSnapshot } from '../../src/import/progress.js';
import { printSummary, summaryExitCode, type ImportSummary } from '../../src/import/summary.js';
import { collector, io, outputFor } from '../output/fakes.js';

const snap = (over: Partial<ProgressSnapshot> = {}): ProgressSnapshot => ({
  done: 12_345,
  created: 12_000,
  skipped: 300,
  problems: 45,
  dryRun: false,
  bytes: 3_700_000,
  totalBytes: 10_000_000,
  elapsedMs: 2_000,
  ...over,
});

describe('progress', () => {
  it('names rows, rate, the share of the file and the outcomes', () => {
    expect(progressText(snap())).toBe('12,345 rows, 6,173 rows/s, 37% of 10.0 MB, ETA 3s: 12,000 created, 300 skipped, 45 problems');
    expect(progressText(snap({ elapsedMs: 600_000 }))).toContain('ETA 17m02s');
    expect(progressText(snap({ totalBytes: undefined, dryRun: true, done: 10, problems: 1, elapsedMs: 0 }))).toBe(
      '10 rows, 0 rows/s: 9 valid, 1 problem',
    );
  });

  it('live: redraws one line in place, prints log lines above it, clears it at the end', async () => {
    const err = collector({ tty: true, columns: 200 });
    const p = new Progress({ stream: err, mode: 'live', snapshot: () => snap(), intervalMs: 5 });
    p.start();
    await new Promise((r) => setTimeout(r, 30));
    p.log('line 4 (invalid): email: must be a valid e-mail address');
    p.stop();
    const text = err.text();
    expect(text).toContain('\r\u001b[2K12,345 rows, 6,173 rows/s');
    expect(text).toContain('\r\u001b[2Kline 4 (invalid): email: must be a valid e-mail address\n\r\u001b[2K12,345 rows');
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('periodic: plain lines; off: nothing', async () => {
    const err = collector();
    const p = new Progress({ stream: err, mode: 'periodic', snapshot: () => snap(), intervalMs: 5 });
    p.start();
    await new Promise((r) => setTimeout(r, 30));
    p.stop();
    expect(err.text().split('\n')[0]).toBe('import: 12,345 rows, 6,173 rows/s, 37% of 10.0 MB, ETA 3s: 12,000 created, 300 skipped, 45 problems');
    expect(err.text()).not.toContain('\u001b');
    const quiet = collector();
    const off = new Progress({ stream: quiet, mode: 'off', snapshot: () => snap(), intervalMs: 5 });
    off.start();
    off.log('a warning');
    await new Promise((r) => setTimeout(r, 20));
    off.stop();
    expect(quiet.text()).toBe('a warning\n');
  });
});

const summary: ImportSummary = {
  chamber_id: 'ch_1',
  file: 'members.csv',
  dry_run: false,
  interrupted: false,
  rows: 10,
  created: 6,
  skipped: 2,
  invalid: 1,
  duplicate: 1,
  failed: 0,
  valid: 0,
  last_line: 11,
  elapsed_seconds: 0.5,
  rows_per_second: 20,
  report: 'problems.csv',
  ignored_columns: ['status', 'joined_at'],
};

describe('summary', () => {
  it('--json: the object and nothing else', async () => {
    const t = io();
    await printSummary(summary, await outputFor(t, { json: true }));
    expect(JSON.parse(t.stdout.text())).toEqual(summary);
    expect(t.stdout.text().trimEnd().split('\n')).toHaveLength(1);
  });

  it('on a terminal: a label/value table', async () => {
    const t = io({ tty: true });
    await printSummary(summary, await outputFor(t, { color: false }));
    expect(t.stdout.text()).toBe(
      [
        'Created    6',
        'Skipped    2  (already members)',
        'Invalid    1',
        'Duplicate  1  (same e-mail as an earlier row)',
        'Failed     0',
        'Rows       10',
        'Elapsed    0.5 s',
        'Rate       20 rows/s',
        'Report     problems.csv',
        'Ignored    status, joined_at  (columns that are not member fields: not sent)',
        '',
      ].join('\n'),
    );
  });

  it('piped: key<TAB>value lines with the JSON keys', async () => {
    const t = io();
    await printSummary({ ...summary, report: null }, await outputFor(t));
    const lines = t.stdout.text().split('\n').slice(0, -1);
    expect(lines).toContain('created\t6');
    expect(lines).toContain('report\t');
    expect(lines).toContain('ignored_columns\tstatus,joined_at');
    expect(lines).toHaveLength(Object.keys(summary).length);
  });

  it('exit 0 only when nothing was invalid, a duplicate or failed', () => {
    expect(summaryExitCode(summary)).toBe(1);
    expect(summaryExitCode({ ...summary, invalid: 0, duplicate: 0 })).toBe(0);
    expect(summaryExitCode({ ...summary, invalid: 0, duplicate: 0, failed: 1 })).toBe(1);
  });
});
