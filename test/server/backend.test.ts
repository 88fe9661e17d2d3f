// The server tests run once per backend (`npm test`: SQLite, then CHAMBERCTL_TEST_BACKEND=
// postgres): this checks that each run really is on the backend it says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { startTestServer, TEST_BACKEND, type TestServer } from '../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none' });
});
afterAll(() => srv?.close());

describe(`the test server (${TEST_BACKEND})`, () => {
  it('runs on the backend this run is for', () => {
    expect(srv.backend).toBe(TEST_BACKEND);
    expect(srv.server.store).toBeInstanceOf(TEST_BACKEND === 'postgres' ? PgStorage : SqliteStore);
    expect(srv.server.store.backend).toBe(TEST_BACKEND);
  });
});
