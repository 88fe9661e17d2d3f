import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveLocalProfile } from '../../src/config/local-profile.js';
import { openProfileStore } from '../../src/config/profile-store.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { fakeContext } from '../helpers/fake-context.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeTempDir(dir));

const ctx = () => fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: dir } });
const token = (baseUrl: string) => ({ accessToken: 'tok', expiresAt: '2999-01-01T00:00:00Z', baseUrl });

describe('saveLocalProfile (called by serve)', () => {
  it('creates `local` and makes it current for a new user', async () => {
    const result = await saveLocalProfile(ctx(), { baseUrl: 'http://127.0.0.1:8080/', clientId: 'ci', clientSecret: 's3cret' });
    expect(result).toEqual({ profile: 'local', madeCurrent: true });
    const store = openProfileStore(ctx().env);
    expect(store.current()).toBe('local');
    expect(store.get('local')).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      clientId: 'ci',
      clientSecret: 's3cret',
      apiVersion: 'auto',
      tokens: {},
    });
  });

  it('does not switch a user who has a current or a default profile', async () => {
    const store = openProfileStore(ctx().env);
    store.set('default', { baseUrl: 'https://prod.example', apiVersion: 'auto', tokens: {} });
    expect((await saveLocalProfile(ctx(), { baseUrl: 'http://127.0.0.1:9000' })).madeCurrent).toBe(false);
    expect(store.current()).toBeUndefined();
    store.remove('default');
    store.set('prod', { baseUrl: 'https://prod.example', apiVersion: 'auto', tokens: {} });
    store.setCurrent('prod');
    expect((await saveLocalProfile(ctx(), { baseUrl: 'http://127.0.0.1:9000' })).madeCurrent).toBe(false);
    expect(store.current()).toBe('prod');
  });

  it('keeps cached tokens while nothing changed, drops them when the URL or credentials change', async () => {
    const url = 'http://127.0.0.1:8080';
    await saveLocalProfile(ctx(), { baseUrl: url, clientId: 'ci', clientSecret: 'a' });
    const store = openProfileStore(ctx().env);
    const withToken = () => store.set('local', { ...store.get('local')!, tokens: { v2: token(url) } });

    withToken();
    await saveLocalProfile(ctx(), { baseUrl: url, clientId: 'ci', clientSecret: 'a' });
    expect(store.get('local')!.tokens.v2).toBeDefined();
    await saveLocalProfile(ctx(), { baseUrl: url }); // no credentials given: the saved ones stay
    expect(store.get('local')!.clientSecret).toBe('a');
    expect(store.get('local')!.tokens.v2).toBeDefined();

    await saveLocalProfile(ctx(), { baseUrl: 'http://127.0.0.1:8081' });
    expect(store.get('local')!.tokens).toEqual({});

    withToken();
    await saveLocalProfile(ctx(), { baseUrl: 'http://127.0.0.1:8081', clientId: 'ci', clientSecret: 'b' });
    expect(store.get('local')!.tokens).toEqual({});
    expect(store.get('local')!.clientSecret).toBe('b');
    expect(store.get('local')!.apiVersion).toBe('auto');
  });
});
