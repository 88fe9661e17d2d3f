import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { openSession, readsOnly } from '../../src/client/session.js';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { noteSecret } from '../helpers/run-logs.js';
import type { Session } from '../../src/client/types.js';
import { openProfileStore } from '../../src/config/profile-store.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fakeContext } from '../helpers/fake-context.js';
import type { GlobalOptions } from '../../src/core/context.js';

// openSession and the DirectoryApi against the real embedded server.

let server: TestServer;
let dir: string;
let session: Session | undefined;
const globals: GlobalOptions = { color: false };

const READER = { id: 'reader', secret: 'ReaderSecret0123456789abcdefXYZ' };

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  noteSecret(READER.secret);
  await server.server.store.addClient(READER.id, await hashSecret(READER.secret), 'read', new Date());
});
afterAll(() => server.close());

beforeEach(async () => {
  dir = await makeTempDir();
  await openProfileStore({ CHAMBERCTL_CONFIG_DIR: dir }).set('default', {
    baseUrl: server.baseUrl,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    apiVersion: 'auto',
    tokens: {},
  });
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await removeTempDir(dir);
});

const ctxFor = (env: Record<string, string> = {}) => fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: dir, ...env } });
const rejection = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as CliError);

describe('openSession', () => {
  it('lists and gets chambers on both versions, caching one token per version in the profile', async () => {
    const ctx = ctxFor();
    session = await openSession(globals, ctx);
    expect(session.profileName).toBe('default');
    expect(session.apiVersion).toBe('auto');
    const v1 = await session.api.listChambers('v1', { per_page: '3' });
    expect(v1.data).toHaveLength(3);
    expect(v1.meta.per_page).toBe(3);
    const v2 = await session.api.listChambers('v2', { 'filter[type]': 'hq', per_page: '5' });
    expect(v2.data.every((c) => c.type === 'hq')).toBe(true);
    const one = await session.api.getChamber('v2', v1.data[0]!.id, { include: 'members,events' });
    expect(one.id).toBe(v1.data[0]!.id);
    expect(Array.isArray(one.members)).toBe(true);
    const tokens = openProfileStore(ctx.env).get('default')!.tokens;
    expect(tokens.v1?.accessToken).toBeTruthy();
    expect(tokens.v2?.accessToken).toBeTruthy();
  });

  it('maps a missing chamber to exit 4', async () => {
    session = await openSession(globals, ctxFor());
    const err = await rejection(session.api.getChamber('v1', 'ch_doesnotexist', {}));
    expect(err).toBeInstanceOf(CliError);
    expect(err?.exitCode).toBe(ExitCode.NOT_FOUND);
  });

  it('maps a bad query parameter to exit 2 with the field', async () => {
    session = await openSession(globals, ctxFor());
    const err = await rejection(session.api.listChambers('v2', { 'filter[status]': 'bogus' }));
    expect(err?.exitCode).toBe(ExitCode.USAGE);
    expect(err?.details.join('\n')).toContain('filter[status]');
  });

  it('maps validation failures (422) and duplicates (409) to exit 5 with the field messages', async () => {
    session = await openSession(globals, ctxFor());
    const chamber = (await session.api.listChambers('v1', { per_page: '1' })).data[0]!;
    const bad = await rejection(
      session.api.addMember(chamber.id, { name: 'A', email: 'not-an-address', membership_type: 'standard' }),
    );
    expect(bad?.exitCode).toBe(ExitCode.REJECTED);
    expect(bad?.details).toContain('email: must be a valid e-mail address');

    const email = `dup-${Date.now()}@example.org`;
    const added = await session.api.addMember(chamber.id, { name: 'Ada', email, membership_type: 'premium' });
    expect(added.email).toBe(email);
    const dup = await rejection(session.api.addMember(chamber.id, { name: 'Ada', email, membership_type: 'premium' }));
    expect(dup?.exitCode).toBe(ExitCode.REJECTED);
    expect(dup?.details.some((l) => l.startsWith('email: '))).toBe(true);
  });

  it('creates a chamber and lists events (v2)', async () => {
    session = await openSession(globals, ctxFor());
    const created = await session.api.createChamber({
      name: 'Test Chamber',
      type: 'hq',
      address: { street: '1 Test Street', city: 'Bremen', country: 'DE' },
    });
    expect(created.name).toBe('Test Chamber');
    const events = await session.api.listEvents(created.id, {});
    expect(events.data).toEqual([]);
  });

  it('renews a refused cached token once and repeats the call', async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    const p = store.get('default')!;
    await store.set('default', {
      ...p,
      tokens: { v2: { accessToken: 'not-a-valid-token', expiresAt: '2999-01-01T00:00:00Z', baseUrl: server.baseUrl } },
    });
    const before = server.tokenRequests();
    session = await openSession(globals, ctx);
    const page = await session.api.listChambers('v2', { per_page: '1' });
    expect(page.data).toHaveLength(1);
    expect(server.tokenRequests() - before).toBe(1);
    expect(store.get('default')!.tokens.v2?.accessToken).not.toBe('not-a-valid-token');
  });

  it('fails with exit 3 and a login hint when the profile has no credentials', async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    const { clientSecret: _s, ...rest } = store.get('default')!;
    await store.set('default', rest);
    const err = await rejection(openSession(globals, ctx));
    expect(err?.exitCode).toBe(ExitCode.AUTH);
    expect(err?.message).toBe('profile "default" has no credentials; run `chamberctl login`');
    const missing = await rejection(openSession({ ...globals, profile: 'nope' }, ctx));
    expect(missing?.exitCode).toBe(ExitCode.AUTH);
    expect(missing?.message).toBe('there is no profile "nope"; run `chamberctl login --profile nope` for a server, or start a local one with `chamberctl serve --profile nope`');
  });

  it("names the commands that give a serve's profile a client when it has none (issue 43)", async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    const { clientSecret: _s, clientId: _i, ...rest } = store.get('default')!;
    await store.set('default', { ...rest, serveDb: '/home/me/chamberctl.db' });
    const err = await rejection(openSession(globals, ctx));
    expect(err?.exitCode).toBe(ExitCode.AUTH);
    expect(err?.message).toBe(
      'profile "default" has no credentials; run `chamberctl clients add NAME --db /home/me/chamberctl.db`, then restart with `chamberctl serve --profile default --db /home/me/chamberctl.db --client-id NAME` and the secret it printed in CHAMBERCTL_CLIENT_SECRET (serve saves them in the profile)',
    );
  });

  it('fails with exit 3 when the saved secret is no longer accepted', async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    await store.set('default', { ...store.get('default')!, clientSecret: 'changed-on-the-server' });
    session = await openSession(globals, ctx);
    const err = await rejection(session.api.listChambers('v1', {}));
    expect(err?.exitCode).toBe(ExitCode.AUTH);
    // the secret worked when it was saved: logging in again with it cannot help
    expect(err?.message).toBe(
      `profile "default": ${server.baseUrl} refused client ${server.clientId} (client authentication failed); ` +
        "the client may have been revoked or its secret rotated: ask the directory's operator for a new secret, " +
        'then log in with it (chamberctl login --profile default)',
    );
  });

  it("never sends a profile's credentials to another origin: --base-url there needs its own (exit 3)", async () => {
    const other = await startTestServer({ seed: 'none' });
    try {
      const ctx = ctxFor();
      const err = await rejection(openSession({ ...globals, baseUrl: other.baseUrl }, ctx));
      expect(err?.exitCode).toBe(ExitCode.AUTH);
      expect(err?.message).toBe(
        `profile "default" holds credentials for ${server.baseUrl} only, not for ${other.baseUrl}: ` +
          `log in to it (chamberctl login --profile NAME --base-url ${other.baseUrl}), or set CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET for it`,
      );
      // a profile saved for that origin is named
      await openProfileStore(ctx.env).set('there', { baseUrl: other.baseUrl, clientId: 'x', clientSecret: 'y', apiVersion: 'auto', tokens: {} });
      const named = await rejection(openSession({ ...globals, baseUrl: `${other.baseUrl}/v2` }, ctx));
      expect(named?.message).toContain(`not for ${other.baseUrl}: use --profile there (saved for it), or set`);
      expect(other.tokenRequests()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('--base-url of another origin takes CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET, and saves no token', async () => {
    const other = await startTestServer({ seed: 'none' });
    try {
      const ctx = ctxFor({ CHAMBERCTL_CLIENT_ID: other.clientId, CHAMBERCTL_CLIENT_SECRET: other.clientSecret });
      session = await openSession({ ...globals, baseUrl: other.baseUrl }, ctx);
      const page = await session.api.listChambers('v1', {});
      expect(page.meta.total).toBe(0);
      expect(openProfileStore(ctx.env).get('default')!.tokens).toEqual({});
      await session.close();
      // refused there: the line names where the credentials came from
      session = await openSession({ ...globals, baseUrl: other.baseUrl }, ctxFor({ CHAMBERCTL_CLIENT_ID: READER.id, CHAMBERCTL_CLIENT_SECRET: READER.secret }));
      const e = await rejection(session.api.listChambers('v1', {}));
      expect(e?.exitCode).toBe(ExitCode.AUTH);
      expect(e?.message).toBe(
        `${other.baseUrl} refused client ${READER.id} from CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET (client authentication failed)`,
      );
    } finally {
      await session?.close();
      session = undefined;
      await other.close();
    }
  });

  it('refuses to send the secret, or a cached token, over plain http to an address other than loopback (exit 3)', async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    const remote = 'http://192.0.2.1:8080'; // TEST-NET-1: nothing answers there
    const line = 'refusing to send the client secret to http://192.0.2.1:8080 over plain http: use its https:// URL';
    await store.set('default', { ...store.get('default')!, baseUrl: remote });
    session = await openSession(globals, ctx);
    const err = await rejection(session.api.listChambers('v1', {}));
    expect(err?.exitCode).toBe(ExitCode.AUTH);
    expect(err?.message.startsWith(line)).toBe(true);
    await session.close();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    await store.set('default', { ...store.get('default')!, tokens: { v1: { accessToken: 'cached', expiresAt, baseUrl: remote } } });
    session = await openSession(globals, ctx);
    const cached = await rejection(session.api.listChambers('v1', {}));
    expect(cached?.exitCode).toBe(ExitCode.AUTH);
    expect(cached?.message).toContain('refusing to send a token to http://192.0.2.1:8080 over plain http');
  });

  it('names the URL when the server cannot be reached (exit 1)', async () => {
    const gone = await startTestServer({ seed: 'none' });
    await gone.close();
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    await store.set('default', { ...store.get('default')!, baseUrl: gone.baseUrl });
    session = await openSession(globals, ctx);
    const err = await rejection(session.api.listChambers('v1', {}));
    expect(err?.exitCode).toBe(ExitCode.FAILURE);
    expect(err?.message).toBe(`cannot reach ${gone.baseUrl}: connection refused`);
  });
});

describe('Session.requireWrite: a write command asks first whether the client may write', () => {
  const readOnlyLine = (command: string) =>
    `profile "default" (client ${READER.id}) has only the read scope; ${command} needs write: ` +
    `ask the directory's operator for a write client (chamberctl clients edit ${READER.id} --scope write) or use a profile that has one`;

  /** The profile logged in as the read client, no token cached. */
  async function asReader(ctx: ReturnType<typeof ctxFor>) {
    const store = openProfileStore(ctx.env);
    await store.set('default', { ...store.get('default')!, clientId: READER.id, clientSecret: READER.secret, tokens: {} });
    return store;
  }

  it('refuses a read-only client with exit 3 and one line, after one token request when none is cached', async () => {
    const ctx = ctxFor();
    const store = await asReader(ctx);
    const before = server.tokenRequests();
    session = await openSession(globals, ctx);
    const err = await rejection(session.requireWrite('members add'));
    expect(err).toBeInstanceOf(CliError);
    expect(err?.exitCode).toBe(ExitCode.AUTH);
    expect(err?.message).toBe(readOnlyLine('members add'));
    expect(server.tokenRequests() - before).toBe(1);
    expect(store.get('default')!.tokens.v2?.scope).toBe('read'); // cached, as any token
  });

  it('asks again when the cached token says read (write may have been granted since): one token request', async () => {
    const ctx = ctxFor();
    const store = await asReader(ctx);
    session = await openSession(globals, ctx);
    await rejection(session.requireWrite('chambers create'));
    await session.close();
    const cached = store.get('default')!.tokens.v2!;
    const before = server.tokenRequests();
    session = await openSession(globals, ctx);
    expect((await rejection(session.requireWrite('chambers create')))?.message).toBe(readOnlyLine('chambers create'));
    expect(server.tokenRequests() - before).toBe(1);
    // a client that holds write now, whose cached token still says read: the new token decides
    await store.set('default', { ...store.get('default')!, clientId: server.clientId, clientSecret: server.clientSecret, tokens: { v2: { ...cached, scope: 'read' } } });
    await session.close();
    session = await openSession(globals, ctx);
    await session.requireWrite('members add');
    expect(server.tokenRequests() - before).toBe(2);
    expect(store.get('default')!.tokens.v2?.scope).toBe('write');
  });

  it('lets a write client go on, with no request once its token is cached; a token that names no scope too', async () => {
    const ctx = ctxFor();
    const store = openProfileStore(ctx.env);
    const before = server.tokenRequests();
    session = await openSession(globals, ctx);
    await session.requireWrite('members add'); // gets the token the POST will use
    await session.requireWrite('members add');
    expect(server.tokenRequests() - before).toBe(1);
    await session.close();
    const { scope: _scope, ...unscoped } = store.get('default')!.tokens.v2!;
    await store.set('default', { ...store.get('default')!, tokens: { v2: unscoped } });
    session = await openSession(globals, ctx);
    await session.requireWrite('members add'); // a server that does not say: its answer to the POST will
    expect(server.tokenRequests() - before).toBe(1);
  });
});

describe('readsOnly', () => {
  it('is true only for a scope that names read and nothing else', () => {
    expect(readsOnly('read')).toBe(true);
    expect(readsOnly('read read')).toBe(true);
    expect(readsOnly('read write')).toBe(false);
    expect(readsOnly('write')).toBe(false);
    expect(readsOnly('members:write')).toBe(false);
    expect(readsOnly('')).toBe(false);
    expect(readsOnly(undefined)).toBe(false);
  });
});
