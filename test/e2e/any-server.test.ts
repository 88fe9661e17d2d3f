// The client against any server that follows the interface document: the same commands run
// against `serve` and against an independent implementation (test/helpers/foreign-server.ts)
// that differs wherever the document says "not shown": numeric ids, extra fields, 200 without
// Location on POST, 400 + fields for validation, tokens revoked early, injected 503s.
// What the CLI prints is compared with what each server itself answers, never with fixed data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/exit-codes.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { csvFile, HEADER, summaryOf, validRows } from '../import/e2e-helpers.js';
import { startForeignServer, type ForeignServer } from '../helpers/foreign-server.js';
import { call } from '../helpers/http.js';
import { startTestServer } from '../helpers/server.js';

interface Target {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Raw calls with the target's own credentials: what the server itself says. */
function raw(t: Target) {
  const tokens = new Map<string, string>();
  const token = async (version: string) => {
    if (!tokens.has(version)) {
      const r = await call(t.baseUrl, 'POST', `/${version}/auth/token`, {
        body: { grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret },
      });
      tokens.set(version, r.body.access_token);
    }
    return tokens.get(version)!;
  };
  return {
    async get(path: string) {
      const version = path.split('/')[1]!;
      const r = await call(t.baseUrl, 'GET', path, { token: await token(version) });
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
      return r.body;
    },
    async all(path: string) {
      const items: unknown[] = [];
      for (let page = 1; ; page++) {
        const body = await this.get(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
        items.push(...body.data);
        if (body.data.length === 0 || items.length >= body.meta.total) return items;
      }
    },
  };
}

const targets: [string, () => Promise<Target>][] = [
  ['serve', () => startTestServer({ seed: 'demo' })],
  ['an independent implementation', () => startForeignServer()],
];

describe.each(targets)('the client against %s', (_name, start) => {
  let target: Target;
  let cli: LoggedIn;
  let server: ReturnType<typeof raw>;
  beforeAll(async () => {
    target = await start();
    cli = await loggedIn(target);
    server = raw(target);
  });
  afterAll(async () => {
    await cli?.cleanup();
    await target?.close();
  });

  it('lists chambers (a page, and --all) exactly as the server returned them, extra fields kept', async () => {
    const page = await cli.json(['chambers', 'list']);
    expect(page).toEqual((await server.get('/v1/chambers')).data);
    const all = await cli.json(['chambers', 'list', '--all']);
    expect(all).toEqual(await server.all('/v1/chambers'));
  });

  it('gets a chamber, with include on v2', async () => {
    const [first] = (await server.get('/v1/chambers')).data;
    expect(await cli.json(['chambers', 'get', first.id])).toEqual(await server.get(`/v1/chambers/${first.id}`));
    expect(await cli.json(['chambers', 'get', first.id, '--include', 'members,events'])).toEqual(
      await server.get(`/v2/chambers/${first.id}?include=members,events`),
    );
    const missing = await cli.run(['chambers', 'get', '999999999']);
    expect(missing.exitCode).toBe(ExitCode.NOT_FOUND);
  });

  it('lists members and events of a chamber', async () => {
    const [first] = (await server.get('/v1/chambers')).data;
    expect(await cli.json(['members', 'list', first.id, '--all'])).toEqual(await server.all(`/v1/chambers/${first.id}/members`));
    expect(await cli.json(['events', 'list', first.id, '--all'])).toEqual(await server.all(`/v2/chambers/${first.id}/events`));
  });

  it('creates a chamber and adds a member, whatever success code the server uses', async () => {
    const hq = await cli.json([
      'chambers', 'create', '--name', 'Any Server HQ', '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE',
    ]);
    expect(hq.name).toBe('Any Server HQ');
    expect(await server.get(`/v1/chambers/${hq.id}`)).toEqual(hq);
    const member = await cli.json(['members', 'add', hq.id, '--name', 'Ada', '--email', 'ada@example.org', '--membership-type', 'premium']);
    expect(member.email).toBe('ada@example.org');
    expect(await server.all(`/v1/chambers/${hq.id}/members`)).toEqual([member]);
    const again = await cli.run(['members', 'add', hq.id, '--name', 'Ada', '--email', 'ADA@example.org', '--membership-type', 'premium']);
    expect(again.exitCode).toBe(ExitCode.REJECTED);
  });

  it('data the server refuses (422, or 400 naming the fields) exits 5 with the field messages', async () => {
    const r = await cli.run([
      'chambers', 'create', '--name', 'Orphan', '--type', 'subsidiary', '--hq-id', '999999999', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE',
    ]);
    expect(r.exitCode).toBe(ExitCode.REJECTED);
    expect(r.stderr).toMatch(/hq_id: /);
  });

  it('imports members: every row once', async () => {
    const hq = await cli.json([
      'chambers', 'create', '--name', 'Import HQ', '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE',
    ]);
    const file = await csvFile(cli.dir, 'members.csv', HEADER + validRows(120, 'any'));
    const r = await cli.run(['members', 'import', hq.id, file, '--json']);
    expect(r.exitCode).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 120, skipped: 0, failed: 0 });
    const members = (await server.all(`/v1/chambers/${hq.id}/members`)) as { email: string }[];
    expect(new Set(members.map((m) => m.email)).size).toBe(120);
  });
});

describe('the client against a server that revokes tokens and fails now and then', () => {
  let foreign: ForeignServer;
  let cli: LoggedIn;
  beforeAll(async () => {
    foreign = await startForeignServer({ revokeAfterCreated: [200, 400], failRate: 0.05 });
    cli = await loggedIn(foreign);
  });
  afterAll(async () => {
    await cli?.cleanup();
    await foreign?.close();
  });

  it('an import of 600 rows goes on through two early revocations and 5% of 503s: every row once', async () => {
    const hq = foreign.chambers[0]!.id as string;
    const file = await csvFile(cli.dir, 'six-hundred.csv', HEADER + validRows(600, 'revoked'));
    const before = foreign.stats.tokenRequests;
    const r = await cli.run(['members', 'import', hq, file, '--json']);
    expect(r.stderr).not.toMatch(/authentication failed/);
    expect(r.exitCode).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 600, failed: 0 });
    expect(foreign.stats.revocations).toBe(2);
    expect(foreign.stats.injected).toBeGreaterThan(0);
    const emails = foreign.membersOf(hq).map((m) => m.email);
    expect(emails.filter((e) => String(e).startsWith('revoked.'))).toHaveLength(600);
    expect(new Set(emails).size).toBe(emails.length);
    // the cached token from login, then one per revocation (concurrent refusals share one)
    expect(foreign.stats.tokenRequests - before).toBeLessThanOrEqual(3);
  });

  it('a token refused right after it was issued ends the command at once (exit 3), without looping', async () => {
    foreign.revokeAll();
    foreign.refuseNewTokens(true);
    try {
      const before = foreign.stats.tokenRequests;
      const r = await cli.run(['chambers', 'list']);
      expect(r.exitCode).toBe(ExitCode.AUTH);
      expect(r.stderr).toMatch(/authentication failed/);
      expect(foreign.stats.tokenRequests - before).toBe(1);
    } finally {
      foreign.refuseNewTokens(false);
    }
  });
});
