import pg from 'pg';
import pgpass from 'pgpass';
import type { PoolStats } from '../store.js';

/**
 * The connections of one instance to PostgreSQL: one node-postgres Pool, whose `max` bounds every
 * connection the instance opens, whatever for
 * (docs/operations/shared-deployment.md#operating-it), and the bounds that keep a request
 * from waiting on a database that is down, refusing, resetting or silent. The only module that
 * talks to node-postgres directly.
 *
 * What node-postgres 8.23.1 does on each failure (read in node_modules/pg and pg-pool):
 * - No connection in time: pg-pool fails the acquire after `connectionTimeoutMillis`, from
 *   the queue with "timeout exceeded when trying to connect", or, for a connection it was
 *   opening, by destroying the socket ("Connection terminated due to connection timeout");
 *   the client's own connect timer destroys the socket with "timeout expired".
 * - No answer in time: the query fails with "Query read timeout" after `query_timeout`, but
 *   the client keeps the query as its active one and the socket open; were it released
 *   normally, the pool would hand it out again and the next query would queue behind the
 *   lost one. So a client whose query failed for anything but an answer of the server is
 *   released with the error, which makes the pool drop it; pg-pool's `_remove` calls
 *   `client.end()`, which destroys the socket when a query is still active or the client
 *   has had a socket error, and otherwise sends Terminate and half-closes it (which lingers
 *   when nothing answers), so release() below also destroys the socket itself.
 * - The socket fails or the server closes it: every query of the client fails (the
 *   socket's error, or "Connection terminated unexpectedly"), and the client emits 'error'.
 *   An idle client's error goes to the pool, which drops it and emits 'error' (unhandled,
 *   that would end the process); a checked-out client's 'error' is ours to handle.
 * - `pool.end()` resolves once every client has been released and the idle ones told to
 *   end; it does not wait for their sockets to close, and never resolves while a client is
 *   held. close() below bounds it and then destroys whatever socket is left.
 */

/**
 * How long a request may wait for a connection, connecting included. A connection to a
 * reachable server takes milliseconds (a TLS handshake tens of them), and a pool queue that
 * has not moved for this long is an overload better answered 503 than served late.
 * ACQUIRE + QUERY (4.5 s) is the longest a statement can keep a request waiting on a
 * database that has gone silent, under the 5 s in which every request is answered whatever
 * the database does (a request's first statement that gets no answer ends it).
 */
export const ACQUIRE_TIMEOUT_MS = 2000;
/**
 * The longest the client waits for the answer to one statement. The storage's statements
 * take well under 50 ms (a list's p99 under load is 10-30 ms, docs/performance.md): no
 * answer for this long means the server or the network is gone (a silent network gives no
 * error until TCP gives up, minutes later).
 */
export const QUERY_TIMEOUT_MS = 2500;
/**
 * PostgreSQL's own bound on a statement (`statement_timeout`), below QUERY_TIMEOUT_MS: a
 * statement that is merely slow is cancelled by the server, which answers (57014), so its
 * connection stays usable; the client's bound is left for a server that does not answer.
 */
export const STATEMENT_TIMEOUT_MS = 2000;
/**
 * Bulk work (migrations, the demo seed, snapshot import and export, `sync` copies, and the
 * advisory locks they wait on while another instance does the same) has no statement_timeout
 * and this client bound per statement instead: longer than any one of their statements on
 * the large demo data (seconds), yet a silent database still fails the command in the end.
 * (node-postgres ignores a query_timeout of 0 given per query, and setTimeout would fire an
 * Infinity at once.)
 */
export const BULK_QUERY_TIMEOUT_MS = 10 * 60_000;
/** How long close() lets the pool end gracefully before it destroys the sockets left. */
export const CLOSE_TIMEOUT_MS = 3000;
/** An idle connection is closed after this long (as postgres.js's idle_timeout was). */
const IDLE_TIMEOUT_MS = 60_000;
/**
 * TCP keep-alive probes start after this long idle, so that a connection whose peer is gone
 * fails while idle (and leaves the pool) instead of on the next request. Node's default
 * would be the system's, 2 hours.
 */
const KEEPALIVE_DELAY_MS = 10_000;

/** A statement sent to PostgreSQL. */
export interface StatementOptions {
  /**
   * A named prepared statement, parsed once per connection and planned from then on by
   * plan_cache_mode (GENERIC_PLANS below; why: pg-storage.ts). For the hot statements,
   * whose texts come from a fixed set; never for a text that varies with the data (a
   * batch's size).
   */
  prepare?: boolean;
}

