/**
 * The database cannot be reached or did not answer in time (PostgreSQL restarting, the
 * network to it gone or silent, a SQLite file another process keeps locked). Thrown only at
 * the storage boundary (`reportingUnavailable`), so the server answers 503 for what the
 * database did and never for what a client's socket did: a client that resets its own
 * connection raises ECONNRESET too, and must not read as an outage.
 */
export class StorageUnavailable extends Error {
  override readonly name = 'StorageUnavailable';
  constructor(
    /** A few words an operator can act on: "connection refused", "no answer within 3 s". */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the database is unavailable: ${reason}`, options);
  }
}

export const isUnavailable = (err: unknown): err is StorageUnavailable => err instanceof StorageUnavailable;

/**
 * What node-postgres 8.23.1 raises, as plain Errors without a code, when the database cannot
 * be reached or does not answer in time (the texts are pg's and pg-pool's own), with the
 * reason given for each.
 */
/** pg-pool's queue timed out: every connection was busy (reportingUnavailable tells why). */
const NO_FREE_CONNECTION = 'no free connection in time';
/** No answer from the database: a statement's query_timeout, or a pool wait it never ended. */
const NO_ANSWER = 'no answer in time';

const PG_MESSAGES: [RegExp, string][] = [
  // pg-pool: every connection busy for connectionTimeoutMillis
  [/^timeout exceeded when trying to connect$/, NO_FREE_CONNECTION],
  // pg-pool, a new connection past connectionTimeoutMillis; the client's own connect timer
  [/^Connection terminated due to connection timeout$|^timeout expired$/, 'no connection in time'],
  // pg: no answer to a statement within query_timeout
  [/^Query read timeout$/, NO_ANSWER],
  // pg: the socket closed under a statement (by the server, the network, or our timeouts)
  [/^Connection terminated( unexpectedly)?$/, 'the connection was closed'],
  [/^Client has encountered a connection error and is not queryable$|^Client was closed and is not queryable$/, 'the connection was closed'],
];

/**
 * What a driver's error says about the database's reachability, or undefined when it says
 * something else (a constraint, a bug). Only ever applied to errors a store raised.
 */
export function unavailableReason(err: unknown): string | undefined {
  if (err instanceof StorageUnavailable) return err.reason;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === undefined) return PG_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
  // the socket's own errors (node:net), while connecting or on a connection
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (['ECONNRESET', 'EPIPE'].includes(code)) return 'the connection was reset';
  if (['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) return 'the host does not answer';
  if (['ENOTFOUND', 'EAI_AGAIN'].includes(code)) return 'host not found';
  // PostgreSQL's SQLSTATEs
  if (code.startsWith('08')) return 'connection exception'; // class 08
  if (code === '57P01' || code === '57P02') return 'the database is shutting down';
  if (code === '57P03') return 'the database is starting up';
  if (code === '53300') return 'the database has no connection left';
  if (code === '57014') return 'a statement ran past statement_timeout';
  if (code.startsWith('SQLITE_BUSY')) return 'the database file is locked by another process';
  return undefined;
}

/**
 * The store with every method's driver errors that mean "unreachable" turned into
 * StorageUnavailable; other errors pass unchanged. Methods are bound to the store itself,
 * so its own fields and `instanceof` keep working through the proxy.
 *
 * A wait for a free connection that timed out means two things: a pool too small for a
 * database that answers (other calls finished during the wait: "no free connection in
 * time", raise --pool-size or find the slow statement), or every connection stuck on a
 * database gone silent (nothing answered during the whole wait: "no answer in time", as a
 * statement's own timeout says; a bigger pool would change nothing).
 */
export function reportingUnavailable<S extends object>(store: S): S {
  const wrapped = new Map<PropertyKey, unknown>();
  /** When a call last got an answer from the database (a result, or an error it sent). */
  let answeredAt = performance.now();
  const translate = (err: unknown, startedAt: number): never => {
    let reason = unavailableReason(err);
    if (reason === undefined) answeredAt = performance.now(); // the database's own error: an answer
    if (reason === NO_FREE_CONNECTION && answeredAt < startedAt) reason = NO_ANSWER;
    throw reason === undefined || err instanceof StorageUnavailable ? err : new StorageUnavailable(reason, { cause: err });
  };
  const answered = <T>(value: T): T => {
    answeredAt = performance.now();
    return value;
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      // methods only: an own property that is a function (a driver's handle) passes as it is
      if (typeof value !== 'function' || key === 'constructor' || Object.hasOwn(target, key)) return value;
      let fn = wrapped.get(key);
      if (!fn) {
        fn = (...args: unknown[]) => {
          const startedAt = performance.now();
          let result: unknown;
          try {
            result = (value as (...a: unknown[]) => unknown).apply(target, args);
          } catch (err) {
            translate(err, startedAt);
          }
          return result instanceof Promise ? result.then(answered, (err: unknown) => translate(err, startedAt)) : result;
        };
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}
