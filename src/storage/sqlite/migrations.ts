import type { Database } from './database.js';

/**
 * Schema migrations, applied in order and tracked with PRAGMA user_version. Append new
 * steps; never edit a step that has shipped.
 *
 * Every list's filter + sort combination has an index that ends in `id`, the final
 * tie-break, so a page is read straight from the index (see test/storage/query-plans.test.ts).
 * List totals come from *_counts tables that triggers keep in step with every write, so
 * `meta.total` costs a few row reads however large the data grows.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE clients (
    id          TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    created_at  TEXT NOT NULL
  );

  CREATE TABLE tokens (
    hash       BLOB PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    version    TEXT NOT NULL CHECK (version IN ('v1', 'v2')),
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX tokens_by_expiry ON tokens (expires_at);
  CREATE INDEX tokens_by_client ON tokens (client_id);

  CREATE TABLE chambers (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL CHECK (type IN ('hq', 'subsidiary')),
    hq_id       TEXT REFERENCES chambers(id),
    status      TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'pending')),
    street      TEXT NOT NULL,
    city        TEXT NOT NULL,
    postal_code TEXT,
    country     TEXT NOT NULL,
    created_at  TEXT NOT NULL
  );
  CREATE INDEX chambers_by_created             ON chambers (created_at, id);
  CREATE INDEX chambers_by_name                ON chambers (name COLLATE NOCASE, id);
  CREATE INDEX chambers_by_type_created        ON chambers (type, created_at, id);
  CREATE INDEX chambers_by_type_name           ON chambers (type, name COLLATE NOCASE, id);
  CREATE INDEX chambers_by_status_created      ON chambers (status, created_at, id);
  CREATE INDEX chambers_by_status_name         ON chambers (status, name COLLATE NOCASE, id);
  CREATE INDEX chambers_by_type_status_created ON chambers (type, status, created_at, id);
  CREATE INDEX chambers_by_type_status_name    ON chambers (type, status, name COLLATE NOCASE, id);
  CREATE INDEX chambers_by_hq                  ON chambers (hq_id) WHERE hq_id IS NOT NULL;

  CREATE TABLE members (
    id              TEXT PRIMARY KEY,
    chamber_id      TEXT NOT NULL REFERENCES chambers(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    email           TEXT NOT NULL,
    email_key       TEXT NOT NULL, -- lower-cased e-mail: one member per address per chamber
    phone           TEXT,
    membership_type TEXT NOT NULL CHECK (membership_type IN ('standard', 'premium', 'corporate', 'honorary')),
    status          TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'pending')),
    joined_at       TEXT NOT NULL
  );
  CREATE UNIQUE INDEX members_email_per_chamber  ON members (chamber_id, email_key);
  CREATE INDEX members_by_joined                 ON members (chamber_id, joined_at, id);
  CREATE INDEX members_by_name                   ON members (chamber_id, name COLLATE NOCASE, id);
  CREATE INDEX members_by_status_joined          ON members (chamber_id, status, joined_at, id);
  CREATE INDEX members_by_status_name            ON members (chamber_id, status, name COLLATE NOCASE, id);

  CREATE TABLE events (
    id         TEXT PRIMARY KEY,
    chamber_id TEXT NOT NULL REFERENCES chambers(id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('upcoming', 'past', 'canceled')),
    starts_at  TEXT NOT NULL,
    ends_at    TEXT NOT NULL,
    location   TEXT
  );
  CREATE INDEX events_by_start        ON events (chamber_id, starts_at, id);
  CREATE INDEX events_by_status_start ON events (chamber_id, status, starts_at, id);

  -- Totals kept by triggers, read by every list instead of count(*).
  CREATE TABLE chamber_counts (
    type TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (type, status)
  ) WITHOUT ROWID;
  CREATE TABLE member_counts (
    chamber_id TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (chamber_id, status)
  ) WITHOUT ROWID;
  CREATE TABLE event_counts (
    chamber_id TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (chamber_id, status)
  ) WITHOUT ROWID;

  CREATE TRIGGER chambers_count_insert AFTER INSERT ON chambers BEGIN
    INSERT INTO chamber_counts (type, status, n) VALUES (NEW.type, NEW.status, 1)
      ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER chambers_count_delete AFTER DELETE ON chambers BEGIN
    UPDATE chamber_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status;
  END;
  CREATE TRIGGER chambers_count_update AFTER UPDATE OF type, status ON chambers BEGIN
    UPDATE chamber_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status;
    INSERT INTO chamber_counts (type, status, n) VALUES (NEW.type, NEW.status, 1)
      ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
  END;

  CREATE TRIGGER members_count_insert AFTER INSERT ON members BEGIN
    INSERT INTO member_counts (chamber_id, status, n) VALUES (NEW.chamber_id, NEW.status, 1)
      ON CONFLICT (chamber_id, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER members_count_delete AFTER DELETE ON members BEGIN
    UPDATE member_counts SET n = n - 1 WHERE chamber_id = OLD.chamber_id AND status = OLD.status;
  END;
  CREATE TRIGGER members_count_update AFTER UPDATE OF chamber_id, status ON members BEGIN
    UPDATE member_counts SET n = n - 1 WHERE chamber_id = OLD.chamber_id AND status = OLD.status;
    INSERT INTO member_counts (chamber_id, status, n) VALUES (NEW.chamber_id, NEW.status, 1)
      ON CONFLICT (chamber_id, status) DO UPDATE SET n = n + 1;
  END;

  CREATE TRIGGER events_count_insert AFTER INSERT ON events BEGIN
    INSERT INTO event_counts (chamber_id, status, n) VALUES (NEW.chamber_id, NEW.status, 1)
      ON CONFLICT (chamber_id, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER events_count_delete AFTER DELETE ON events BEGIN
    UPDATE event_counts SET n = n - 1 WHERE chamber_id = OLD.chamber_id AND status = OLD.status;
  END;
  CREATE TRIGGER events_count_update AFTER UPDATE OF chamber_id, status ON events BEGIN
    UPDATE event_counts SET n = n - 1 WHERE chamber_id = OLD.chamber_id AND status = OLD.status;
    INSERT INTO event_counts (chamber_id, status, n) VALUES (NEW.chamber_id, NEW.status, 1)
      ON CONFLICT (chamber_id, status) DO UPDATE SET n = n + 1;
  END;
  `,
  // 2: events age (docs/server-behaviour.md#statuses): `upcoming` and `past` are judged from
  // ends_at when read, so those filters read a chamber's events that are not canceled, in start
  // order.
  `
  CREATE INDEX events_by_live_start ON events (chamber_id, status = 'canceled', starts_at, id);
  `,
  // 3: offline work (docs/guides/working-offline.md) and Idempotency-Key
  // (docs/server-behaviour.md#idempotency).
  // - raw: a record as its source sent it (JSON), when that differs from what the columns
  //   give (fields this project does not know, another key order); served back as it is.
  // - synced_run: the `sync pull` that last saw the record (NULL: made here, or demo data);
  //   a pull removes what it did not see, except the records of pending local changes.
  // - local_changes: chambers and members created in a copy, in order, until `sync push`.
  // - idempotency_keys: the first answer to a POST with an Idempotency-Key, for 24 hours.
  `
  ALTER TABLE chambers ADD COLUMN raw TEXT;
  ALTER TABLE chambers ADD COLUMN synced_run INTEGER;
  ALTER TABLE members ADD COLUMN raw TEXT;
  ALTER TABLE members ADD COLUMN synced_run INTEGER;
  ALTER TABLE events ADD COLUMN raw TEXT;
  ALTER TABLE events ADD COLUMN synced_run INTEGER;

  CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE sync_done (chamber_id TEXT PRIMARY KEY) WITHOUT ROWID;

  CREATE TABLE local_changes (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL CHECK (kind IN ('chamber', 'member')),
    record_id       TEXT NOT NULL,
    chamber_id      TEXT,
    body            TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    state           TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'rejected')),
    error           TEXT,
    attempted_at    TEXT,
    remote_before   INTEGER -- a chamber: how many of its type the remote had before the first attempt
  );
  CREATE INDEX local_changes_by_record ON local_changes (record_id);
  CREATE INDEX local_changes_by_chamber ON local_changes (chamber_id) WHERE chamber_id IS NOT NULL;

  CREATE TABLE idempotency_keys (
    client_id    TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    location     TEXT,
    body         TEXT NOT NULL,
    created_ms   INTEGER NOT NULL,
    PRIMARY KEY (client_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_ms);
  `,
  // 4: team access (docs/guides/team-access.md). A client holds a scope and may be revoked; a
  // rotated secret's old hash works until old_secret_valid_until; last_used_at is written at
  // most once a minute. A token carries the scope it was granted. The audit trail records
  // every accepted write over HTTP and every client change, in the change's transaction.
  // Times are ISO 8601 text in UTC, as everywhere else here.
  `
  ALTER TABLE clients ADD COLUMN scope TEXT NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'));
  ALTER TABLE clients ADD COLUMN revoked_at TEXT;
  ALTER TABLE clients ADD COLUMN last_used_at TEXT;
  ALTER TABLE clients ADD COLUMN old_secret_hash TEXT;
  ALTER TABLE clients ADD COLUMN old_secret_valid_until TEXT;
  ALTER TABLE tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'));

  CREATE TABLE audit (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    at         TEXT NOT NULL,
    action     TEXT NOT NULL,
    client_id  TEXT,
    target     TEXT,
    request_id TEXT,
    address    TEXT
  );
  CREATE INDEX audit_by_at ON audit (at, seq);
  CREATE INDEX audit_by_client ON audit (client_id, at, seq);
  `,
  // 5: who made a client change, and what it set (docs/guides/team-access.md): `operator` is the
  // user@host of the `chamberctl clients` (or `serve --client-id`) that made it; `detail` the
  // scope of client.add and client.scope, the grace of client.rotate. Null for the writes
  // over HTTP, and for the records made before this step.
  `
  ALTER TABLE audit ADD COLUMN operator TEXT;
  ALTER TABLE audit ADD COLUMN detail TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the database up to SCHEMA_VERSION (tests: to `upTo`, a database of an older
 * chamberctl) and returns the version it had before (0 for a new database); refuses a
 * database from a newer chamberctl.
 */
export function migrate(db: Database, upTo = SCHEMA_VERSION): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `the database was written by a newer chamberctl (schema ${current}, this one knows ${SCHEMA_VERSION})`,
    );
  }
  for (let v = current; v < upTo; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    });
  }
  return current;
}
