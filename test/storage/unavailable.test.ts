// unavailableReason: which errors of a store mean that the database cannot be reached or
// did not answer in time (503), and which say something else (they pass unchanged). The
// node-postgres texts are its own (pg 8.23.1, pg-pool 3.14.0); test/storage/pg-bounds.test.ts
// gets each of the main ones from a real pool.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { reportingUnavailable, StorageUnavailable, unavailableReason } from '../../src/storage/unavailable.js';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
/** An error as PostgreSQL sends it, parsed by pg-protocol. */
function dbError(code: string, message: string, severity = 'ERROR') {
  const e = new pg.DatabaseError(message, message.length, 'error');
  e.code = code;
  e.severity = severity;
  return e;
}

describe('unavailableReason', () => {
  it('names the node-postgres errors of a database that is unreachable or silent', () => {
    const cases: [string, string][] = [
      ['timeout exceeded when trying to connect', 'no free connection in time'],
      ['Connection terminated due to connection timeout', 'no connection in time'],
      ['timeout expired', 'no connection in time'],
      ['Query read timeout', 'no answer in time'],
      ['Connection terminated unexpectedly', 'the connection was closed'],
      ['Connection terminated', 'the connection was closed'],
      ['Client has encountered a connection error and is not queryable', 'the connection was closed'],
      ['Client was closed and is not queryable', 'the connection was closed'],
    ];
    for (const [message, reason] of cases) expect(unavailableReason(new Error(message)), message).toBe(reason);
  });

  it('names the socket errors of a connection', () => {
    expect(unavailableReason(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe('connection refused');
    expect(unavailableReason(withCode('ECONNRESET', 'read ECONNRESET'))).toBe('the connection was reset');
    expect(unavailableReason(withCode('EPIPE'))).toBe('the connection was reset');
    for (const code of ['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']) expect(unavailableReason(withCode(code))).toBe('the host does not answer');
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) expect(unavailableReason(withCode(code))).toBe('host not found');
  });

  it('names what PostgreSQL answers when it cannot serve', () => {
    expect(unavailableReason(dbError('57P01', 'terminating connection due to administrator command', 'FATAL'))).toBe('the database is shutting down');
    expect(unavailableReason(dbError('57P02', 'terminating connection due to crash of another server process', 'FATAL'))).toBe('the database is shutting down');
    expect(unavailableReason(dbError('57P03', 'the database system is starting up', 'FATAL'))).toBe('the database is starting up');
    expect(unavailableReason(dbError('08006', 'connection failure', 'FATAL'))).toBe('connection exception');
    expect(unavailableReason(dbError('53300', 'sorry, too many clients already', 'FATAL'))).toBe('the database has no connection left');
    expect(unavailableReason(dbError('57014', 'canceling statement due to statement timeout'))).toBe('a statement ran past statement_timeout');
    expect(unavailableReason(withCode('SQLITE_BUSY', 'database is locked'))).toBe('the database file is locked by another process');
  });

  it('leaves every other error alone', () => {
    expect(unavailableReason(dbError('23505', 'duplicate key value violates unique constraint "members_email_per_chamber"'))).toBeUndefined();
    expect(unavailableReason(dbError('42P01', 'relation "nope" does not exist'))).toBeUndefined();
    expect(unavailableReason(dbError('3D000', 'database "nope" does not exist', 'FATAL'))).toBeUndefined();
    expect(unavailableReason(new Error('Prepared statements must be unique'))).toBeUndefined();
    // the texts are matched whole, not found inside another message
    expect(unavailableReason(new Error('a Query read timeout in a user-supplied name'))).toBeUndefined();
    expect(unavailableReason(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeUndefined();
    expect(unavailableReason(undefined)).toBeUndefined();
    expect(unavailableReason(null)).toBeUndefined();
    expect(unavailableReason('timeout expired')).toBeUndefined();
  });

  it('keeps the reason of a StorageUnavailable', () => {
    expect(unavailableReason(new StorageUnavailable('no answer in time'))).toBe('no answer in time');
  });
});

describe('reportingUnavailable', () => {
  it('turns a store method’s unreachable errors into StorageUnavailable, with the driver’s error as cause, and passes others', async () => {
    const timeout = new Error('Query read timeout');
    const conflict = dbError('23505', 'duplicate key');
    class Store {
      async slow(): Promise<never> {
        throw timeout;
      }
      async clash(): Promise<never> {
        throw conflict;
      }
      async fine(): Promise<number> {
        return 42;
      }
    }
    const store = reportingUnavailable(new Store());
    const err = await store.slow().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUnavailable);
    expect((err as StorageUnavailable).message).toBe('the database is unavailable: no answer in time');
    expect((err as StorageUnavailable).cause).toBe(timeout);
    await expect(store.clash()).rejects.toBe(conflict);
    expect(await store.fine()).toBe(42);
  });
});

describe('a wait for a free connection that timed out', () => {
  const poolTimeout = () => new Error('timeout exceeded when trying to connect');
  class Store {
    async waitForConnection(ms: number): Promise<never> {
      await new Promise((r) => setTimeout(r, ms));
      throw poolTimeout();
    }
    async fine(): Promise<number> {
      return 1;
    }
    async clash(): Promise<never> {
      throw dbError('23505', 'duplicate key');
    }
  }
  const reasonOf = (p: Promise<unknown>) => p.then(() => undefined, (e: StorageUnavailable) => e.reason);

  it('while nothing the database answered: "no answer in time" (silent), not a pool too small', async () => {
    const store = reportingUnavailable(new Store());
    await store.fine(); // answered before the wait began: does not count
    expect(await reasonOf(store.waitForConnection(30))).toBe('no answer in time');
  });

  it('while other calls got answers, results or errors of the database: "no free connection in time" (the pool is busy)', async () => {
    for (const other of ['fine', 'clash'] as const) {
      const store = reportingUnavailable(new Store());
      const waiting = reasonOf(store.waitForConnection(50));
      await new Promise((r) => setTimeout(r, 10));
      await store[other]().catch(() => undefined);
      expect(await waiting, other).toBe('no free connection in time');
    }
  });
});
