// `members import` end to end: the built binary against the real embedded server.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { api, csvFile, HEADER, summaryOf, validRows, type Api } from '../import/e2e-helpers.js';

let server: TestServer;
let cli: LoggedIn;
let directory: Api;

beforeAll(async () => {
  server = await startTestServer({ seed: 'none' });
  cli = await loggedIn(server);
  directory = await api(server);
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

const MIXED =
  'name,email,phone,membership_type,notes\n' +
  'Ada Lovelace,ada@example.org,+44 20 7946 0000,premium,first\n' +
  'No Mail,not-an-email,,standard,\n' +
  'Bob,bob@example.org,,,\n' +
  'Ada Again,ADA@Example.org,,standard,dup\n' +
  'Carol,carol@example.org,,Corporate,\n';

describe('members import', () => {
  it('a mixed file: valid rows are created, invalid and duplicate rows are reported by line, exit 1', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'mixed.csv', MIXED);
    const r = await cli.run(['members', 'import', ch, file, '--json']);
    expect(r.exitCode).toBe(1);
    expect(summaryOf(r.stdout)).toMatchObject({
      chamber_id: ch,
      file,
      dry_run: false,
      interrupted: false,
      rows: 5,
      created: 2,
      skipped: 0,
      invalid: 2,
      duplicate: 1,
      failed: 0,
      last_line: 6,
      report: null,
    });
    expect(r.stderr).toBe(
      'warning: ignoring the column "notes"\n' +
        'line 3 (invalid): email: must be a valid e-mail address\n' +
        'line 4 (invalid): membership_type: must be one of: standard, premium, corporate, honorary\n' +
        'line 5 (duplicate): the same e-mail as line 2\n',
    );
    const members = await directory.members(ch);
    expect(members.map((m) => [m.name, m.email, m.phone, m.membership_type])).toEqual([
      ['Ada Lovelace', 'ada@example.org', '+44 20 7946 0000', 'premium'],
      ['Carol', 'carol@example.org', null, 'corporate'],
    ]);
  });

  it('reads the CSV oddities: BOM, CRLF, quoted delimiters, quotes and line breaks, blank lines; a malformed line is reported and the rest goes on', async () => {
    const ch = await directory.newChamber();
    const text =
      '\uFEFF Name ,EMAIL,Membership Type,Phone,Extra,Other\r\n' +
      '\r\n' +
      '"Doe, Jane",jane@example.org,standard,,x,y\r\n' +
      '"Say ""Hi"" Ltd",hi@example.org,premium,"+49 30 123",,\r\n' +
      '"Two\r\nLines",two@example.org,honorary,,,\r\n' +
      ',,,,,\r\n' +
      '"Unclosed,unclosed@example.org,standard,,,\r\n' +
      'After,after@example.org,standard,,,\r\n' +
      '\r\n' +
      'Zoë Ünal,zoe@example.org,standard,,,';
    const file = await csvFile(cli.dir, 'odd.csv', text);
    const r = await cli.run(['members', 'import', ch, file, '--json']);
    expect(summaryOf(r.stdout)).toMatchObject({ rows: 6, created: 5, invalid: 1, duplicate: 0, last_line: 11 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'warning: ignoring the columns "Extra", "Other"\n' +
        'line 8 (invalid): a quoted value is never closed (unbalanced "); the line reads: "Unclosed,unclosed@example.org,standard,,,\n',
    );
    expect((await directory.members(ch)).map((m) => [m.name, m.email, m.phone])).toEqual([
      ['After', 'after@example.org', null],
      ['Doe, Jane', 'jane@example.org', null],
      ['Say "Hi" Ltd', 'hi@example.org', '+49 30 123'],
      ['Two\r\nLines', 'two@example.org', null],
      ['Zoë Ünal', 'zoe@example.org', null],
    ]);
  });

  it('--delimiter takes ; and tab (as tab or \\t)', async () => {
    const ch = await directory.newChamber();
    const semi = await csvFile(cli.dir, 'semi.csv', 'name;email;membership_type\n"Doe; Jane";semi@example.org;standard\n');
    const tabs = await csvFile(cli.dir, 'tabs.tsv', 'name\temail\tmembership_type\nTab One\ttab1@example.org\tstandard\n');
    const tabs2 = await csvFile(cli.dir, 'tabs2.tsv', 'name\temail\tmembership_type\nTab Two\ttab2@example.org\tstandard\n');
    expect((await cli.run(['members', 'import', ch, semi, '--delimiter', ';'])).exitCode).toBe(0);
    expect((await cli.run(['members', 'import', ch, tabs, '--delimiter', 'tab'])).exitCode).toBe(0);
    expect((await cli.run(['members', 'import', ch, tabs2, '--delimiter', '\\t'])).exitCode).toBe(0);
    expect((await directory.members(ch)).map((m) => m.name)).toEqual(['Doe; Jane', 'Tab One', 'Tab Two']);
    // without it, the header reads as one column and the error says what to try
    const r = await cli.run(['members', 'import', ch, semi]);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain("(the header looks ;-separated: try --delimiter ';')");
  });

  it('reads stdin for -', async () => {
    const ch = await directory.newChamber();
    const r = await runCli(['members', 'import', ch, '-', '--json'], { configDir: cli.dir, input: HEADER + validRows(3, 'stdin') });
    expect(r.exitCode).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ file: '-', rows: 3, created: 3 });
    expect(await directory.count(ch)).toBe(3);
  });

  it('--dry-run checks every row and sends nothing; the report lists the problems', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'dry.csv', MIXED);
    const report = join(cli.dir, 'dry-report.csv');
    const r = await cli.run(['members', 'import', ch, file, '--dry-run', '--report', report, '--json']);
    expect(r.exitCode).toBe(1);
    expect(summaryOf(r.stdout)).toMatchObject({ dry_run: true, rows: 5, valid: 2, invalid: 2, duplicate: 1, created: 0, report });
    expect(await directory.count(ch)).toBe(0);
    expect((await readFile(report, 'utf8')).split('\n')).toHaveLength(5); // header, 3 rows, final newline
    // the chamber is still looked up
    const missing = await cli.run(['members', 'import', 'ch_doesnotexist', file, '--dry-run']);
    expect(missing.exitCode).toBe(4);
  });

  it('the report (mode 0600) lists what was not created; fixed, it imports as it is', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'round.csv', MIXED);
    const report = join(cli.dir, 'round-report.csv');
    const first = await cli.run(['members', 'import', ch, file, '--report', report, '--json']);
    expect(first.exitCode).toBe(1);
    expect((await stat(report)).mode & 0o777).toBe(0o600);
    const text = await readFile(report, 'utf8');
    expect(text).toBe(
      '\uFEFFname,email,phone,membership_type,notes,line,status,reason\n' +
        'No Mail,not-an-email,,standard,,3,invalid,email: must be a valid e-mail address\n' +
        'Bob,bob@example.org,,,,4,invalid,"membership_type: must be one of: standard, premium, corporate, honorary"\n' +
        'Ada Again,ADA@Example.org,,standard,dup,5,duplicate,the same e-mail as line 2\n',
    );
    // the admin fixes the two invalid rows and leaves the duplicate as it is
    const fixed = text.replace('not-an-email', 'nomail@example.org').replace('Bob,bob@example.org,,,', 'Bob,bob@example.org,,standard,');
    await writeFile(report, fixed);
    const again = await cli.run(['members', 'import', ch, report, '--json']);
    expect(again.exitCode).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ rows: 3, created: 2, skipped: 1, invalid: 0, duplicate: 0 });
    // line, status and reason are this tool's own columns: only "notes" is worth a warning
    expect(again.stderr).toBe('warning: ignoring the column "notes"\n');
    expect((await directory.members(ch)).map((m) => m.email).sort()).toEqual(
      ['ada@example.org', 'bob@example.org', 'carol@example.org', 'nomail@example.org'],
    );
  });

  it("the report writes a would-be formula with a leading ' (OWASP), and the import takes it off again", async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(
      cli.dir,
      'formulas.csv',
      'name,email,phone,membership_type\n' +
        '"=HYPERLINK(""http://x"",""y"")",bad-1,,standard\n' +
        '"\t=1+1",bad-2,+44 20 7946 0000,standard\n' +
        '@SUM(1),bad-3,,standard\n' +
        "'-2+3,bad-4,,standard\n",
    );
    const report = join(cli.dir, 'formulas-report.csv');
    const first = await cli.run(['members', 'import', ch, file, '--report', report]);
    expect(first.exitCode).toBe(1);
    const text = await readFile(report, 'utf8');
    expect(text.split('\n').slice(1, 5).map((l) => l.split(',')[0])).toEqual([`"'=HYPERLINK(""http://x""`, `'\t=1+1`, "'@SUM(1)", "'-2+3"]); // the ' the file had stays one
    expect(text).toContain(",'+44 20 7946 0000,");
    // fixed, the report gives back the names the file had (a leading tab trimmed, as always)
    await writeFile(report, text.replace(/bad-(\d)/g, 'formula$1@example.org'));
    const again = await cli.run(['members', 'import', ch, report, '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const members = await directory.members(ch);
    expect(members.map((m) => [m.email, m.name, m.phone]).sort()).toEqual([
      ['formula1@example.org', '=HYPERLINK("http://x","y")', null],
      ['formula2@example.org', '=1+1', '+44 20 7946 0000'],
      ['formula3@example.org', '@SUM(1)', null],
      ['formula4@example.org', '-2+3', null],
    ]);
  });

  it('running the same file twice creates nothing the second time (exit 0: skipped rows are fine)', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'twice.csv', HEADER + validRows(40, 'twice'));
    const one = await cli.run(['members', 'import', ch, file, '--json', '--concurrency', '16']);
    expect(one.exitCode).toBe(0);
    expect(summaryOf(one.stdout)).toMatchObject({ created: 40, skipped: 0 });
    const two = await cli.run(['members', 'import', ch, file, '--json']);
    expect(two.exitCode).toBe(0);
    expect(summaryOf(two.stdout)).toMatchObject({ created: 0, skipped: 40 });
    expect(await directory.count(ch)).toBe(40);
  });

  it('piped without --json, the summary is key<TAB>value lines on stdout', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'tsv.csv', HEADER + validRows(2, 'tsv'));
    const r = await cli.run(['members', 'import', ch, file]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('created\t2\n');
    expect(r.stdout).toContain('report\t\n');
  });
});

