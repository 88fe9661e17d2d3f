import { describe, expect, it } from 'vitest';
import { protectCell, unprotectCell } from '../../src/output/csv-cells.js';

// OWASP's CSV injection rule, and the import's way back: a bijection.

describe('csv cells', () => {
  it("puts a ' before a cell a spreadsheet would run, and nowhere else", () => {
    for (const v of ['=1+1', '+1', '-2+3', '@SUM(1)', '\t=1', '\r=1', "'=x", "''+y"]) expect(protectCell(v), v).toBe(`'${v}`);
    for (const v of ['Ada', "O'Brien", "'quoted'", 'a=b', ' =1', '', '1-2']) expect(protectCell(v), v).toBe(v);
  });

  it('takes exactly that quote off again, for every value', () => {
    const starts = ['', "'", "''", '=', '+', '-', '@', '\t', '\r', 'a', ' '];
    for (const a of starts) for (const b of starts) for (const c of starts) {
      const v = `${a}${b}${c}x`;
      expect(unprotectCell(protectCell(v)), JSON.stringify(v)).toBe(v);
    }
    expect(unprotectCell("'=1+1")).toBe('=1+1'); // typed by hand in a file
    expect(unprotectCell("'Ada")).toBe("'Ada");
  });
});
