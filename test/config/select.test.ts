import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/core/exit-codes.js';
import { loginHint, selectProfile, shouldBecomeCurrent } from '../../src/config/select.js';

const store = (current?: string, existing: string[] = []) => ({
  current: () => current,
  get: (name: string) =>
    existing.includes(name) ? { baseUrl: 'http://x', apiVersion: 'auto' as const, tokens: {} } : undefined,
});

describe('selectProfile: --profile > CHAMBERCTL_PROFILE > profiles use > default', () => {
  it('follows the precedence', () => {
    expect(selectProfile({ profile: 'flag' }, { CHAMBERCTL_PROFILE: 'env' }, store('cur'))).toEqual({ name: 'flag', source: 'flag' });
    expect(selectProfile({}, { CHAMBERCTL_PROFILE: 'env' }, store('cur'))).toEqual({ name: 'env', source: 'env' });
    expect(selectProfile({}, {}, store('cur'))).toEqual({ name: 'cur', source: 'current' });
    expect(selectProfile({}, {}, store())).toEqual({ name: 'default', source: 'default' });
    expect(selectProfile({}, { CHAMBERCTL_PROFILE: '' }, store())).toEqual({ name: 'default', source: 'default' });
  });

  it('rejects a malformed name from the flag or the environment', () => {
    expect(() => selectProfile({ profile: '../etc' }, {}, store())).toThrow(CliError);
    expect(() => selectProfile({}, { CHAMBERCTL_PROFILE: 'a b' }, store())).toThrow(CliError);
  });

  it('names the profile in the login hint only when it came from --profile', () => {
    expect(loginHint('x', 'flag')).toBe('run `chamberctl login --profile x`');
    expect(loginHint('x', 'env')).toBe('run `chamberctl login`');
  });
});

describe('shouldBecomeCurrent', () => {
  it('only when nothing else would be used', () => {
    expect(shouldBecomeCurrent(store(), 'local')).toBe(true);
    expect(shouldBecomeCurrent(store('prod', ['prod']), 'local')).toBe(false);
    expect(shouldBecomeCurrent(store(undefined, ['default']), 'local')).toBe(false);
    // `default` is used anyway when no current profile is saved
    expect(shouldBecomeCurrent(store(), 'default')).toBe(false);
  });
});
