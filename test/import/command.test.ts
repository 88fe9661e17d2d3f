// `members import` as commander sees it: help, and the argument checks that come before
// anything is opened (the session would fail with exit 3 here: the config dir does not exist).
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/fake-context.js';
import { parseDelimiter, parseMembersImport } from '../../src/commands/members/import.js';

// a config directory that does not exist: a test reaching the session would fail with 3
const cli = (...argv: string[]) => runInProcess(argv, '/nonexistent/chamberctl-import-test');

describe('members import (command)', () => {
  it('has a description, its options and examples in --help', async () => {
    const r = await cli('members', 'import', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: chamberctl members import [options] <chamber-id> <file>');
    for (const option of ['--dry-run', '--concurrency <n>', '--report <path>', '--delimiter <char>']) expect(r.stdout).toContain(option);
    expect(r.stdout).toMatch(/\nExamples:\n {2}\$ chamberctl members import /);
    expect((await cli('members', '--help')).stdout).toMatch(/import \[options\] <chamber-id> <file>\s+Add every valid row of a CSV file/);
  });

  it.each([
    [['members', 'import', 'ch_1', 'x.csv', '--concurrency', '0'], '--concurrency must be a whole number from 1 to 64, not "0"'],
    [['members', 'import', 'ch_1', 'x.csv', '--delimiter', ''], '--delimiter must be one character'],
    [['members', 'import', ' ', 'x.csv'], 'CHAMBER_ID must not be empty'],
    [['members', 'import', 'ch_1'], "missing required argument 'file'"],
    [['members', 'import', 'ch_1', '/nonexistent/chamberctl/x.csv'], 'cannot read /nonexistent/chamberctl/x.csv: no such file'],
  ])('%j is a usage error (exit 2) before any session', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

describe('parseMembersImport', () => {
  it('defaults: comma, 8 in flight, a real run, no report', () => {
    expect(parseMembersImport('ch_1', 'm.csv', {})).toEqual({ chamberId: 'ch_1', file: 'm.csv', delimiter: ',', concurrency: 8, dryRun: false });
    expect(parseMembersImport('ch_1', '-', { concurrency: '64', dryRun: true, report: 'r.csv', delimiter: ';' })).toEqual({
      chamberId: 'ch_1',
      file: '-',
      delimiter: ';',
      concurrency: 64,
      dryRun: true,
      reportPath: 'r.csv',
    });
  });

  it('delimiters: tab by name, as \\t or as itself; one character otherwise', () => {
    expect(parseDelimiter('tab')).toBe('\t');
    expect(parseDelimiter('\\t')).toBe('\t');
    expect(parseDelimiter('\t')).toBe('\t');
    expect(parseDelimiter('|')).toBe('|');
    expect(parseDelimiter('§')).toBe('§');
    for (const bad of ['"', '\n', '\r', ';;', '']) expect(() => parseDelimiter(bad)).toThrow(/--delimiter must be one character/);
  });
});
