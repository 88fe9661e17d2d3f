// The help of `chamberctl serve` (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

export const SERVE_HELP: HelpOf = {
  serve: {
    description: `Runs the whole Chamber Directory Service interface, v1 and v2, on this machine: on
SQLite, or for a team on PostgreSQL, several instances behind a load balancer. Use it to
work offline, to try commands safely, or as a test double in CI. What it answers where
the interface document is silent (paging, errors, tokens, idempotency, start-up and
shutdown) is told for client authors in docs/server-behaviour.md.

The database
------------

\`--db\` is a SQLite file (created with its directory: the file mode 0600, the directory
0700), \`:memory:\` for a database that lives as long as the process, or a
\`postgres://\` (\`postgresql://\`) URL, its password from the URL, \`PGPASSWORD\` or the
password file (\`PGPASSFILE\`, default \`~/.pgpass\`, used only with mode 0600) as libpq
reads them. Any other \`scheme://\` (a mistyped \`postgress://\`, a \`file:\` URI) is a
usage error that creates nothing, on every command that takes \`--db\`; the URL's password
is never printed: \`user:***@\`, and \`?password=***\` and \`?sslpassword=***\` in the
query (in the start line, the log, errors and the profile serve saves). Without \`--db\`: \`$CHAMBERCTL_DB\`, else \`chamberctl.db\` in the user
data directory (\`chamberctl help environment\`). A database written by a newer
chamberctl is refused.

A database that was never used (no chambers and no API clients) starts with \`--seed\`:

- \`demo\` (the default): 40 HQs and 160 subsidiaries in real cities of 37 countries,
  5,000 members and 1,000 events placed around today, every status of every resource
  present. The generator is seeded, so every new demo database holds the same chambers
  with the same ids (the first HQ, "Antwerp Business Chamber", is
  \`ch_ms2fLiZry7iy3IuE\`); event statuses are judged when read.
  \`--seed-size large\` makes 100k chambers, 1M members and 100k events for benchmarks
  (about 20 s; on SQLite on the main thread, and connections wait for it).
- \`none\`: nothing.
- a snapshot file (\`chamberctl snapshot export\`), loaded all or nothing: a file that
  is refused exits 5 and leaves the database empty.

A database that was used before is never seeded again.

The client
----------

\`--client-id ID\` with its secret (\`--client-secret-file FILE\`, whose first line it is,
read no further, the file readable by its owner only: one that its group or others may
read or write is refused with the \`chmod 600\` that fixes it, as libpq refuses such a
\`~/.pgpass\`; else \`CHAMBERCTL_CLIENT_SECRET\`, else \`--client-secret\`, which \`ps\` shows to every
user of the host) registers that client with the \`write\` scope if it does not exist.
An existing client is never changed, so the same command line starts on every restart:
another secret is refused (exit 1, nothing changed); the secret it had before a
\`clients rotate\` still starts it during the rotation's grace, with a warning saying
until when; its scope is never touched; a revoked client is refused (exit 1).
\`CHAMBERCTL_CLIENT_SECRET\` counts only with \`--client-id\`. ID is as \`chamberctl clients\`
takes it: 1 to 64 characters of \`A-Z a-z 0-9 . _ - @\`. Without \`--client-id\`, on a
database without clients (revoked ones not counted), serve creates one and prints its id
and secret once: only a scrypt hash is stored, so note it, or make another with
\`chamberctl clients add\` or \`clients rotate\`.

The profile
-----------

serve prints its base URLs on stdout (\`--json\`: one object,
\`{base_url, v1, v2, docs, database[, client_id, client_secret]}\`), and a new client's
secret only to a terminal: off one (a server's log) it writes the secret to a file of mode
0600 in the config directory and prints its path (\`client secret file:\`, \`--json\`:
\`client_secret_file\`). Then it saves them, and
the credentials when it knows them, in its profile: \`local\` unless \`--profile NAME\`,
which becomes the current profile if you have none, so the next \`chamberctl chambers
list\` just works. A profile belongs to the server of one database: serve never takes
over one that belongs to another database or that \`login\` made (it says so, and how:
\`--profile NAME\`, or \`--overwrite-profile\` to replace it), and a \`:memory:\` server
leaves every existing profile alone. A second server of the same database leaves the
profile to the first while that one still answers at its address; once it is gone, the
next server moves the profile and says from where. On a new database, the client serve
makes is saved in the profile before the database has it, so a start stopped at any
moment (Ctrl-C in its first half-second) leaves either nothing or a profile that works;
a start that finds such a profile with no client in the database adds that one. When
serve knows no credentials for the database and the saved ones are not a client of it,
it says so and names the commands that fix it (\`clients add NAME --db DB\`, then serve
with \`--client-id NAME\`).

Start and stop
--------------

The address is taken first: a port in use, an address it cannot bind, or a database it
cannot open or write is one line on stderr and exit 1
(\`error: port 8080 on 127.0.0.1 is already in use (try --port 0 for a free one)\`), and
a start that cannot listen has created nothing. While it starts (the database opened and
migrated, the demo data loaded, the client registered: 0.2 to 1 s), every connection is
answered at once: \`GET /livez\` with 200, everything else with
\`503 {"error": "starting", ...}\` and \`Retry-After: 1\` (chamberctl retries those). Then
the same port serves. Ctrl-C and SIGTERM are heeded from the first moment: during the
start, the start stops at its next step (each is one transaction: the demo data is whole
or absent) and serve exits 0 within 10 s; later, it stops accepting connections, answers
requests still arriving on open ones 503 with \`Connection: close\`, lets requests in
flight finish (10 s at most), closes idle connections and the database, and exits 0,
within 12 s in every case. A second Ctrl-C exits at once (130). Before that stop, a SIGTERM
drains a serve whose \`/healthz\` was probed in the last minute (a load balancer's
checks): for \`--drain\` seconds (default 8) readiness answers 503 and every other
request is still served, so that the balancer stops sending first; a second signal cuts
the drain short. Ctrl-C never drains.

A connection that has not sent a request's headers within \`--header-timeout\` seconds
(10) of opening, or of the first byte of a later request, is answered 408 and closed; an
idle one between requests stays open 72 s (more than a load balancer's usual 60 s, so that
the balancer closes it first). Past
\`--max-connections\` connections open at once (1000), new ones are closed unanswered,
with one warning a second at most in the log; keep it under the process's limit of open
files, and raise it where a load balancer holds many connections.

Besides the interface it serves \`GET /healthz\` (readiness, no token: 200 while the
database answers within 2 s, else 503), \`GET /livez\` (liveness, no token: 200 while the
process runs), \`GET /v1/openapi.json\` and \`GET /v2/openapi.json\` (OpenAPI 3.1, no
token), the RFC 8414 metadata at \`/.well-known/oauth-authorization-server/v1\` and
\`/v2\`, \`GET /metrics\` with \`--metrics\`, and the API reference at \`/docs\`
(\`/docs/v2\`, \`/docs/v1\`): Swagger UI from the package's own files (no CDN), with "Try
it out" against this server after **Authorize** with a client's id and secret.

Logs
----

One line per request on stderr, with the request's id (a client's \`X-Request-Id\` of 1
to 128 visible ASCII characters, else a new UUID, sent back in \`X-Request-Id\`): JSON
lines as pino writes them off a terminal or with \`--log-format json\`, readable text on a
terminal (\`[14:02:11] INFO: GET /v2/chambers 200 1.3ms from 127.0.0.1 [4b1f…]\`). A refused request is
a warning naming its \`client_id\` and a \`reason\`: at the token endpoint
\`unknown_client\`, \`wrong_secret\`, \`revoked_client\`, \`rate_limited\`,
\`malformed_credentials\`; on a token \`missing_token\`, \`malformed_token\`,
\`unknown_token\`, \`expired_token\`, \`wrong_version\`, \`insufficient_scope\`. While the
database is unavailable, one warning a second says how many requests were answered 503
and why. A health probe that answers 200 is not logged; readiness lost and back is, once
each. \`--quiet\` drops the per-request lines; failures, refused requests and serve's own
messages stay. Never logged: a token, a secret, an \`Authorization\` header, a body, the
values of query parameters named like a secret.

\`--metrics\` serves \`GET /metrics\` (Prometheus text, no token: keep it on the
operators' network): \`http_request_duration_seconds\` (by method, route and status),
\`chamberctl_db_pool_connections\` and \`chamberctl_db_pool_waiting_requests\`
(PostgreSQL), \`chamberctl_token_failures_total\` (by reason), and the process metrics
\`process_*\` and \`nodejs_*\`. Without it \`/metrics\` is a 404.

Several instances
-----------------

Instances on one PostgreSQL database share everything (tokens included) and may start
together: the schema is migrated and the demo data loaded once. \`--pool-size N\` bounds
every connection an instance opens (instances × N must stay under the server's
\`max_connections\`). Behind a load balancer, \`--public-url\` is the URL that the OAuth
metadata and the OpenAPI documents name, and \`--trust-proxy\` names the balancer (its
addresses or CIDR ranges, a number of hops, or \`true\` for any peer: only when nothing
reaches the instances but through it), so that the log, the audit trail and the token
endpoint's limit of failures per address see the client's address from
\`X-Forwarded-For\` rather than the balancer's. Through a connection pooler in
transaction mode (PgBouncer's \`pool_mode = transaction\`), \`--pg-pooler transaction\`
makes serve keep nothing per session: no named prepared statement, no setting but within
its transactions. \`--cache-size MiB\` bounds SQLite's page
cache (64 MiB) and memory map (1 GiB) for a small machine; the mapped pages count in the
process's RSS but belong to the OS's page cache.
`,
    examples: [
      'chamberctl serve                          # http://127.0.0.1:8080, demo data',
      'chamberctl serve --port 0 --db :memory:   # throwaway server on a free port',
      'CHAMBERCTL_CLIENT_SECRET="$SECRET" chamberctl serve --db ./dir.db --seed none --client-id ci',
      'chamberctl serve --db ~/copy.db --port 8181 --profile offline   # a second server, with a profile of its own',
      'chamberctl serve --db ./copy.db --seed directory.snapshot   # a new database loaded from a snapshot',
      'CHAMBERCTL_DB=postgres://chamber@db.internal/directory PGPASSFILE=/etc/chamberctl/pgpass chamberctl serve --host 0.0.0.0 --pool-size 20 --client-id app --client-secret-file /run/secrets/app --seed none --quiet',
    ],
    exitCodes: [
      [0, 'stopped by Ctrl-C or SIGTERM (during the start too)'],
      [1, 'the port is in use or the address cannot be bound; the database cannot be opened or written; the client exists with another secret, or is revoked; serve stopped with nothing left to wait on'],
      [2, 'a usage error: a bad option value, a `--db` URL of another scheme than postgres, a `--seed` file that does not exist, `--client-id` without its secret, an empty `--client-secret-file` or one others may read'],
      [5, 'the `--seed` snapshot was refused; the database was left empty'],
      [130, 'a second Ctrl-C, which does not wait'],
    ],
    seeAlso: ['clients', 'sync', 'snapshot', 'help offline', 'help environment'],
  },
};
