import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cappedLines, LineTooLong } from '../../src/snapshot/lines.js';

// The snapshot's line reader: readline's lines, but no line held past its cap.

const read = async (chunks: Array<string | Buffer>, max?: number) => {
  const lines: string[] = [];
  for await (const line of cappedLines(Readable.from(chunks), max)) lines.push(line);
  return lines;
};

describe('cappedLines', () => {
  it('splits on LF and CRLF, keeps a last line without its break, and decodes characters split across chunks', async () => {
    const euro = Buffer.from('€');
    expect(await read(['a\r\nb', 'c\n', '\n', euro.subarray(0, 1), Buffer.concat([euro.subarray(1), Buffer.from('\nlast')])])).toEqual(['a', 'bc', '', '€', 'last']);
    expect(await read([])).toEqual([]);
  });

  it('takes a line of exactly the cap, and refuses one byte more with its line number, before reading it all', async () => {
    expect(await read(['ok\n', 'x'.repeat(10), '\n'], 10)).toEqual(['ok', 'x'.repeat(10)]);
    let chunksRead = 0;
    const endless = new Readable({
      read() {
        chunksRead++;
        this.push('y'.repeat(4));
      },
    });
    const err = await (async () => {
      for await (const _ of cappedLines(Readable.from(['one\ntwo\n']), 10)) void _;
      for await (const _ of cappedLines(endless, 10)) void _;
    })().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(LineTooLong);
    expect((err as LineTooLong).line).toBe(1);
    expect(chunksRead).toBeLessThan(10);
    const later = await read(['a\nb\n', 'z'.repeat(11)], 10).then(() => undefined, (e: unknown) => e as LineTooLong);
    expect(later?.line).toBe(3);
  });
});
