// The help of snapshot export|import (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

const SNAPSHOT_DB = `\`--db\` is as for \`serve\`: a SQLite file or a \`postgres://\` URL; by default
\`$CHAMBERCTL_DB\`, else the database \`serve\` uses.
`;

export const SNAPSHOT_HELP: HelpOf = {
  snapshot: {
    description: `A snapshot is a whole directory (chambers, members and events, with every field their
source sent) in one versioned JSON Lines file, described in docs/snapshot-format.md: for
backups, to hand a data set to a colleague or a CI job, or to move a directory between
SQLite and PostgreSQL (export from one, import into the other: it arrives whole, and
exporting it again gives the same bytes). \`chamberctl serve --seed FILE\` starts a new
database from one.

Never in a snapshot: API clients, tokens, the audit trail, local changes, sync state,
Idempotency-Key answers. So moving a directory moves no access: add the clients to the
new database again.

${SNAPSHOT_DB}`,
    examples: ['chamberctl snapshot export directory.snapshot', 'chamberctl snapshot import directory.snapshot --db ./copy.db'],
    seeAlso: ['serve', 'help offline'],
  },

  'snapshot export': {
    description: `Writes FILE (created with mode 0600, written to a temporary file beside it and renamed
when complete), or stdout when FILE is absent or \`-\`. It reads one consistent view,
even while a server writes, in chunks: memory stays flat however large the directory.
A one-line summary goes to stderr. Exporting never creates a database. A FILE that exists
is replaced only after a question on a terminal, or with \`--yes\` off one
(\`chamberctl help destructive\`).

${SNAPSHOT_DB}`,
    examples: [
      'chamberctl snapshot export directory.snapshot              # the database serve uses',
      'chamberctl snapshot export --db ./dir.db | gzip > dir.snapshot.gz',
      'chamberctl snapshot export --db postgres://chamber@db.internal/directory | gzip > directory.snapshot.gz',
    ],
    exitCodes: [
      [0, 'the snapshot was written'],
      [1, 'the file or the database cannot be read or written; no to the question'],
      [2, 'a usage error: a `--db` URL of another scheme; FILE exists, with no terminal and no `--yes`'],
      [4, 'the `--db` file does not exist (`error: no database at PATH`; nothing is created)'],
      [130, 'interrupted by Ctrl-C at the question'],
    ],
    seeAlso: ['snapshot import'],
  },

  'snapshot import': {
    description: `Loads FILE (\`-\` reads stdin) all or nothing: every line is checked with the contract's
rules, references (\`hq_id\`, \`chamber_id\`) and the one-member-per-address rule are
checked, and the first problem stops it with its line named and the database left as it
was:

    error: dir.snapshot: line 301: member: status must be one of: active, inactive, pending; nothing was imported

Without \`--replace\`, ids already in the database are refused. \`--replace\` first empties
the chambers, members, events, local changes and sync state (API clients, tokens and the
audit trail stay). Nothing is replaced by accident:

- While a \`chamberctl serve\` has the database open, \`--replace\` refuses (exit 1,
  naming the process and how to stop it): on SQLite each server holds a lease file
  beside the database (\`DB.serve.PID.lock\`, its pid checked, so a killed server's is
  ignored); on PostgreSQL a row each instance renews every 10 s (\`serve_leases\`; one
  not renewed for 30 s is a crashed instance's).
- When the database holds anything, \`--replace\` asks first on a terminal, in numbers:
  the chambers, members and events it holds that the snapshot does not, and the local
  changes not pushed yet (default no: exit 1; Ctrl-C: 130). Off a terminal it needs
  \`--yes\` (else exit 2, nothing changed).
- Then what the database held is exported beside it (a SQLite file's
  \`DB.before-replace-TIME.snapshot\`; a PostgreSQL database's in the data directory),
  mode 0600, and its name printed with the command that restores it; \`--no-backup\`
  skips it. The summary says what was removed.

A summary goes to stderr; \`--json\` prints \`{"chambers":N,"members":N,"events":N}\` on
stdout.

A load is fast because, inside its one transaction, SQLite's secondary indexes and count
triggers are dropped and rebuilt before it commits (readers of a running server see the
old data until then); on PostgreSQL the foreign keys and count triggers are switched off
inside the transaction, which locks those tables: other instances' requests wait for the
import to finish.

${SNAPSHOT_DB}`,
    examples: [
      'chamberctl snapshot import directory.snapshot --db ./copy.db',
      'chamberctl snapshot import directory.snapshot --db postgres://chamber@db.internal/directory',
      'gunzip -c directory.snapshot.gz | chamberctl snapshot import - --replace --yes --json',
    ],
    exitCodes: [
      [0, 'the snapshot was loaded'],
      [1, 'the file or the database cannot be read or written; no to the question of `--replace`; `--replace` while a `serve` has the database open'],
      [2, 'a usage error; `--replace` of a database that holds anything, without a terminal and without `--yes` (nothing changed)'],
      [5, 'the file was refused: a bad line (or one over 1 MiB), a bad reference, an id already in the database; nothing was imported'],
      [130, 'interrupted by Ctrl-C (at the question too); nothing was imported'],
    ],
    seeAlso: ['snapshot export', 'serve', 'sync status'],
  },
};