/** What runs statements: the pool (a connection for each), or one connection held. */
export interface Queryable {
  /** The rows of a statement. */
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[], opts?: StatementOptions): Promise<R[]>;
  /** The number of rows a statement changed. */
  execute(text: string, params?: readonly unknown[], opts?: StatementOptions): Promise<number>;
}

export interface PgPoolOptions {
  /** The bound on connections (serve --pool-size). */
  max: number;
  /**
   * A command's pool rather than a server's (`sync`, `snapshot`): every statement is bulk
   * work, with BULK_QUERY_TIMEOUT_MS and no statement_timeout, and waits for a connection
   * as long; connecting is still bounded by ACQUIRE_TIMEOUT_MS.
   */
  bulk?: boolean;
  /** Sees each statement sent, with its parameters (the query-plan tests record them). */
  onQuery?: (text: string, params: unknown[]) => void;
  /**
   * `transaction`: the connections go through a pooler in transaction mode (PgBouncer's
   * `pool_mode = transaction`, serve --pg-pooler), where consecutive statements may reach
   * different server connections: nothing is kept per session (SESSION_SETTINGS), no
   * statement is prepared by name, and a transaction sets its own statement_timeout.
   */
  pooler?: 'transaction';
}

/**
 * What every connection sets once it is made (sent with the first statement, in one round
 * trip): the server's bound on a statement (not for bulk work), and each prepared statement
 * kept on its generic plan (why: pg-storage.ts, at PREPARED). Sent as a statement, not as
 * startup parameters: a connection pooler refuses those it does not know (PgBouncer 1.18 by
 * default: "unsupported startup parameter: statement_timeout"), and session settings are
 * what a session pooler keeps. A URL's own `options` still go in the startup packet.
 */
const SESSION_SETTINGS = 'SET plan_cache_mode = force_generic_plan';
const REQUEST_BOUND = `SET statement_timeout = ${STATEMENT_TIMEOUT_MS}`;

/**
 * Type parsers: what the storage reads comes back as postgres.js returned it. Booleans,
 * 2- and 4-byte integers and floats as numbers, bytea as a Buffer; everything else as
 * PostgreSQL's text (bigint and numeric as strings, times as the text stored, never a Date
 * in the local zone), whatever the process-wide pg.types say.
 */
const asText = (value: string) => value;
const PARSERS = new Map<number, (value: string) => unknown>([
  [pg.types.builtins.BOOL, (v) => v === 't'],
  [pg.types.builtins.INT2, (v) => Number.parseInt(v, 10)],
  [pg.types.builtins.INT4, (v) => Number.parseInt(v, 10)],
  [pg.types.builtins.FLOAT4, Number.parseFloat],
  [pg.types.builtins.FLOAT8, Number.parseFloat],
  [pg.types.builtins.BYTEA, pg.types.getTypeParser(pg.types.builtins.BYTEA, 'text') as (v: string) => Buffer],
]);
const TYPES = { getTypeParser: (oid: number) => PARSERS.get(oid) ?? asText } as unknown as pg.CustomTypesConfig;

/** Names of prepared statements by their text: one name per text, the same on every connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `chamberctl_${statementNames.size + 1}`));
  return name;
}

/**
 * Whether an error leaves the connection usable: an answer of the server about the
 * statement (a constraint, a cancel by statement_timeout) does; one that closes the session
 * (class 08, 57P01-57P03) does not, nor does anything raised on the client's side (no
 * answer in time, a socket error, a connection ended).
 */
function connectionSurvives(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return false;
  const code = err.code ?? '';
  return !code.startsWith('08') && !/^57P0[123]$/.test(code) && err.severity !== 'FATAL' && err.severity !== 'PANIC';
}

/** A connection taken from the pool, until release(). */
export class PgConnection implements Queryable {
  /** Why the connection must not go back to the pool, once something said so. */
  broken: unknown;
  /** Bulk work: BULK_QUERY_TIMEOUT_MS for each statement instead of the pool's bound. */
  bulk: boolean;
  private readonly onError = (err: unknown) => void (this.broken ??= err);

  constructor(
    readonly client: pg.PoolClient,
    private readonly pool: PgPool,
  ) {
    this.bulk = pool.bulk;
    // a checked-out client's socket errors are emitted here; with no listener they would
    // end the process
    client.on('error', this.onError);
  }

  async query<R = Record<string, unknown>>(text: string, params: readonly unknown[] = [], opts: StatementOptions = {}): Promise<R[]> {
    return (await this.send<R>(text, params, opts)).rows;
  }

