import { describe, expect, it } from 'vitest';
import { isLastPage } from '../../src/client/last-page.js';

describe('isLastPage', () => {
  it('stops at the page that reaches the total, by the per_page the server answered', () => {
    expect(isLastPage(1, 20, { per_page: 20, total: 45 })).toBe(false);
    expect(isLastPage(2, 20, { per_page: 20, total: 45 })).toBe(false);
    expect(isLastPage(3, 5, { per_page: 20, total: 45 })).toBe(true);
    expect(isLastPage(2, 20, { per_page: 20, total: 40 })).toBe(true);
    // asked for 100, the server gives 50 a page: the walk goes on by the server's count
    expect(isLastPage(1, 50, { per_page: 50, total: 120 })).toBe(false);
  });

  it('stops at an empty page whatever the total says, and survives a per_page of 0', () => {
    expect(isLastPage(4, 0, { per_page: 20, total: 1000 })).toBe(true);
    expect(isLastPage(1, 3, { per_page: 0, total: 3 })).toBe(false);
    expect(isLastPage(3, 1, { per_page: 0, total: 3 })).toBe(true);
  });
});
