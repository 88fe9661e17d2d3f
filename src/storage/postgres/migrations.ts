import type { PgPool } from './pool.js';

/**
 * The PostgreSQL schema: the same tables as SQLite's (src/storage/sqlite/migrations.ts), with what a
 * shared database needs beyond them. Append new steps; never edit a step that has shipped.
 *
 * Why the numbers differ from SQLite's: step 4 here (the list generation, for the seek
 * pagination of several instances) has no SQLite step, so every later PostgreSQL step is one
 * above the SQLite step it matches (PostgreSQL 5 is SQLite 4, 6 is 5), and each says which.
 * A change to both schemas is one new step on each, numbered on from each file's last.
 *
 * - Text is compared byte by byte (COLLATE "C"), as SQLite's BINARY does, so both backends
 *   sort and page alike; `name_key` is the name with ASCII letters lower-cased, which is
 *   what SQLite's NOCASE compares.
 * - Times are kept as the ISO 8601 text the API shows, as in SQLite, so records pulled from
 *   another server are served back exactly as they came.
 * - List totals come from counter tables kept by triggers, as in SQLite, but each total is
 *   spread over 16 rows (a random one takes each change, a read sums them): concurrent
 *   inserts from several instances then rarely wait for the same row.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE clients (
    id          text COLLATE "C" PRIMARY KEY,
    secret_hash text NOT NULL,
    created_at  text NOT NULL
  );

  CREATE TABLE tokens (
    hash       bytea PRIMARY KEY,
    client_id  text COLLATE "C" NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    version    text NOT NULL CHECK (version IN ('v1', 'v2')),
    expires_at bigint NOT NULL
  );
  CREATE INDEX tokens_by_expiry ON tokens (expires_at);
  CREATE INDEX tokens_by_client ON tokens (client_id);

  CREATE TABLE chambers (
    id          text COLLATE "C" PRIMARY KEY,
    name        text NOT NULL,
    name_key    text COLLATE "C" GENERATED ALWAYS AS (translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')) STORED,
    type        text NOT NULL CHECK (type IN ('hq', 'subsidiary')),
    hq_id       text COLLATE "C" REFERENCES chambers(id),
    status      text NOT NULL CHECK (status IN ('active', 'inactive', 'pending')),
    street      text NOT NULL,
    city        text NOT NULL,
    postal_code text,
    country     text NOT NULL,
    created_at  text COLLATE "C" NOT NULL
  );
  CREATE INDEX chambers_by_created             ON chambers (created_at, id);
  CREATE INDEX chambers_by_name                ON chambers (name_key, id);
  CREATE INDEX chambers_by_type_created        ON chambers (type, created_at, id);
  CREATE INDEX chambers_by_type_name           ON chambers (type, name_key, id);
  CREATE INDEX chambers_by_status_created      ON chambers (status, created_at, id);
  CREATE INDEX chambers_by_status_name         ON chambers (status, name_key, id);
  CREATE INDEX chambers_by_type_status_created ON chambers (type, status, created_at, id);
  CREATE INDEX chambers_by_type_status_name    ON chambers (type, status, name_key, id);
  CREATE INDEX chambers_by_hq                  ON chambers (hq_id) WHERE hq_id IS NOT NULL;

  CREATE TABLE members (
    id              text COLLATE "C" PRIMARY KEY,
    chamber_id      text COLLATE "C" NOT NULL REFERENCES chambers(id) ON DELETE CASCADE,
    name            text NOT NULL,
    name_key        text COLLATE "C" GENERATED ALWAYS AS (translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')) STORED,
    email           text NOT NULL,
    email_key       text COLLATE "C" NOT NULL, -- lower-cased e-mail: one member per address per chamber
    phone           text,
    membership_type text NOT NULL CHECK (membership_type IN ('standard', 'premium', 'corporate', 'honorary')),
    status          text NOT NULL CHECK (status IN ('active', 'inactive', 'pending')),
    joined_at       text COLLATE "C" NOT NULL
  );
  CREATE UNIQUE INDEX members_email_per_chamber ON members (chamber_id, email_key);
  CREATE INDEX members_by_joined                ON members (chamber_id, joined_at, id);
  CREATE INDEX members_by_name                  ON members (chamber_id, name_key, id);
  CREATE INDEX members_by_status_joined         ON members (chamber_id, status, joined_at, id);
  CREATE INDEX members_by_status_name           ON members (chamber_id, status, name_key, id);

  CREATE TABLE events (
    id         text COLLATE "C" PRIMARY KEY,
    chamber_id text COLLATE "C" NOT NULL REFERENCES chambers(id) ON DELETE CASCADE,
    title      text NOT NULL,
    status     text NOT NULL CHECK (status IN ('upcoming', 'past', 'canceled')),
    starts_at  text COLLATE "C" NOT NULL,
    ends_at    text COLLATE "C" NOT NULL,
    location   text
  );
  CREATE INDEX events_by_start        ON events (chamber_id, starts_at, id);
  CREATE INDEX events_by_status_start ON events (chamber_id, status, starts_at, id);

  CREATE TABLE chamber_counts (
    type text NOT NULL, status text NOT NULL, shard smallint NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (type, status, shard)
  );
  CREATE TABLE member_counts (
    chamber_id text COLLATE "C" NOT NULL, status text NOT NULL, shard smallint NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (chamber_id, status, shard)
  );
  CREATE TABLE event_counts (
    chamber_id text COLLATE "C" NOT NULL, status text NOT NULL, shard smallint NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (chamber_id, status, shard)
  );

  CREATE FUNCTION count_shard() RETURNS smallint LANGUAGE sql VOLATILE AS $$ SELECT floor(random() * 16)::smallint $$;

  CREATE FUNCTION chambers_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO chamber_counts VALUES (OLD.type, OLD.status, count_shard(), -1)
        ON CONFLICT (type, status, shard) DO UPDATE SET n = chamber_counts.n - 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
      INSERT INTO chamber_counts VALUES (NEW.type, NEW.status, count_shard(), 1)
        ON CONFLICT (type, status, shard) DO UPDATE SET n = chamber_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chambers_count AFTER INSERT OR DELETE OR UPDATE OF type, status ON chambers
    FOR EACH ROW EXECUTE FUNCTION chambers_count();

  CREATE FUNCTION members_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO member_counts VALUES (OLD.chamber_id, OLD.status, count_shard(), -1)
        ON CONFLICT (chamber_id, status, shard) DO UPDATE SET n = member_counts.n - 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
      INSERT INTO member_counts VALUES (NEW.chamber_id, NEW.status, count_shard(), 1)
        ON CONFLICT (chamber_id, status, shard) DO UPDATE SET n = member_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER members_count AFTER INSERT OR DELETE OR UPDATE OF chamber_id, status ON members
    FOR EACH ROW EXECUTE FUNCTION members_count();

  CREATE FUNCTION events_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO event_counts VALUES (OLD.chamber_id, OLD.status, count_shard(), -1)
        ON CONFLICT (chamber_id, status, shard) DO UPDATE SET n = event_counts.n - 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
      INSERT INTO event_counts VALUES (NEW.chamber_id, NEW.status, count_shard(), 1)
        ON CONFLICT (chamber_id, status, shard) DO UPDATE SET n = event_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER events_count AFTER INSERT OR DELETE OR UPDATE OF chamber_id, status ON events
    FOR EACH ROW EXECUTE FUNCTION events_count();
  `,
  // 2: events age (docs/server-behaviour.md#statuses): `upcoming` and `past` are judged from
  // ends_at when read, so those filters read a chamber's events that are not canceled, in start
  // order.
  `
  CREATE INDEX events_by_live_start ON events (chamber_id, (status = 'canceled'), starts_at, id);
  `,
  // 3: as SQLite's step 3: records kept as their source sent them, `sync pull` bookkeeping,
  // local changes, and the answers to POSTs with an Idempotency-Key (shared by instances).
  `
  ALTER TABLE chambers ADD COLUMN raw text, ADD COLUMN synced_run bigint;
  -- a pull's chamber list is one transaction that checks HQ references at its end
  ALTER TABLE chambers ALTER CONSTRAINT chambers_hq_id_fkey DEFERRABLE INITIALLY IMMEDIATE;
  ALTER TABLE members ADD COLUMN raw text, ADD COLUMN synced_run bigint;
  ALTER TABLE events ADD COLUMN raw text, ADD COLUMN synced_run bigint;

  CREATE TABLE sync_state (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);
  CREATE TABLE sync_done (chamber_id text COLLATE "C" PRIMARY KEY);

  CREATE TABLE local_changes (
    seq             bigserial PRIMARY KEY,
    id              text COLLATE "C" NOT NULL UNIQUE,
    kind            text NOT NULL CHECK (kind IN ('chamber', 'member')),
    record_id       text COLLATE "C" NOT NULL,
    chamber_id      text COLLATE "C",
    body            text NOT NULL,
    idempotency_key text NOT NULL,
    created_at      text NOT NULL,
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'rejected')),
    error           text,
    attempted_at    text,
    remote_before   bigint
  );
  CREATE INDEX local_changes_by_record ON local_changes (record_id);
  CREATE INDEX local_changes_by_chamber ON local_changes (chamber_id) WHERE chamber_id IS NOT NULL;

  CREATE TABLE idempotency_keys (
    client_id    text COLLATE "C" NOT NULL,
    key          text COLLATE "C" NOT NULL,
    request_hash text NOT NULL,
    status       integer NOT NULL,
    location     text,
    body         text NOT NULL,
    created_ms   bigint NOT NULL,
    PRIMARY KEY (client_id, key)
  );
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_ms);
  `,
  // 4: a number that every statement changing or removing chambers or members moves on
  // (never an insert: inserts move the lists' totals). Each instance remembers where list
  // pages ended, to read the next page by seeking from there instead of with OFFSET; a
  // remembered place is used only while this number and the list's total are as they were.
  `
  CREATE TABLE list_generation (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), n bigint NOT NULL);
  INSERT INTO list_generation (n) VALUES (0);
  CREATE FUNCTION list_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE list_generation SET n = n + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chambers_generation AFTER UPDATE OR DELETE OR TRUNCATE ON chambers FOR EACH STATEMENT EXECUTE FUNCTION list_generation_bump();
  CREATE TRIGGER members_generation AFTER UPDATE OR DELETE OR TRUNCATE ON members FOR EACH STATEMENT EXECUTE FUNCTION list_generation_bump();
  `,
  // 5: team access, as SQLite's step 4: scopes, revocation, rotation, last use, the audit trail.
  `
  ALTER TABLE clients
    ADD COLUMN scope text NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write')),
    ADD COLUMN revoked_at text,
    ADD COLUMN last_used_at text COLLATE "C",
    ADD COLUMN old_secret_hash text,
    ADD COLUMN old_secret_valid_until text;
  ALTER TABLE tokens ADD COLUMN scope text NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'));

  CREATE TABLE audit (
    seq        bigserial PRIMARY KEY,
    at         text COLLATE "C" NOT NULL,
    action     text NOT NULL,
    client_id  text COLLATE "C",
    target     text,
    request_id text,
    address    text
  );
  CREATE INDEX audit_by_at ON audit (at, seq);
  CREATE INDEX audit_by_client ON audit (client_id, at, seq);
  `,
  // 6: as SQLite's step 5: who made a client change (user@host) and what it set (the scope,
  // or a rotation's grace); null for writes over HTTP and for the records made before.
  `
  ALTER TABLE audit
    ADD COLUMN operator text,
    ADD COLUMN detail text;
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Any fixed number: the advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK = 0x63686d62; // "chmb"

/**
 * Brings the database up to PG_SCHEMA_VERSION (tests: to `upTo`, a database of an older
 * chamberctl) and returns the version it had before. Instances that start together queue on
 * an advisory lock, so the steps run once; each step commits with its version row
 * (PostgreSQL's DDL is transactional), so a failed step leaves nothing. Bulk work: waiting
 * for the lock is not cut by the request bounds.
 */
export async function migratePostgres(pool: PgPool, upTo = PG_SCHEMA_VERSION): Promise<number> {
  return pool.transaction(
    async (tx) => {
      await tx.execute('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.execute('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const [row] = await tx.query<{ v: number }>('SELECT coalesce(max(version), 0)::int AS v FROM schema_migrations');
      const current = row!.v;
      if (current > PG_SCHEMA_VERSION) {
        throw new Error(`the database was written by a newer chamberctl (schema ${current}, this one knows ${PG_SCHEMA_VERSION})`);
      }
      for (let v = current; v < upTo; v++) {
        await tx.execute(MIGRATIONS[v]!);
        await tx.execute('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
      }
      return current;
    },
    { bulk: true },
  );
}