  async execute(text: string, params: readonly unknown[] = [], opts: StatementOptions = {}): Promise<number> {
    return (await this.send(text, params, opts)).rowCount ?? 0;
  }

  private async send<R>(text: string, params: readonly unknown[], opts: StatementOptions): Promise<pg.QueryResult<R & pg.QueryResultRow>> {
    if (this.broken !== undefined) throw this.broken;
    this.pool.onQuery?.(text, params as unknown[]);
    const config = {
      text,
      values: params as unknown[],
      // a pooler in transaction mode would send the next use of a name to another server
      // connection, which never prepared it (or prepared another text under it: 42P05)
      ...(opts.prepare && !this.pool.transactionPooler ? { name: statementName(text) } : {}),
      ...(this.bulk ? { query_timeout: BULK_QUERY_TIMEOUT_MS } : {}),
    };
    try {
      return await this.client.query<R & pg.QueryResultRow>(config);
    } catch (err) {
      if (!connectionSurvives(err)) this.broken ??= err;
      const code = (err as { code?: string }).code;
      if ('name' in config && (code === '42P05' || code === '26000')) {
        // a name prepared on one server connection and used on another: a transaction pooler
        throw new Error(`${(err as Error).message}: PostgreSQL is reached through a connection pooler in transaction mode; start serve with --pg-pooler transaction`, { cause: err });
      }
      throw err;
    }
  }

  /** Ends the transaction begin() opened: COMMIT, or ROLLBACK (when it can still be sent); then release(). */
  async end(commit: boolean): Promise<void> {
    try {
      if (commit) await this.execute('COMMIT');
      // a connection that is gone has no transaction left to end (release drops it)
      else if (this.broken === undefined) await this.execute('ROLLBACK').catch(() => undefined);
    } finally {
      this.release();
    }
  }

  /**
   * Back to the pool, or, when it failed, to no one: the pool drops it and its socket is
   * destroyed, so an instance never holds more sockets than its pool's size and a
   * connection to a silent server cannot stay behind as a busy one. A connection left inside
   * a transaction is dropped too.
   */
  release(): void {
    this.client.off('error', this.onError);
    const unusable = this.broken ?? (this.client.getTransactionStatus() === 'I' ? undefined : new Error('released inside a transaction'));
    if (unusable === undefined) {
      this.client.release();
      return;
    }
    this.client.release(unusable instanceof Error ? unusable : new Error(String(unusable)));
    this.client.connection.stream.destroy();
  }
}

/** The pool, with the bounds above. */
export class PgPool implements Queryable {
  readonly pool: pg.Pool;
  readonly bulk: boolean;
  readonly onQuery: PgPoolOptions['onQuery'];
  /** Through a pooler in transaction mode (PgPoolOptions.pooler). */
  readonly transactionPooler: boolean;
  /** Every client the pool made whose socket has not closed yet (close() destroys them). */
  private readonly sockets = new Set<pg.Client>();

