// The checks `clients` and `audit` make before opening a database (docs/guides/team-access.md):
// each rule accepts what it should, and each way of breaking it is a one-line usage error.
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/core/exit-codes.js';
import { parseClientId } from '../../src/team/client-id.js';
import { graceText } from '../../src/storage/store.js';
import { durationMs, MAX_GRACE_MS, parseGrace, parseLimit, parseSince } from '../../src/team/durations.js';

/** The usage error `f` throws: exit 2, one line. */
function usage(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).message).not.toContain('\n');
    return (err as CliError).message;
  }
  throw new Error('no error was thrown');
}

describe('CLIENT_ID', () => {
  it.each(['alice', 'a', 'ci.bot_1-x@corp.example', 'A'.repeat(64), '0', '...', '@'])('accepts %j', (id) => {
    expect(parseClientId(id)).toBe(id);
  });

  it.each([
    ['', 'empty'],
    ['A'.repeat(65), 'too long'],
    ['x'.repeat(300), 'far too long'],
    ['a b', 'a space'],
    ['ä', 'a letter outside A-Z'],
    ['a/b', 'a slash'],
    ['a:b', 'a colon'],
    ['a\nb', 'a newline'],
    ['a\tb', 'a tab'],
  ])('refuses %j (%s) with the rule', (id) => {
    expect(usage(() => parseClientId(id))).toMatch(/^CLIENT_ID must be 1 to 64 characters of A-Z a-z 0-9 \. _ - @, not /);
  });

  it('names the option it checks, and shows a long id cut short with its length', () => {
    expect(usage(() => parseClientId('a b', '--client'))).toBe('--client must be 1 to 64 characters of A-Z a-z 0-9 . _ - @, not "a b"');
    const m = usage(() => parseClientId('x'.repeat(300)));
    expect(m).toContain('(300 characters)');
    expect(m.length).toBeLessThan(150);
  });
});

describe('durations', () => {
  it.each([
    ['0', 0],
    ['0s', 0],
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['30d', MAX_GRACE_MS],
  ])('%s is %d ms', (raw, ms) => {
    expect(durationMs(raw)).toBe(ms);
    expect(parseGrace(raw)).toBe(ms);
  });

  it.each(['banana', '', '10', '-5m', '1.5h', '5 m', '1w', '15M', 'm', '2h30m', ' 90s'])('--grace %j is not a duration', (raw) => {
    expect(durationMs(raw)).toBeUndefined();
    expect(usage(() => parseGrace(raw))).toBe(`--grace must be a duration such as 90s, 15m, 2h or 1d (or 0), not ${JSON.stringify(raw)}`);
  });

  it('--grace defaults to 0 and stops at 30 days', () => {
    expect(parseGrace()).toBe(0);
    expect(parseGrace('720h')).toBe(MAX_GRACE_MS);
    for (const raw of ['31d', '721h', '43201m', '2592001s', '999999999d']) expect(usage(() => parseGrace(raw))).toBe(`--grace must be at most 30d, not "${raw}"`);
  });

  it("the grace client.rotate records (graceText) is a --grace that means the same, in its largest whole unit", () => {
    for (const raw of ['0', '0s', '1s', '59s', '60s', '90s', '900s', '15m', '60m', '90m', '24h', '36h', '1d', '30d', '2592000s']) {
      const ms = parseGrace(raw);
      expect(parseGrace(graceText(ms)), raw).toBe(ms);
    }
    expect(['0s', '60s', '900s', '60m', '24h', '2592000s'].map((raw) => graceText(parseGrace(raw)))).toEqual(['0', '1m', '15m', '1h', '1d', '30d']);
  });
});

describe('--since', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');

  it.each([
    ['24h', '2026-11-25T12:00:00.000Z'],
    ['90s', '2026-11-26T11:58:30.000Z'],
    ['15m', '2026-11-26T11:45:00.000Z'],
    ['7d', '2026-11-19T12:00:00.000Z'],
    ['0', '2026-11-26T12:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:00:00Z', '2026-11-01T09:00:00.000Z'],
    ['2026-11-01T09:00:00.5+01:00', '2026-11-01T08:00:00.500Z'],
    ['2026-11-01T09:00:00-05:30', '2026-11-01T14:30:00.000Z'],
  ])('%s is %s in UTC', (raw, iso) => {
    expect(parseSince(raw, now)).toBe(iso);
  });

  it('a duration further back than the year 0000 is from its start (nothing is older)', () => {
    expect(parseSince('999999999d', now)).toBe('0000-01-01T00:00:00.000Z');
  });

  it.each(['yesterdayish', '', '2026-13-01', '2026-11-31', '2026-11-01T09:00:00', '01/11/2026', '24', 'h', '-24h', '9999-12-31T23:59:59-23:59'])('%j is a usage error', (raw) => {
    expect(usage(() => parseSince(raw, now))).toBe(
      `--since must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:00:00Z), or a duration back from now such as 24h or 7d, not ${JSON.stringify(raw)}`,
    );
  });
});

describe('--limit', () => {
  it('is 100 when absent, and takes 1 to 10000', () => {
    expect(parseLimit(undefined)).toBe(100);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('10000')).toBe(10_000);
    expect(parseLimit('0042')).toBe(42);
  });

  it.each(['0', '10001', '1000000000', 'abc', '1.5', '-1', '', '1e3', ' 5'])('%j is a usage error', (raw) => {
    expect(usage(() => parseLimit(raw))).toBe(`--limit must be a whole number from 1 to 10000, not ${JSON.stringify(raw)}`);
  });
});
