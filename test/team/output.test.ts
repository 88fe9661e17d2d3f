// What `clients` and `audit` print and record, in-process (docs/guides/team-access.md, and the manual's clients and audit pages): the columns
// scripts rely on (appended to, never reordered), the footer of a full page of audit records,
// the end of a grace shown only while it runs, and the operator a command records, taken from
// its context.
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { auditView, fullPageNote } from '../../src/commands/audit/audit.js';
import { clientView } from '../../src/commands/clients/clients.js';
import { localOperator } from '../../src/core/operator.js';
import { openDatabase } from '../../src/storage/open.js';
import type { AuditRecord, ClientRecord } from '../../src/storage/store.js';
import { listClients } from '../../src/team/clients.js';
import { AUDIT_LIMIT } from '../../src/team/durations.js';
import { fakeContext } from '../helpers/fake-context.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-team-output-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the columns of TSV and CSV: those of before, in their order, and the new ones at the end', () => {
  const client: ClientRecord = {
    client_id: 'alice',
    scope: 'write',
    created_at: '2026-11-26T11:18:51.151Z',
    last_used_at: null,
    revoked_at: null,
    old_secret_valid_until: '2026-11-26T11:33:51.151Z',
  };
  const record: AuditRecord = {
    at: '2026-11-26T11:18:51.151Z',
    action: 'client.rotate',
    client_id: null,
    operator: 'alice@build-7',
    target: 'alice',
    request_id: null,
    address: null,
    detail: '15m',
  };

  it('clients list', () => {
    expect(clientView.csv.header).toEqual(['client_id', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'old_secret_valid_until']);
    expect(clientView.tsv(client)).toEqual(['alice', 'write', client.created_at, null, null, client.old_secret_valid_until]);
    expect(clientView.csv.row(client)).toEqual(clientView.tsv(client));
  });

  it("audit: operator and detail after address, though --json puts them in the documented order", () => {
    expect(auditView.csv.header).toEqual(['at', 'action', 'client_id', 'target', 'request_id', 'address', 'operator', 'detail']);
    expect(auditView.tsv(record)).toEqual([record.at, 'client.rotate', null, 'alice', null, null, 'alice@build-7', '15m']);
    expect(auditView.fields).toEqual(['at', 'action', 'client_id', 'operator', 'target', 'request_id', 'address', 'detail']);
  });
});

describe("audit's footer when a page is full", () => {
  it.each([
    [1, '1 record, the newest; --limit 2 shows more, --since picks a period'],
    [100, '100 records, the newest; --limit 200 shows more, --since picks a period'],
    [6000, '6000 records, the newest; --limit 10000 shows more, --since picks a period'],
    [10_000, '10000 records, the newest (the most --limit shows); --since picks a period'],
  ])('%d records', (limit, note) => {
    expect(fullPageNote(limit)).toBe(note);
  });

  it('never suggests a --limit that shows no more than was shown, nor one beyond the maximum', () => {
    for (let limit = 1; limit <= AUDIT_LIMIT.max; limit += limit < 200 ? 1 : 97) {
      const suggested = /--limit (\d+)/.exec(fullPageNote(limit));
      if (limit === AUDIT_LIMIT.max) expect(suggested).toBeNull();
      else {
        expect(Number(suggested![1])).toBeGreaterThan(limit);
        expect(Number(suggested![1])).toBeLessThanOrEqual(AUDIT_LIMIT.max);
      }
    }
  });
});

describe('clients list shows the end of a grace only while it runs', () => {
  it('the time until it ends, then null', async () => {
    const { store } = await openDatabase(join(dir, 'grace.db'));
    try {
      const t0 = new Date('2026-11-26T11:00:00.000Z');
      await store.addClient('g', 'hash', 'write', t0);
      await store.rotateClient('g', 'hash-2', t0, 60_000);
      const until = new Date(t0.getTime() + 60_000).toISOString();
      const shown = async (ms: number) => (await listClients(store, new Date(t0.getTime() + ms)))[0]!.old_secret_valid_until;
      expect(await shown(0)).toBe(until);
      expect(await shown(59_999)).toBe(until);
      expect(await shown(60_000)).toBeNull(); // the old secret works while now < until, as the token endpoint judges it
      expect(await shown(86_400_000)).toBeNull();
      await store.rotateClient('g', 'hash-3', t0, 0);
      expect(await shown(0)).toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe('the operator a client change records', () => {
  it("is the OS user and host this process runs as, user@host", () => {
    expect(localOperator()).toBe(`${userInfo().username}@${hostname()}`);
  });

  it("is the command's context's when it has one: add, rotate, edit, revoke", async () => {
    const db = join(dir, 'operator.db');
    await (await openDatabase(db)).close();
    const runAs = async (...argv: string[]) => {
      const ctx = fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: join(dir, 'config') } });
      ctx.operator = 'ops@test-host';
      const code = await run([...argv, '--db', db], ctx, '0.0.0-test');
      expect(code, ctx.err()).toBe(0);
      return ctx.out();
    };
    await runAs('clients', 'add', 'opclient', '--scope', 'read');
    await runAs('clients', 'rotate', 'opclient', '--grace', '90s');
    await runAs('clients', 'rotate', 'opclient', '--grace', '120s'); // recorded in its largest whole unit
    expect(await runAs('clients', 'edit', 'opclient', '--scope', 'write', '--json')).toBe('{"client_id":"opclient","scope":"write"}\n');
    await runAs('clients', 'edit', 'opclient', '--scope', 'write'); // already: nothing recorded
    await runAs('clients', 'revoke', 'opclient', '--yes');
    const records = JSON.parse(await runAs('audit', '--json'));
    expect(records.map((r: AuditRecord) => [r.action, r.operator, r.detail])).toEqual([
      ['client.revoke', 'ops@test-host', null],
      ['client.scope', 'ops@test-host', 'write'],
      ['client.rotate', 'ops@test-host', '2m'],
      ['client.rotate', 'ops@test-host', '90s'],
      ['client.add', 'ops@test-host', 'read'],
    ]);
  });
});
