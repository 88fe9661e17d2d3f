// A profile logged in with a read-only client (docs/guides/team-access.md): every read works,
// every write exits 3 with one line naming the profile, its client, the missing scope and
// what to do, before anything is sent (test/e2e/write-scope.test.ts: before any prompt), and
// nothing is created; a token whose scope is taken away later meets the server's 403; `auth
// status` shows the token's scope. The built binary against the real server, on both backends.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { noteSecret } from '../helpers/run-logs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const READER = { id: 'reports', secret: 'ReportsSecret0123456789abcdefXYZ' };
const WRITER = { id: 'alice', secret: 'AliceSecret0123456789abcdefXYZ01' };

let srv: TestServer;
let reader: LoggedIn;
let writer: LoggedIn;
let chamber: string;

beforeAll(async () => {
  srv = await startTestServer();
  noteSecret(READER.secret);
  noteSecret(WRITER.secret);
  await srv.server.store.addClient(READER.id, await hashSecret(READER.secret), 'read', new Date());
  await srv.server.store.addClient(WRITER.id, await hashSecret(WRITER.secret), 'write', new Date());
  reader = await loggedIn({ baseUrl: srv.baseUrl, clientId: READER.id, clientSecret: READER.secret });
  writer = await loggedIn({ baseUrl: srv.baseUrl, clientId: WRITER.id, clientSecret: WRITER.secret });
  chamber = (await reader.json<{ id: string }[]>(['chambers', 'list', '--per-page', '1']))[0]!.id;
}, 60_000);
afterAll(async () => {
  await reader?.cleanup();
  await writer?.cleanup();
  await srv?.close();
});

/** What a write command says before it sends anything, for the token the profile holds. */
const refused = (command: string) =>
  `error: profile "default" (client ${READER.id}) has only the read scope; ${command} needs write: ` +
  `ask the directory's operator for a write client (chamberctl clients edit ${READER.id} --scope write) or use a profile that has one\n`;
/** What the server's 403 says, for a token that claimed more than the client now holds. */
const SCOPE_LINE = "error: the profile's client lacks the write scope this needs; ask for a client with write scope\n";

describe('a read-only profile', () => {
  it('reads everything', async () => {
    for (const args of [
      ['chambers', 'list', '--all'],
      ['chambers', 'get', chamber, '--include', 'members,events'],
      ['members', 'list', chamber],
      ['events', 'list', chamber],
      ['api', '/v1/chambers'],
    ]) {
      const r = await reader.run([...args, '--json']);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      JSON.parse(r.stdout);
    }
  });

  it('exits 3 on every write with one line naming the profile, its client and the missing scope, and creates nothing', async () => {
    const count = async () => (await writer.json<unknown[]>(['chambers', 'list', '--all'])).length;
    const members = async () => (await writer.json<unknown[]>(['members', 'list', chamber, '--all'])).length;
    const before = [await count(), await members()];
    const csv = join(reader.dir, 'rows.csv');
    writeFileSync(csv, 'name,email,membership_type\nAda,ada@example.org,standard\nBob,bob@example.org,premium\n');
    for (const args of [
      ['chambers', 'create', '--name', 'Nope', '--type', 'hq', '--street', 'Meir 1', '--city', 'Antwerp', '--country', 'BE'],
      ['members', 'add', chamber, '--name', 'Nope', '--email', 'nope@example.org', '--membership-type', 'standard'],
      ['members', 'import', chamber, csv],
    ]) {
      const r = await reader.run(args);
      expect(r.exitCode, args.join(' ')).toBe(3);
      // an import too: refused before its first row, so no row is reported failed
      expect(r.stderr, args.join(' ')).toBe(refused(`${args[0]} ${args[1]}`));
    }
    const api = await reader.run(['api', `/v2/chambers/${chamber}/members`, '-X', 'POST', '-f', 'name=Nope', '-f', 'email=nope@example.org', '-f', 'membership_type=standard']);
    expect(api.exitCode).toBe(3);
    expect(JSON.parse(api.stdout).error).toBe('insufficient_scope');
    expect([await count(), await members()]).toEqual(before);
  });

  it("a token whose scope the cache overstates still meets the server's 403: exit 3, one line, nothing created", async () => {
    // as a cached token of a client whose write scope was taken away after it was issued
    const file = join(reader.dir, 'config.json');
    const original = readFileSync(file, 'utf8');
    const config = JSON.parse(original);
    const token = config.profiles.default.tokens.v2;
    expect(token.scope).toBe('read');
    writeFileSync(file, JSON.stringify({ ...config, profiles: { ...config.profiles, default: { ...config.profiles.default, tokens: { v2: { ...token, scope: 'write' } } } } }));
    const before = (await writer.json<unknown[]>(['members', 'list', chamber, '--all'])).length;
    const r = await reader.run(['members', 'add', chamber, '--name', 'Nope', '--email', 'stale@example.org', '--membership-type', 'standard']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(SCOPE_LINE);
    // an import lists the rows that were in flight (its report does too), then stops
    const csv = join(reader.dir, 'stale.csv');
    writeFileSync(csv, 'name,email,membership_type\nAda,stale1@example.org,standard\nBob,stale2@example.org,premium\n');
    const imported = await reader.run(['members', 'import', chamber, csv]);
    expect(imported.exitCode).toBe(3);
    const lines = imported.stderr.trimEnd().split('\n');
    expect(`${lines.at(-1)}\n`).toBe(SCOPE_LINE);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^line \d+ \(failed\): the profile's client lacks the write scope/);
    expect((await writer.json<unknown[]>(['members', 'list', chamber, '--all'])).length).toBe(before);
    writeFileSync(file, original);
  });

  it("a write client's import is in the audit trail: one member.add per row created, none for a row skipped", async () => {
    const csv = join(writer.dir, 'audited.csv');
    writeFileSync(csv, 'name,email,membership_type\nAudit One,audit1@example.org,standard\nAudit Two,audit2@example.org,premium\n');
    const first = await writer.run(['members', 'import', chamber, csv, '--json']);
    expect(first.exitCode).toBe(0);
    const again = await writer.run(['members', 'import', chamber, csv, '--json']); // both rows exist: skipped
    expect(again.exitCode).toBe(0);
    const created = (await writer.json<{ id: string; email: string }[]>(['members', 'list', chamber, '--all'])).filter((m) => m.email.startsWith('audit'));
    // what each client did (its own client.add, made by no client, comes with the filter)
    const did = async (id: string) => (await srv.server.store.listAudit({ clientId: id, limit: 100 })).filter((r) => r.client_id === id);
    const records = await did(WRITER.id);
    expect(records.map((r) => r.action)).toEqual(['member.add', 'member.add']);
    expect(records.map((r) => r.target).sort()).toEqual(created.map((m) => m.id).sort());
    expect(await did(READER.id)).toEqual([]);
  });

  it('auth status and login name the scope the server gave', async () => {
    const status = await reader.run(['auth', 'status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toMatch(/token v2: +cached, valid until \S+, scope read\n/);
    expect((await reader.json<{ tokens: { v2: { scope: string } } }>(['auth', 'status'])).tokens.v2.scope).toBe('read');
    expect((await writer.json<{ tokens: { v2: { scope: string } } }>(['auth', 'status'])).tokens.v2.scope).toBe('write');
    const again = await reader.run(['login', '--client-id', READER.id, '--client-secret', READER.secret, '--base-url', srv.baseUrl]);
    expect(again.stderr).toContain(`as client "${READER.id}" (scope read)`);
  });
});
