import { describe, expect, it } from 'vitest';
import { formatDate, formatSecond, formatSpan, formatTime, oneLine, tsvField, tsvRow } from '../../src/output/format.js';
import { displayWidth, truncate } from '../../src/output/width.js';

describe('time formatting', () => {
  it('shows ISO times as UTC minutes', () => {
    expect(formatTime('2026-11-22T14:05:59.999Z')).toBe('2026-11-22 14:05');
    expect(formatTime('2026-11-22T23:30:00+02:00')).toBe('2026-11-22 21:30');
  });

  it('keeps what is not a time as received, and absent as empty', () => {
    expect(formatTime('next tuesday')).toBe('next tuesday');
    expect(formatTime(null)).toBe('');
    expect(formatTime(undefined)).toBe('');
  });

  it('an audit trail shows UTC seconds; what is not a time, as received', () => {
    expect(formatSecond('2026-11-22T14:05:59.999Z')).toBe('2026-11-22 14:05:59');
    expect(formatSecond('2026-11-22T23:30:07+02:00')).toBe('2026-11-22 21:30:07');
    expect(formatSecond('next tuesday')).toBe('next tuesday');
    expect(formatSecond(null)).toBe('');
  });

  it('lists show the UTC day', () => {
    expect(formatDate('2026-11-22T23:59:00-05:00')).toBe('2026-11-23');
    expect(formatDate('garbage')).toBe('garbage');
  });

  it('shortens an event span without losing information', () => {
    expect(formatSpan('2026-03-05T18:00:00Z', '2026-03-05T20:00:00Z')).toBe('2026-03-05 18:00–20:00');
    expect(formatSpan('2026-03-05T18:00:00Z', '2026-03-07T12:00:00Z')).toBe('2026-03-05 18:00 – 03-07 12:00');
    expect(formatSpan('2026-12-31T20:00:00Z', '2027-01-01T02:00:00Z')).toBe('2026-12-31 20:00 – 2027-01-01 02:00');
  });
});

describe('TSV fields', () => {
  it('escapes tabs, newlines, carriage returns and backslashes', () => {
    expect(tsvField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
  });

  it('writes absent values as empty fields and keeps the column count', () => {
    const row = tsvRow(['id', null, undefined, 3, 'x\ty']);
    expect(row).toBe('id\t\t\t3\tx\\ty\n');
    expect(row.trimEnd().split('\t')).toHaveLength(5);
  });

  it('round-trips through the documented unescaping', () => {
    const value = 'line 1\nline\t2 \\ end\r';
    const unescaped = tsvField(value).replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);
    expect(unescaped).toBe(value);
  });
});

describe('cell text', () => {
  it('counts wide characters twice', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('東京')).toBe(4);
    expect(displayWidth('Zürich')).toBe(6);
  });

  it('truncates with an ellipsis to the exact width', () => {
    expect(truncate('Chamber of Commerce', 10)).toBe('Chamber o…');
    expect(displayWidth(truncate('Chamber of Commerce', 10))).toBe(10);
    expect(truncate('short', 10)).toBe('short');
    expect(displayWidth(truncate('東京商工会議所', 5))).toBeLessThanOrEqual(5);
  });

  it('turns control characters into spaces so a cell stays on one line', () => {
    expect(oneLine('a\nb\tc\r\nd')).toBe('a b c d');
  });
});