  constructor(url: string, opts: PgPoolOptions) {
    this.bulk = opts.bulk ?? false;
    this.onQuery = opts.onQuery;
    this.transactionPooler = opts.pooler === 'transaction';
    const sockets = this.sockets;
    // the pool makes its clients with its own options; this class keeps count of them, and
    // bounds connecting by ACQUIRE_TIMEOUT_MS even where waiting for the pool is longer
    class CountedClient extends pg.Client {
      constructor(config: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS });
        // No password in the URL nor in PGPASSWORD (node-postgres reads that one itself): the
        // password file, as libpq reads it. node-postgres would read it too, but with a
        // deprecation warning on stderr; this is the way it recommends instead.
        if (this.password === null) this.password = passwordFromFile as unknown as string;
        sockets.add(this);
        this.once('end', () => sockets.delete(this));
      }
    }
    this.pool = new pg.Pool({
      connectionString: url,
      max: opts.max,
      Client: CountedClient as unknown as new () => pg.ClientBase,
      connectionTimeoutMillis: this.bulk ? BULK_QUERY_TIMEOUT_MS : ACQUIRE_TIMEOUT_MS,
      query_timeout: this.bulk ? BULK_QUERY_TIMEOUT_MS : QUERY_TIMEOUT_MS,
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      types: TYPES,
    });
    // An idle connection that fails (the server restarted, the network reset it) has been
    // dropped by the pool already; the next request connects afresh. Nothing to log: the
    // requests that meet the outage answer 503 and say why, and /healthz turns unready.
    this.pool.on('error', () => undefined);
    // node-postgres queues a statement sent here before the one the connection was made for
    // (pg-pool's 'connect' event); should it fail, so does that one, and the connection is
    // dropped as any other that failed.
    if (!this.transactionPooler) {
      const settings = this.bulk ? SESSION_SETTINGS : `${REQUEST_BOUND}; ${SESSION_SETTINGS}`;
      this.pool.on('connect', (client) => void client.query(settings).catch(() => undefined));
    }
  }

  /** A connection of the pool, held until its release(); withConnection() when it can. */
  async connect(): Promise<PgConnection> {
    return new PgConnection(await this.pool.connect(), this);
  }

  /** A connection of the pool for `work`, released (or dropped, when it failed) after it. */
  async withConnection<T>(work: (c: PgConnection) => Promise<T>): Promise<T> {
    const c = await this.connect();
    try {
      return await work(c);
    } finally {
      c.release();
    }
  }

  async query<R = Record<string, unknown>>(text: string, params?: readonly unknown[], opts?: StatementOptions): Promise<R[]> {
    return this.withConnection((c) => c.query<R>(text, params, opts));
  }

  async execute(text: string, params?: readonly unknown[], opts?: StatementOptions): Promise<number> {
    return this.withConnection((c) => c.execute(text, params, opts));
  }

  /**
   * `work` in one transaction on one connection: committed when it returns, rolled back
   * when it throws. `begin`: what follows BEGIN (an isolation level). `bulk`: long work (a
   * seed, a snapshot, a migration) that the request bounds must not cut: no
   * statement_timeout inside it, and BULK_QUERY_TIMEOUT_MS for each statement.
   */
  async transaction<T>(work: (tx: PgConnection) => Promise<T>, opts: { begin?: string; bulk?: boolean } = {}): Promise<T> {
    const tx = await this.begin(opts);
    let value: T;
    try {
      value = await work(tx);
    } catch (err) {
      await tx.end(false);
      throw err;
    }
    await tx.end(true);
    return value;
  }

  /**
   * A connection inside a transaction, for a transaction that spans calls (transaction()
   * when it does not); its end() commits or rolls back and releases it. Options as
   * transaction()'s.
   */
  async begin(opts: { begin?: string; bulk?: boolean } = {}): Promise<PgConnection> {
    const tx = await this.connect();
    try {
      if (opts.bulk) tx.bulk = true;
      const begin = opts.begin ? `BEGIN ${opts.begin}` : 'BEGIN';
      // Through a transaction pooler no session keeps the bound: each transaction sets its
      // own, in the same round trip (a statement without parameters goes as a simple query,
      // which may hold two).
      await tx.execute(this.transactionPooler && !tx.bulk ? `${begin}; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}` : begin);
      if (opts.bulk && !this.bulk) await tx.execute('SET LOCAL statement_timeout = 0');
    } catch (err) {
      tx.release();
      throw err;
    }
    return tx;
  }

  /** Connections open (busy or idle, connecting included), idle, and requests waiting for one. */
  stats(): PoolStats {
    return { open: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  /**
   * Ends the pool within CLOSE_TIMEOUT_MS even when the database is gone: the graceful end
   * (Terminate on each connection, the server closing it), then every socket still open is
   * destroyed. Never throws, never hangs.
   */
  async close(): Promise<void> {
    const ended = this.pool.ending ? Promise.resolve() : this.pool.end().catch(() => undefined);
    const closed = ended.then(() => Promise.all([...this.sockets].map((c) => new Promise((resolve) => c.once('end', resolve)))));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
    clearTimeout(timer);
    for (const c of this.sockets) c.connection.stream.destroy();
    this.sockets.clear();
  }
}

/**
 * One multi-row INSERT of `rows` (their keys are the columns, those of the first row) into
 * `table`, with `tail` after the VALUES (ON CONFLICT, RETURNING); the rows it returned.
 * Not prepared: the text varies with the number of rows.
 */
export async function insertRows<R = Record<string, unknown>>(sql: Queryable, table: string, rows: Record<string, unknown>[], tail = ''): Promise<R[]> {
  const columns = Object.keys(rows[0]!);
  const values: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((c) => (values.push(row[c]), `$${values.length}`)).join(', ')})`);
  return sql.query<R>(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${tail ? ` ${tail}` : ''}`, values);
}

/** The password of ~/.pgpass (or PGPASSFILE) for a connection, when the file has one; else none. */
function passwordFromFile(params: { host?: string; port?: number; database?: string; user?: string }): Promise<string | undefined> {
  return new Promise((resolve) => pgpass(params, resolve));
}
