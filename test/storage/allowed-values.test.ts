// One fact in one place: the allowed values of src/contract/values.ts (and the scopes of
// contract/auth.ts) are also CHECK constraints in both backends' schemas. A value added to
// the contract without a migration would pass zod, the CLI and the documents, then fail the
// INSERT with a 500. This reads the constraints of a freshly migrated database, SQLite and
// PostgreSQL, and compares each with the contract: a new value is a migration on both.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract/auth.js';
import { API_VERSIONS, CHAMBER_STATUSES, CHAMBER_TYPES, EVENT_STATUSES, MEMBER_STATUSES, MEMBERSHIP_TYPES } from '../../src/contract/values.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { openStorage } from '../../src/storage/sqlite/open-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/** `table.column` → the values its CHECK allows, as the contract has them. */
const CONTRACT: Record<string, readonly string[]> = {
  'chambers.type': CHAMBER_TYPES,
  'chambers.status': CHAMBER_STATUSES,
  'members.membership_type': MEMBERSHIP_TYPES,
  'members.status': MEMBER_STATUSES,
  'events.status': EVENT_STATUSES,
  'tokens.version': API_VERSIONS,
  'tokens.scope': SCOPES,
  'clients.scope': SCOPES,
  // the storage's own bookkeeping (sync's pending changes), not the interface's
  'local_changes.kind': ['chamber', 'member'],
  'local_changes.state': ['pending', 'rejected'],
};

const sorted = (m: Record<string, readonly string[]>) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => (a! < b! ? -1 : 1)));

/** Every `column IN ('a', 'b')` of the CREATE TABLE statements SQLite keeps (ALTERs included). */
function sqliteChecks(): Record<string, string[]> {
  const storage = openStorage(':memory:');
  try {
    const tables = storage.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL").all() as Array<{ name: string; sql: string }>;
    const out: Record<string, string[]> = {};
    for (const { name, sql } of tables) {
      for (const m of sql.matchAll(/CHECK\s*\(\s*(\w+)\s+IN\s*\(([^)]*)\)\s*\)/gi)) {
        out[`${name}.${m[1]}`] = [...m[2]!.matchAll(/'([^']*)'/g)].map((v) => v[1]!);
      }
    }
    return out;
  } finally {
    storage.close();
  }
}

let pgdb: TestDatabase;
beforeAll(async () => {
  pgdb = await createTestDatabase('chamberctl_values');
});
afterAll(() => pgdb?.drop());

/** Every CHECK of the form `column = ANY (ARRAY[...])` in pg_constraint. */
async function postgresChecks(): Promise<Record<string, string[]>> {
  await (await PgStorage.open(pgdb.url)).close(); // migrated
  const client = new pg.Client({ connectionString: pgdb.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tbl: string; def: string }>(
      "SELECT conrelid::regclass::text AS tbl, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace",
    );
    const out: Record<string, string[]> = {};
    for (const { tbl, def } of rows) {
      const m = /^CHECK \(\(\(?(\w+)\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)$/.exec(def);
      if (m) out[`${tbl}.${m[1]}`] = [...m[2]!.matchAll(/'([^']*)'/g)].map((v) => v[1]!);
    }
    return out;
  } finally {
    await client.end();
  }
}

describe('the allowed values of the contract are the CHECK constraints of the schema', () => {
  it('on SQLite', () => {
    expect(sorted(sqliteChecks())).toEqual(sorted(CONTRACT));
  });

  it('on PostgreSQL', async () => {
    expect(sorted(await postgresChecks())).toEqual(sorted(CONTRACT));
  });
});
