import { describe, expect, it } from 'vitest';
import { withSpinner } from '../../src/output/spinner.js';
import { collector } from './fakes.js';

const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));

describe('spinner', () => {
  it('is not shown for a quick request', async () => {
    const stream = collector({ tty: true });
    expect(await withSpinner(later(20, 'x'), { stream, enabled: true, text: 'Loading', color: false, delayMs: 150 })).toBe('x');
    await later(200, null);
    expect(stream.text()).toBe('');
  });

  it('appears on a terminal for a slow request, and is cleared', async () => {
    const stream = collector({ tty: true });
    await withSpinner(later(600, 'x'), { stream, enabled: true, text: 'Loading chambers', color: false, delayMs: 50 });
    expect(stream.text()).toContain('Loading chambers');
    const tail = stream.chunks.at(-1) ?? '';
    expect(tail).not.toContain('Loading chambers'); // the last write clears the line
  });

  it('never appears when disabled (stderr is not a terminal)', async () => {
    const stream = collector();
    await withSpinner(later(300, 'x'), { stream, enabled: false, text: 'Loading', color: false, delayMs: 10 });
    expect(stream.text()).toBe('');
  });

  it('passes failures through', async () => {
    const stream = collector({ tty: true });
    await expect(withSpinner(Promise.reject(new Error('boom')), { stream, enabled: true, text: 'x', color: false })).rejects.toThrow('boom');
  });
});
