import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileStore } from '../../src/config/profile-store.js';
import { profileCandidates } from '../../src/completion/profile-names.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';

// The completion reads profile names straight from the JSON file (fast, no conf or zod);
// it must agree with the profile store that writes it.

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeTempDir(dir));

const env = () => ({ CHAMBERCTL_CONFIG_DIR: dir });

describe('profileCandidates', () => {
  it('lists the names the profile store lists, with base URLs and the current one marked', async () => {
    const store = openProfileStore(env());
    await store.set('zeta.eu', { baseUrl: 'https://eu.example.org', apiVersion: 'v1', tokens: {} });
    await store.set('alpha', {
      baseUrl: 'http://127.0.0.1:8080',
      apiVersion: 'auto',
      clientId: 'ci',
      clientSecret: 'TopSecretValue',
      tokens: { v2: { accessToken: 'tok_ABCDEF', expiresAt: '2099-01-01T00:00:00Z', baseUrl: 'http://127.0.0.1:8080' } },
    });
    await store.setCurrent('zeta.eu');
    const got = profileCandidates(env());
    expect(got.map((c) => c.value)).toEqual(store.list().map((p) => p.name));
    expect(got).toEqual([
      { value: 'alpha', description: 'http://127.0.0.1:8080' },
      { value: 'zeta.eu', description: 'https://eu.example.org (current)' },
    ]);
    expect(JSON.stringify(got)).not.toMatch(/TopSecretValue|tok_ABCDEF|"ci"/);
  });

  it('is empty, without creating anything, when there is no config', async () => {
    expect(profileCandidates({ CHAMBERCTL_CONFIG_DIR: join(dir, 'absent') })).toEqual([]);
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });

  it('is empty when the file is not JSON or oddly shaped', async () => {
    writeFileSync(join(dir, 'config.json'), '{oops');
    expect(profileCandidates(env())).toEqual([]);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: ['a'] }));
    expect(profileCandidates(env())).toEqual([]);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { a: 'x' } }));
    expect(profileCandidates(env())).toEqual([{ value: 'a' }]);
  });
});
