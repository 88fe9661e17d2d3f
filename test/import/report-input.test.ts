import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { CsvRecordReader } from '../../src/import/csv-reader.js';
import { openInput } from '../../src/import/input.js';
import { ReportWriter } from '../../src/import/report.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chamberctl-import-unit-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function failure(p: Promise<unknown>): Promise<CliError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(CliError);
  return err as CliError;
}

async function parse(text: Buffer | string, delimiter = ','): Promise<string[][]> {
  const reader = new CsvRecordReader({ delimiter });
  const events = [...reader.push(Buffer.from(text)), ...(await reader.end())];
  return events.map((e) => (e.kind === 'record' ? e.fields : [`malformed: ${e.reason}`]));
}

describe('ReportWriter', () => {
  it('writes the header and rows as CSV that the import reads back exactly (BOM, quotes, delimiters, line breaks)', async () => {
    const path = join(dir, 'report.csv');
    const report = await ReportWriter.create(path, { delimiter: ';' });
    await report.writeHeader(['name', 'email', 'notes', 'line', 'status', 'reason']);
    const tricky = ['Doe; Jane', 'say "hi"', 'two\nlines', 'cr\ronly', ' padded ', '=1+2', 'Zürich'];
    await report.add([tricky[0]!, tricky[1]!, tricky[2]!], 7, 'invalid', 'email: must be a valid e-mail address');
    await report.add([tricky[3]!, tricky[4]!, `${tricky[5]}${tricky[6]}`], 12, 'failed', 'HTTP 503');
    await report.close();
    expect(report.rows).toBe(2);
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(await parse(bytes.subarray(3), ';')).toEqual([
      ['name', 'email', 'notes', 'line', 'status', 'reason'],
      ['Doe; Jane', 'say "hi"', 'two\nlines', '7', 'invalid', 'email: must be a valid e-mail address'],
      // a would-be formula with the ' that the import takes off (src/output/csv-cells.ts)
      ['cr\ronly', ' padded ', "'=1+2Zürich", '12', 'failed', 'HTTP 503'],
    ]);
  });

  it('is created with mode 0600, also over an existing file', async () => {
    const path = join(dir, 'existing.csv');
    await writeFile(path, 'old');
    await chmod(path, 0o644);
    const report = await ReportWriter.create(path, { delimiter: ',' });
    await report.writeHeader(['line', 'status', 'reason']);
    await report.close();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('\uFEFFline,status,reason\n');
  });

  it('a report that never got its header (the import stopped before) is removed', async () => {
    const path = join(dir, 'never.csv');
    const report = await ReportWriter.create(path, { delimiter: ',' });
    await report.close();
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('refuses the input file as the report, and a path it cannot write (exit 2)', async () => {
    const input = join(dir, 'in.csv');
    await writeFile(input, 'name\n');
    const same = await failure(ReportWriter.create(join(dir, '.', 'in.csv'), { delimiter: ',', inputPath: input }));
    expect(same.exitCode).toBe(ExitCode.USAGE);
    expect(same.message).toContain('is the input file');
    expect(await readFile(input, 'utf8')).toBe('name\n');
    const bad = await failure(ReportWriter.create(join(dir, 'no', 'such', 'dir.csv'), { delimiter: ',' }));
    expect(bad.exitCode).toBe(ExitCode.USAGE);
    expect(bad.message).toMatch(/^cannot write the report .*: ENOENT$/);
  });
});

async function collect(input: Awaited<ReturnType<typeof openInput>>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of input.chunks()) parts.push(c);
  await input.close();
  return Buffer.concat(parts);
}

describe('openInput', () => {
  it('reads a file and knows its size', async () => {
    const path = join(dir, 'a.csv');
    await writeFile(path, 'name\nAda\n');
    const input = await openInput(path, new PassThrough());
    expect(input.size).toBe(9);
    expect((await collect(input)).toString()).toBe('name\nAda\n');
  });

  it('drops a UTF-8 BOM, even when stdin delivers it byte by byte', async () => {
    const stdin = new PassThrough();
    const input = await openInput('-', stdin);
    expect(input.size).toBeUndefined();
    const done = collect(input);
    for (const b of [0xef, 0xbb, 0xbf, 0x6e, 0x0a]) {
      stdin.write(Buffer.from([b]));
      await new Promise((r) => setImmediate(r));
    }
    stdin.end();
    expect((await done).toString()).toBe('n\n');
    expect(input.bomLength).toBe(3);
  });

  it('an input shorter than a BOM is passed on', async () => {
    const stdin = new PassThrough();
    stdin.end('a');
    expect((await collect(await openInput('-', stdin))).toString()).toBe('a');
  });

  it('refuses UTF-16 (exit 5) with the way out', async () => {
    const path = join(dir, 'u16.csv');
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name\n', 'utf16le')]));
    const err = await failure(collect(await openInput(path, new PassThrough())));
    expect(err.exitCode).toBe(ExitCode.REJECTED);
    expect(err.message).toContain('is UTF-16 text; save it as UTF-8');
  });

  it('a missing file or a directory is a usage error (exit 2)', async () => {
    const missing = await failure(openInput(join(dir, 'nope.csv'), new PassThrough()));
    expect(missing.exitCode).toBe(ExitCode.USAGE);
    expect(missing.message).toBe(`cannot read ${join(dir, 'nope.csv')}: no such file`);
    const directory = await failure(openInput(dir, new PassThrough()));
    expect(directory.exitCode).toBe(ExitCode.USAGE);
    expect(directory.message).toContain('it is a directory');
  });

  it('stop() ends a read that waits on a pipe', async () => {
    const stdin = new PassThrough();
    const input = await openInput('-', stdin);
    stdin.write('name\n');
    const done = collect(input);
    await new Promise((r) => setTimeout(r, 20));
    input.stop();
    expect((await done).toString()).toBe('name\n');
  });
});
