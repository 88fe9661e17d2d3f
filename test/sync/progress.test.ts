import { describe, expect, it } from 'vitest';
import { pullProgressText } from '../../src/commands/sync/sync.js';

describe('sync pull progress line', () => {
  it('shows chambers done of total, rows, rows/s and an ETA from the pace so far', () => {
    expect(pullProgressText({ chambersSeen: 1000, chambersDone: 250, rows: 30_000 }, 10_000)).toBe(
      'chambers 250 of 1,000 · 30,000 rows · 3,000 rows/s · ETA 30s',
    );
  });
  it('has no total while the chamber list is read, and no ETA before the first chamber is done or after the last', () => {
    expect(pullProgressText({ chambersSeen: 0, chambersDone: 0, rows: 100 }, 1000)).toBe('chambers 0 of ? · 100 rows · 100 rows/s');
    expect(pullProgressText({ chambersSeen: 10, chambersDone: 10, rows: 100 }, 1000)).toBe('chambers 10 of 10 · 100 rows · 100 rows/s');
  });
});
