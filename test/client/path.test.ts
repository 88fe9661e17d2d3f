import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { pathSegment } from '../../src/client/path.js';

describe('pathSegment', () => {
  it.each([
    ['ch_abc', 'ch_abc'],
    ['a/b', 'a%2Fb'],
    ['a.b', 'a.b'],
    ['...', '...'],
    ['Zürich 1', 'Z%C3%BCrich%201'],
  ])('%j → %s, one segment of the path', (input, out) => {
    expect(pathSegment(input)).toBe(out);
    expect(new URL(`http://h/v1/chambers/${pathSegment(input)}`).pathname).toBe(`/v1/chambers/${out}`);
  });

  it.each(['.', '..'])('refuses %j, which URL parsing would remove, as a usage error', (input) => {
    expect(() => pathSegment(input)).toThrow(CliError);
    try {
      pathSegment(input);
    } catch (e) {
      expect((e as CliError).exitCode).toBe(ExitCode.USAGE);
    }
  });
});
