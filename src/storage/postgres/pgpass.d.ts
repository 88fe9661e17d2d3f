// pgpass (the password file reader node-postgres itself uses) ships no types.
declare module 'pgpass' {
  interface ConnectionInfo {
    host?: string | null;
    port?: number | string | null;
    database?: string | null;
    user?: string | null;
  }
  /** The password of the first matching line of ~/.pgpass (or PGPASSFILE), as libpq reads it; undefined when none. */
  function pgpass(info: ConnectionInfo, cb: (password: string | undefined) => void): void;
  export default pgpass;
}
