import { describe, expect, it } from 'vitest';
import { CsvRecordReader, type CsvEvent } from '../../src/import/csv-reader.js';

/** Every event of `text`, fed in pieces of `chunk` bytes (Infinity: all at once). */
async function read(text: string | Buffer, opts: { chunk?: number; delimiter?: string; maxRecordBytes?: number } = {}) {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const reader = new CsvRecordReader({ delimiter: opts.delimiter ?? ',', ...(opts.maxRecordBytes ? { maxRecordBytes: opts.maxRecordBytes } : {}) });
  const events: CsvEvent[] = [];
  const size = opts.chunk ?? Infinity;
  for (let at = 0; at < bytes.length; at += size) events.push(...reader.push(bytes.subarray(at, Math.min(bytes.length, at + size))));
  events.push(...(await reader.end()));
  return { events, position: reader.position, total: bytes.length };
}

/** `line: fields` or `line! reason`, compact for comparisons. */
const show = (events: CsvEvent[]) =>
  events.map((e) => (e.kind === 'record' ? `${e.line}: ${JSON.stringify(e.fields)}` : `${e.line}! ${e.reason}`));

const CHUNKS = [1, 2, 3, 7, 64, Infinity];

/** The same events whatever the chunking, and every byte accounted for. */
async function readEveryWay(text: string, opts: { delimiter?: string; maxRecordBytes?: number } = {}) {
  const first = await read(text, { ...opts, chunk: Infinity });
  for (const chunk of CHUNKS) {
    const r = await read(text, { ...opts, chunk });
    expect(show(r.events), `chunks of ${chunk}`).toEqual(show(first.events));
    expect(r.position, `chunks of ${chunk}`).toBe(r.total);
  }
  return first.events;
}

describe('CsvRecordReader', () => {
  it('gives each record with the line it starts on', async () => {
    expect(show(await readEveryWay('name,email\nAda,a@x.org\nBob,b@x.org\n'))).toEqual([
      '1: ["name","email"]',
      '2: ["Ada","a@x.org"]',
      '3: ["Bob","b@x.org"]',
    ]);
  });

  it('reads CRLF, LF and lone CR line breaks, mixed, with or without a final one', async () => {
    expect(show(await readEveryWay('h1,h2\r\na,1\nb,2\rc,3\r\nd,4'))).toEqual([
      '1: ["h1","h2"]',
      '2: ["a","1"]',
      '3: ["b","2"]',
      '4: ["c","3"]',
      '5: ["d","4"]',
    ]);
  });

  it('skips blank lines and still counts them', async () => {
    expect(show(await readEveryWay('\n\r\nh\n\n\na\r\n\r\nb\n\n'))).toEqual(['3: ["h"]', '6: ["a"]', '8: ["b"]']);
  });

  it('reads quoted values with delimiters, doubled quotes and line breaks, and counts lines inside them', async () => {
    const text = 'h1,h2\r\n"Doe, Jane","say ""hi"""\r\n"two\r\nlines",x\r\n"three\nlines\nhere",y\r\nlast,z\r\n';
    expect(show(await readEveryWay(text))).toEqual([
      '1: ["h1","h2"]',
      '2: ["Doe, Jane","say \\"hi\\""]',
      '3: ["two\\r\\nlines","x"]',
      '5: ["three\\nlines\\nhere","y"]',
      '8: ["last","z"]',
    ]);
  });

  it('splits on another delimiter: ; and tab', async () => {
    expect(show(await readEveryWay('a;b\n"x;y";z\n', { delimiter: ';' }))).toEqual(['1: ["a","b"]', '2: ["x;y","z"]']);
    expect(show(await readEveryWay('a\tb\n"x\ty"\tz\n', { delimiter: '\t' }))).toEqual(['1: ["a","b"]', '2: ["x\\ty","z"]']);
  });

  it('keeps rows of any length (the caller compares them with the header)', async () => {
    expect(show(await readEveryWay('a,b,c\n1\n1,2,3,4\n'))).toEqual(['1: ["a","b","c"]', '2: ["1"]', '3: ["1","2","3","4"]']);
  });

  it('reports an unclosed quote on the line it opens and reads on from the next line', async () => {
    const text = 'h1,h2\nok,1\n"never closed,2\nafter,3\n\nlater,4\n';
    expect(show(await readEveryWay(text))).toEqual([
      '1: ["h1","h2"]',
      '2: ["ok","1"]',
      '3! a quoted value is never closed (unbalanced ")',
      '4: ["after","3"]',
      '6: ["later","4"]',
    ]);
  });

  it('an unclosed quote on the last line, with or without a line break', async () => {
    for (const text of ['h\na\n"oops', 'h\na\n"oops\n', 'h\na\n"oops\r\n']) {
      expect(show(await readEveryWay(text))).toEqual(['1: ["h"]', '2: ["a"]', '3! a quoted value is never closed (unbalanced ")']);
    }
  });

  it('a quote after a closing quote, and a quote inside an unquoted value, are malformed lines', async () => {
    const text = 'h1,h2\n"Jo "JJ" Doe",1\nok,2\nJo "JJ" Doe,3\nfine,4\n';
    const events = await readEveryWay(text);
    expect(show(events)).toEqual([
      '1: ["h1","h2"]',
      '2! a " inside a quoted value must be doubled ("")',
      '3: ["ok","2"]',
      '4! a " inside a value that is not quoted (quote the value and double its quotes: "Jo ""JJ"" Doe")',
      '5: ["fine","4"]',
    ]);
    expect(events[1]).toMatchObject({ text: '"Jo "JJ" Doe",1' });
  });

  it('an unclosed quote is given up after maxRecordBytes, so memory stays bounded, and reading goes on', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `row${i},${i}`);
    const text = `h1,h2\n"open,0\n${rows.join('\n')}\n`;
    const events = await readEveryWay(text, { maxRecordBytes: 256 });
    expect(show(events).slice(0, 3)).toEqual(['1: ["h1","h2"]', '2! the row runs on for more than 1 MiB (an unbalanced " opens a value that never ends)', '3: ["row0","0"]']);
    expect(events).toHaveLength(202);
    expect(events.at(-1)).toEqual({ kind: 'record', line: 202, fields: ['row199', '199'] });
  });

  it('several malformed lines in a row, with CRLF', async () => {
    expect(show(await readEveryWay('h\r\n"a\r\n"b\r\nc"d\r\ne\r\n')).map((s) => s.slice(0, 3))).toEqual(['1: ', '2! ', '3! ', '4! ', '5: ']);
  });

  it('the excerpt of a malformed line is cut at 200 characters', async () => {
    const long = `"${'x'.repeat(500)}`;
    const [, bad] = (await read(`h\n${long}\n`)).events;
    expect(bad).toMatchObject({ kind: 'malformed', line: 2 });
    expect((bad as { text: string }).text).toBe(`${long.slice(0, 200)}…`);
  });

  it('decodes UTF-8 split anywhere', async () => {
    expect(show(await readEveryWay('name\nZürich 東京 🙂\n'))).toEqual(['1: ["name"]', '2: ["Zürich 東京 🙂"]']);
  });

  it('an empty input gives nothing', async () => {
    expect((await read('')).events).toEqual([]);
    expect((await read('\n\n')).events).toEqual([]);
  });
});
