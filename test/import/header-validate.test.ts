import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { readHeader } from '../../src/import/header.js';
import { checkRow, isBlankRow } from '../../src/import/validate.js';

function headerError(fields: string[], delimiter = ','): CliError {
  try {
    readHeader(fields, 1, delimiter);
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.REJECTED);
    return err as CliError;
  }
  throw new Error('expected a header error');
}

describe('readHeader', () => {
  it('matches names trimmed and case-insensitively, in any order, and lists the other columns once', () => {
    const h = readHeader([' Membership Type', 'notes', 'E-MAIL ', 'Name', 'Phone', ''], 1, ',');
    expect(h.index).toEqual({ membership_type: 0, email: 2, name: 3, phone: 4 });
    expect(h.ignored).toEqual(['notes']);
    expect(h.width).toBe(6);
    expect(h.reportColumns).toEqual(['Membership Type', 'notes', 'E-MAIL', 'Name', 'Phone', 'line', 'status', 'reason']);
    expect(h.reportSource).toEqual([0, 1, 2, 3, 4]);
  });

  it('phone is optional', () => {
    expect(readHeader(['name', 'email', 'membership_type'], 1, ',').index.phone).toBe(-1);
  });

  it("a report's own columns are ignored without a warning and replaced in the next report", () => {
    const h = readHeader(['name', 'email', 'phone', 'membership_type', 'line', 'STATUS', 'reason'], 1, ',');
    expect(h.ignored).toEqual([]);
    expect(h.reportColumns).toEqual(['name', 'email', 'phone', 'membership_type', 'line', 'status', 'reason']);
    expect(h.reportSource).toEqual([0, 1, 2, 3]);
  });

  it('a missing required column is rejected data (exit 5) naming what is missing', () => {
    expect(headerError(['name', 'phone']).message).toBe(
      'the header row (line 1) has no column email, membership_type; it must name the columns name, email, membership_type and optionally phone',
    );
  });

  it('hints at --delimiter when the header is one column holding ; or a tab', () => {
    expect(headerError(['name;email;membership_type']).message).toContain("try --delimiter ';'");
    expect(headerError(['name\temail\tmembership_type']).message).toContain('try --delimiter tab');
    expect(headerError(['name,email,membership_type'], ';').message).toContain("try --delimiter ','");
  });

  it('a column named twice is rejected', () => {
    expect(headerError(['name', 'email', 'Email', 'membership_type']).message).toBe(
      'the header row (line 1) names the column email twice (columns 2 and 3)',
    );
  });
});

describe('checkRow', () => {
  const header = readHeader(['name', 'email', 'phone', 'membership_type', 'notes'], 1, ',');

  it('a valid row gives the body the server gets (trimmed) and the e-mail key (lower case)', () => {
    expect(checkRow([' Ada ', 'Ada@Example.org', '+49 30 1234', 'Premium', 'x'], header)).toEqual({
      ok: true,
      body: { name: 'Ada', email: 'Ada@Example.org', phone: '+49 30 1234', membership_type: 'premium' },
      emailKey: 'ada@example.org',
    });
  });

  it('an empty phone is no phone (null)', () => {
    const r = checkRow(['Ada', 'ada@example.org', '  ', 'standard'], header);
    expect(r.ok && r.body).toEqual({ name: 'Ada', email: 'ada@example.org', phone: null, membership_type: 'standard' });
  });

  it('every failing field is reported, with the contract messages', () => {
    expect(checkRow(['', 'nope', 'call me', 'gold', ''], header)).toEqual({
      ok: false,
      reason:
        'name: must not be empty; email: must be a valid e-mail address; phone: must be a phone number (digits, spaces, + ( ) . - /); ' +
        'membership_type: must be one of: standard, premium, corporate, honorary',
    });
  });

  it('a short row misses its last values: "is required"', () => {
    expect(checkRow(['Ada', 'ada@example.org'], header)).toEqual({ ok: false, reason: 'membership_type: is required' });
  });

  it('values beyond the header are an error, unless empty', () => {
    expect(checkRow(['Ada', 'ada@example.org', '', 'standard', '', '', ''], header).ok).toBe(true);
    const r = checkRow(['Doe', ' Jane', 'jane@example.org', '', 'standard', 'x'], header);
    expect(r).toEqual({
      ok: false,
      reason: 'has 6 values but the header names 5 columns (a value with the delimiter in it, not quoted?); the extra values: "x"',
    });
  });

  it('text that was not UTF-8 (U+FFFD) is refused', () => {
    expect(checkRow(['M\uFFFDller', 'm@example.org', '', 'standard'], header)).toEqual({
      ok: false,
      reason: 'name: is not UTF-8 text (save the file as UTF-8)',
    });
  });

  it('blank rows', () => {
    expect(isBlankRow(['', ' ', '\t'])).toBe(true);
    expect(isBlankRow(['', 'x'])).toBe(false);
  });
});
