import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { openProfileStore } from '../../src/config/profile-store.js';
import type { Profile } from '../../src/config/profile.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => removeTempDir(tmp));

const profile: Profile = {
  baseUrl: 'http://127.0.0.1:8080',
  clientId: 'ci',
  clientSecret: 'SECRET123',
  apiVersion: 'auto',
  tokens: {},
};
const mode = (path: string) => statSync(path).mode & 0o777;

describe('profile store', () => {
  it('creates the directory 0700 and the file 0600', async () => {
    const dir = join(tmp, 'nested', 'chamberctl');
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: dir });
    await store.set('default', profile);
    expect(mode(dir)).toBe(0o700);
    expect(store.path).toBe(join(dir, 'config.json'));
    expect(mode(store.path)).toBe(0o600);
  });

  it('writes atomically: a new file replaces the old one, no temporary files stay', async () => {
    const dir = join(tmp, 'cfg');
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: dir });
    await store.set('default', profile);
    const before = statSync(store.path).ino;
    await store.set('other', profile);
    expect(statSync(store.path).ino).not.toBe(before); // renamed into place, not rewritten in place
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('tightens a config file that was readable by others on the next write', async () => {
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: join(tmp, 'cfg') });
    await store.set('default', profile);
    chmodSync(store.path, 0o644);
    await store.set('default', { ...profile, clientId: 'other' });
    expect(mode(store.path)).toBe(0o600);
  });

  it('round-trips profiles, including names with dots', async () => {
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: join(tmp, 'cfg') });
    await store.set('prod.eu', profile);
    await store.set('default', { ...profile, apiVersion: 'v1' });
    expect(store.get('prod.eu')).toEqual(profile);
    expect(store.list().map((p) => p.name)).toEqual(['default', 'prod.eu']);
    expect(store.get('missing')).toBeUndefined();
    expect(store.get('__proto__')).toBeUndefined();
  });

  it('rejects profile names that are not simple words (exit 2)', async () => {
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: join(tmp, 'cfg') });
    for (const name of ['', '../x', '__proto__', 'a b', 'x'.repeat(65)]) {
      expect(() => store.set(name, profile), name).toThrow(CliError);
    }
  });

  it('removing the current profile clears the selection', async () => {
    const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: join(tmp, 'cfg') });
    await store.set('a', profile);
    await store.setCurrent('a');
    expect(store.current()).toBe('a');
    expect(await store.remove('a')).toBe(true);
    expect(store.current()).toBeUndefined();
    expect(await store.remove('a')).toBe(false);
  });

  it('reports a broken config file in one sentence (exit 1)', async () => {
    const dir = join(tmp, 'cfg');
    await openProfileStore({ CHAMBERCTL_CONFIG_DIR: dir }).set('default', profile);
    writeFileSync(join(dir, 'config.json'), '{ not json');
    let err: unknown;
    try {
      openProfileStore({ CHAMBERCTL_CONFIG_DIR: dir }).get('default');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.FAILURE);
    expect((err as CliError).message).toBe(`cannot read the config file ${join(dir, 'config.json')}: it is not valid JSON; fix or delete it`);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ not json'); // left for the user to inspect
  });
});
