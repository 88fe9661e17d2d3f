import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { chooseApiVersion, sessionVersion } from '../../src/client/version.js';

const profile = { flag: false, profile: 'work' };

function usage(fn: () => unknown): CliError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.USAGE);
    return err as CliError;
  }
  throw new Error('expected a usage error');
}

describe('API version choice', () => {
  it('auto: plain reads go to v1, anything needing v2 to v2', () => {
    expect(chooseApiVersion('auto', [], profile)).toBe('v1');
    expect(chooseApiVersion('auto', ['--status'], profile)).toBe('v2');
    expect(chooseApiVersion('auto', ['chambers create'], profile)).toBe('v2');
  });

  it('pinned v2: always v2', () => {
    expect(chooseApiVersion('v2', [], profile)).toBe('v2');
    expect(chooseApiVersion('v2', ['--sort'], profile)).toBe('v2');
  });

  it('pinned v1: plain reads work, a v2 feature is a usage error naming it and the way out', () => {
    expect(chooseApiVersion('v1', [], profile)).toBe('v1');
    const err = usage(() => chooseApiVersion('v1', ['--status'], profile));
    expect(err.message).toBe(
      '--status needs API v2, but profile "work" is pinned to v1; use --api-version v2, or unpin it with `chamberctl config set api-version auto`',
    );
  });

  it('names every v2 option at once', () => {
    expect(usage(() => chooseApiVersion('v1', ['--type', '--sort'], profile)).message).toMatch(/^--type, --sort need API v2/);
  });

  it('says when the pin came from --api-version v1 on the command line', () => {
    const err = usage(() => sessionVersion({ apiVersion: 'v1', profileName: 'default' }, ['events list'], 'v1'));
    expect(err.message).toBe('events list needs API v2, but --api-version v1 was given; use --api-version v2 or auto');
  });

  it('a profile pinned to v1 is overridden by --api-version v2 (the session reports the flag value)', () => {
    expect(sessionVersion({ apiVersion: 'v2', profileName: 'p' }, ['--status'], 'v2')).toBe('v2');
    expect(sessionVersion({ apiVersion: 'v1', profileName: 'p' }, [], undefined)).toBe('v1');
  });
});