describe('members import: refused before anything is sent', () => {
  it('a header without a required column: exit 5', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'nocol.csv', 'name,mail,membership_type\nA,a@example.org,standard\n');
    const r = await cli.run(['members', 'import', ch, file]);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toBe(
      'error: the header row (line 1) has no column email; it must name the columns name, email, membership_type and optionally phone\n',
    );
    expect(r.stdout).toBe('');
    expect(await directory.count(ch)).toBe(0);
  });

  it.each([
    [['--concurrency', '0'], '--concurrency must be a whole number from 1 to 64, not "0"'],
    [['--concurrency', '65'], '--concurrency must be a whole number from 1 to 64, not "65"'],
    [['--concurrency', 'lots'], '--concurrency must be a whole number from 1 to 64, not "lots"'],
    [['--delimiter', '"'], '--delimiter must be one character other than a quote or a line break (or tab), not "\\""'],
    [['--delimiter', ';;'], '--delimiter must be one character'],
  ])('%j: exit 2', async (args, message) => {
    const file = await csvFile(cli.dir, 'ok.csv', HEADER);
    const r = await cli.run(['members', 'import', 'ch_x', file, ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${message}`);
  });

  it('a missing file is exit 2, an unknown chamber exit 4, the input as report exit 2', async () => {
    const missing = await cli.run(['members', 'import', 'ch_x', join(cli.dir, 'nope.csv')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(`error: cannot read ${join(cli.dir, 'nope.csv')}: no such file\n`);
    const file = await csvFile(cli.dir, 'ok2.csv', HEADER + validRows(1, 'ok2'));
    const unknown = await cli.run(['members', 'import', 'ch_doesnotexist', file]);
    expect(unknown.exitCode).toBe(4);
    const ch = await directory.newChamber();
    const same = await cli.run(['members', 'import', ch, file, '--report', file]);
    expect(same.exitCode).toBe(2);
    expect(same.stderr).toContain('is the input file');
    expect(await readFile(file, 'utf8')).toBe(HEADER + validRows(1, 'ok2'));
  });

  it('a profile pinned to v1: exit 2 naming the way out; no profile: exit 3', async () => {
    const v1 = await loggedIn(server, { apiVersion: 'v1' });
    try {
      const file = await csvFile(v1.dir, 'v1.csv', HEADER + validRows(1, 'v1'));
      const r = await v1.run(['members', 'import', 'ch_x', file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        'error: members import needs API v2, but profile "default" is pinned to v1; use --api-version v2, or unpin it with `chamberctl config set api-version auto`\n',
      );
    } finally {
      await v1.cleanup();
    }
    const empty = await makeTempDir();
    try {
      const file = await csvFile(empty, 'x.csv', HEADER);
      const r = await runCli(['members', 'import', 'ch_x', file], { configDir: empty });
      expect(r.exitCode).toBe(3);
    } finally {
      await removeTempDir(empty);
    }
  });
});
