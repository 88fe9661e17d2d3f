import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveServeProfile, type ServeProfileRequest } from '../../src/config/local-profile.js';
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
const save = (req: Partial<ServeProfileRequest> & { baseUrl: string }) => saveServeProfile(ctx(), { name: 'local', database: '/data/a.db', ...req });

describe('saveServeProfile (called by serve)', () => {
  it('creates `local` for the server and makes it current for a new user', async () => {
    const result = await save({ baseUrl: 'http://127.0.0.1:8080/', clientId: 'ci', clientSecret: 's3cret' });
    expect(result).toEqual({ saved: true, profile: 'local', madeCurrent: true });
    const store = openProfileStore(ctx().env);
    expect(store.current()).toBe('local');
    expect(store.get('local')).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      clientId: 'ci',
      clientSecret: 's3cret',
      apiVersion: 'auto',
      serveDb: '/data/a.db',
      tokens: {},
    });
  });

  it('does not switch a user who has a current or a default profile', async () => {
    const store = openProfileStore(ctx().env);
    await store.set('default', { baseUrl: 'https://prod.example', apiVersion: 'auto', tokens: {} });
    expect(await save({ baseUrl: 'http://127.0.0.1:9000', clientId: 'c', clientSecret: 's' })).toMatchObject({ madeCurrent: false });
    expect(store.current()).toBeUndefined();
    await store.remove('default');
    await store.set('prod', { baseUrl: 'https://prod.example', apiVersion: 'auto', tokens: {} });
    await store.setCurrent('prod');
    expect(await save({ baseUrl: 'http://127.0.0.1:9000', clientId: 'c', clientSecret: 's' })).toMatchObject({ madeCurrent: false });
    expect(store.current()).toBe('prod');
  });

  it('keeps cached tokens while nothing changed, drops them when the URL or credentials change', async () => {
    const url = 'http://127.0.0.1:8080';
    await save({ baseUrl: url, clientId: 'ci', clientSecret: 'a' });
    const store = openProfileStore(ctx().env);
    const withToken = () => store.set('local', { ...store.get('local')!, tokens: { v2: token(url) } });

    await withToken();
    await save({ baseUrl: url, clientId: 'ci', clientSecret: 'a' });
    expect(store.get('local')!.tokens.v2).toBeDefined();
    await save({ baseUrl: url }); // no credentials given: the saved ones stay
    expect(store.get('local')!.clientSecret).toBe('a');
    expect(store.get('local')!.tokens.v2).toBeDefined();

    await save({ baseUrl: 'http://127.0.0.1:8081' });
    expect(store.get('local')!.tokens).toEqual({});

    await withToken();
    await save({ baseUrl: 'http://127.0.0.1:8081', clientId: 'ci', clientSecret: 'b' });
    expect(store.get('local')!.tokens).toEqual({});
    expect(store.get('local')!.clientSecret).toBe('b');
  });

  it("never takes over another database's profile or a login profile, unless told to", async () => {
    await save({ baseUrl: 'http://127.0.0.1:8080', clientId: 'first', clientSecret: 'one' });
    const store = openProfileStore(ctx().env);
    const second = await save({ baseUrl: 'http://127.0.0.1:8081', database: '/data/b.db', clientId: 'second', clientSecret: 'two' });
    expect(second).toEqual({ saved: false, profile: 'local', warning: expect.stringMatching(/belongs to the server of \/data\/a\.db: left as it is \(--profile NAME/) });
    expect(store.get('local')!.clientId).toBe('first');
    // under its own name it is saved
    expect(await saveServeProfile(ctx(), { name: 'copy', baseUrl: 'http://127.0.0.1:8081', database: '/data/b.db', clientId: 'second', clientSecret: 'two' })).toMatchObject({ saved: true });
    // a profile made by login
    await store.set('prod', { baseUrl: 'https://prod.example', clientId: 'p', clientSecret: 'q', apiVersion: 'auto', tokens: {} });
    expect(await save({ name: 'prod', baseUrl: 'http://127.0.0.1:8082', clientId: 'x', clientSecret: 'y' })).toMatchObject({
      saved: false,
      warning: expect.stringMatching(/belongs to https:\/\/prod\.example \(made by `chamberctl login`\)/),
    });
    // --overwrite-profile
    expect(await save({ baseUrl: 'http://127.0.0.1:8081', database: '/data/b.db', clientId: 'second', clientSecret: 'two', overwrite: true })).toMatchObject({ saved: true });
    expect(store.get('local')).toMatchObject({ clientId: 'second', serveDb: '/data/b.db' });
  });

  it('the same PostgreSQL database, its password in the URL or from PGPASSWORD, is the same server (issue 43)', async () => {
    const withPassword = 'postgres://chamber:***@db.internal:5432/dir';
    await save({ baseUrl: 'http://127.0.0.1:8080', database: withPassword, clientId: 'first', clientSecret: 'one' });
    const again = await save({ baseUrl: 'http://127.0.0.1:8081', database: 'postgresql://chamber@db.internal:5432/dir' });
    expect(again).toMatchObject({ saved: true, profile: 'local' });
    expect(openProfileStore(ctx().env).get('local')).toMatchObject({ clientId: 'first', baseUrl: 'http://127.0.0.1:8081' });
    // another database on that server is another server's
    expect(await save({ baseUrl: 'http://127.0.0.1:8082', database: 'postgres://chamber@db.internal:5432/other' })).toMatchObject({ saved: false });
  });

  it('a :memory: server leaves an existing profile alone, and may make a new one', async () => {
    await save({ baseUrl: 'http://127.0.0.1:8080', clientId: 'first', clientSecret: 'one' });
    expect(await save({ baseUrl: 'http://127.0.0.1:9999', database: ':memory:', clientId: 'm', clientSecret: 'n' })).toMatchObject({
      saved: false,
      warning: expect.stringMatching(/:memory: server does not take over/),
    });
    expect(await saveServeProfile(ctx(), { name: 'scratch', baseUrl: 'http://127.0.0.1:9999', database: ':memory:', clientId: 'm', clientSecret: 'n' })).toMatchObject({ saved: true });
    // that server's database is gone once it stops: the next server may take its profile
    expect(await saveServeProfile(ctx(), { name: 'scratch', baseUrl: 'http://127.0.0.1:9998', database: '/data/c.db', clientId: 'c', clientSecret: 'd' })).toMatchObject({ saved: true });
  });

  it('says when the saved credentials are not a client of this database, and how to fix it', async () => {
    await save({ baseUrl: 'http://127.0.0.1:8080', clientId: 'first', clientSecret: 'one' });
    const r = await save({ baseUrl: 'http://127.0.0.1:8080', credentialsWork: async () => false });
    expect(r).toMatchObject({ saved: true, warning: expect.stringMatching(/not a client of this database: run `chamberctl clients add NAME --db /) });
    expect(await save({ baseUrl: 'http://127.0.0.1:8080', credentialsWork: async () => true })).not.toHaveProperty('warning');
  });
});
