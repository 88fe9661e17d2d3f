import { describe, expect, it } from 'vitest';
import { colorLevel, outputSettings } from '../../src/output/settings.js';
import { createStyle } from '../../src/output/style.js';
import { ESC, collector } from './fakes.js';

describe('colour decision', () => {
  const tty = collector({ tty: true, colorDepth: 8 });
  const pipe = collector();

  it('is on for a terminal', () => {
    expect(colorLevel(tty, {}, true)).toBe(2);
    expect(colorLevel(collector({ tty: true, colorDepth: 24 }), {}, true)).toBe(3);
  });

  it('is off when the stream is not a terminal, even with FORCE_COLOR', () => {
    expect(colorLevel(pipe, {}, true)).toBe(0);
    expect(colorLevel(pipe, { FORCE_COLOR: '1' }, true)).toBe(0);
  });

  it('honours a non-empty NO_COLOR, and ignores an empty one', () => {
    expect(colorLevel(tty, { NO_COLOR: '1' }, true)).toBe(0);
    expect(colorLevel(tty, { NO_COLOR: '' }, true)).toBe(2);
  });

  it('honours --no-color and TERM=dumb', () => {
    expect(colorLevel(tty, {}, false)).toBe(0);
    expect(colorLevel(tty, { TERM: 'dumb' }, true)).toBe(0);
  });

  it('styles status values only when colour is on', async () => {
    const on = await createStyle(1);
    const off = await createStyle(0);
    expect(on.status('active')).toContain(ESC);
    expect(on.status('active')).toContain('active');
    expect(on.status('canceled')).not.toBe(on.status('active'));
    expect(on.status('unknown')).toBe('unknown');
    expect(off.status('active')).toBe('active');
    expect(off.bold('x')).toBe('x');
  });
});

describe('output mode', () => {
  const ctx = (stdoutTty: boolean, stderrTty: boolean, env: Record<string, string> = {}) => ({
    stdout: collector({ tty: stdoutTty, columns: 132 }),
    stderr: collector({ tty: stderrTty }),
    env,
  });

  it('is a table on a terminal, TSV in a pipe, JSON with --json either way', () => {
    expect(outputSettings({}, ctx(true, true)).mode).toBe('table');
    expect(outputSettings({}, ctx(false, true)).mode).toBe('tsv');
    expect(outputSettings({ json: true }, ctx(true, true)).mode).toBe('json');
    expect(outputSettings({ json: true }, ctx(false, false)).mode).toBe('json');
  });

  it('decides colour per stream', () => {
    const s = outputSettings({ color: true }, ctx(false, true));
    expect(s.stdoutColor).toBe(0);
    expect(s.stderrColor).toBeGreaterThan(0);
  });

  it('takes the width from the terminal, else COLUMNS, else 80', () => {
    expect(outputSettings({}, ctx(true, true)).width).toBe(132);
    expect(outputSettings({}, { ...ctx(false, false), env: { COLUMNS: '100' } }).width).toBe(100);
    expect(outputSettings({}, ctx(false, false)).width).toBe(80);
  });
});
