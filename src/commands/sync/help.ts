// The help of sync pull|status|push|discard (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

const COPY_DB = `\`--db\` names the copy as \`serve --db\` names its database (default: \`$CHAMBERCTL_DB\`,
else the database \`serve\` uses): a SQLite file, or a PostgreSQL URL for a copy that a
team serves from several instances.
`;

const NO_COPY: readonly [4, string] = [4, 'the `--db` file does not exist (`error: no database at PATH`; nothing is created)'];

export const SYNC_HELP: HelpOf = {
  sync: {
    description: `Take the directory along: \`sync pull\` copies it into a local database, \`chamberctl
serve\` serves the copy (every command works against it), and \`sync push\` sends what
was created there back, once you are online again. How the pieces fit:
\`chamberctl help offline\`.

${COPY_DB}`,
    examples: [
      "chamberctl sync pull --db ~/dir.db            # copy the current profile's directory",
      'chamberctl serve --db ~/dir.db --seed none &  # work on the copy offline',
      'chamberctl sync status --db ~/dir.db',
      'chamberctl sync push --db ~/dir.db --dry-run',
      'chamberctl sync push --db ~/dir.db',
    ],
    seeAlso: ['help offline', 'serve', 'snapshot'],
  },

  'sync pull': {
    description: `Reads every chamber, every member of every chamber and every event of every chamber,
page by page (100 a page), through the profile, with the same HTTP client, retries and
token renewal as every other command, \`--concurrency\` chambers at a time. Records keep
their remote ids and every field the remote returned, fields this project does not know
included: the copy serves them back unchanged, so \`chambers get\` offline prints what it
printed online. Through a v1-only profile (\`api-version v1\`, or a remote without v2) it
copies chambers and members and says, in one warning, that events are not copied. On a
terminal a progress line shows the chambers done of all, rows, rows per second and an
ETA; piped, it prints the result only (\`--json\`:
\`{"chambers", "members", "events", "events_copied", "kept"}\`). Memory stays flat
whatever the size.

Without \`--from\`, a pull into an existing copy reads from the profile the copy came from
(as \`sync push\` sends there), whatever the current profile; a new copy reads from the
current profile. A pull into a database that holds other data (the demo data, another
directory's copy) is refused: give the copy a \`--db\` of its own.

Run again, a pull continues an interrupted one (the chambers it finished are recorded)
and ends with an exact copy; a later pull refreshes the copy: changed records are
updated, records gone at the remote are removed, and pending local changes are never
dropped (a chamber gone at the remote is kept, with a warning, while a pending change
refers to it). Ctrl-C or SIGTERM asks for no new page, commits what was read and says
to run \`chamberctl sync pull\` again to continue; a second Ctrl-C exits at once. A \`serve\` on the same copy answers reads meanwhile; a
chamber or member created through it waits up to 5 s for the pull's writes, then is
refused 503 with \`Retry-After: 1\` and nothing is written.

A first pull into an empty copy writes without the list indexes and count triggers and
builds them once at its end (several times cheaper). If it is stopped, the next pull goes
on without them; anything else that opens the copy first (\`serve\`, \`sync status\`,
\`snapshot export\`) builds them before it starts, which takes seconds for a million
members. On PostgreSQL the foreign keys stay on, and everything above holds as well.

${COPY_DB}`,
    examples: [
      'chamberctl sync pull --db ~/dir.db                 # the current profile, into ~/dir.db',
      'chamberctl sync pull --from prod --db ~/prod.db    # run it again to refresh, or to finish an interrupted pull',
      'chamberctl sync pull --db postgres://chamber@db.internal/copy --concurrency 16 --json',
    ],
    exitCodes: [
      [0, 'the copy is complete'],
      [1, "the database holds other data or another directory's copy; the remote cannot be reached (run the pull again to continue); the database cannot be opened"],
      [2, 'a usage error: `--db :memory:`, a `--concurrency` outside 1 to 32, a bad `--from`'],
      [3, 'no profile or no credentials, or the server refused them'],
      [130, 'interrupted by Ctrl-C; what was copied is kept'],
      [143, 'stopped by SIGTERM, likewise'],
    ],
    seeAlso: ['sync status', 'sync push', 'help offline'],
  },

  'sync status': {
    description: `Reads the copy only: the source (profile and base URL), when the last complete pull
ended (and whether one was interrupted), the counts, and every pending local change with
what it made (\`chg_…  member "Ada Lovelace" <ada@example.org> (mb_… in ch_…)  pending\`),
\`rejected\` ones with the remote's message. \`--json\` prints

    {"source": {"base_url", "profile"}, "pulled_at", "counts",
     "pending": [{"id", "kind", "label", "state", "error"?, ...}]}

${COPY_DB}`,
    examples: ['chamberctl sync status --db ~/dir.db', "chamberctl sync status --db ~/dir.db --jq '.pending[] | select(.state == \"rejected\")'"],
    exitCodes: [
      [0, 'the status was printed'],
      [1, 'the database cannot be opened'],
      [2, 'a usage error: `--db :memory:`, a `--db` URL of another scheme'],
      NO_COPY,
    ],
    seeAlso: ['sync push', 'sync discard'],
  },

  'sync push': {
    description: `Sends the pending changes, in the order they were made, to \`--to PROFILE\` or the
profile the copy came from:

- chambers before the subsidiaries and members that refer to them; each local id is
  replaced by the id the remote gave, and afterwards the copy holds the remote's records
  under the remote's ids (with what the remote added, such as a status);
- never twice at the remote, even if push is killed at any point and run again: every
  POST carries the change's own \`Idempotency-Key\` (which \`chamberctl serve\` honours),
  and a change is marked as attempted before its POST. From a remote that ignores the
  key, a member sent again is refused 409 for its e-mail, and push then takes the
  remote's record only when it is the same person (the same name, phone and membership
  type); a chamber whose answer was lost is looked for among the remote's newest
  chambers of its type (every field equal) before it is sent again;
- conflicts: a change the remote refuses (422, 409 on a chamber, a 409 for a member whose
  address another person has there, 404 for a chamber gone at the remote, a 400 naming
  fields) stays pending, marked \`rejected\` with the remote's message (for a member:
  \`conflict: the remote's member mb_… has this e-mail address, with another name "…"
  (here "…")\`), the local record stays as it was, and the others still go; changes that
  need a chamber that was not pushed are \`held\`. Fix the cause and push again, or
  \`sync discard\` the change.

Before the first POST, a profile whose client holds only the \`read\` scope is refused
(exit 3; the changes stay pending). \`--dry-run\` sends nothing and lists what it would
send. \`--json\`: \`{"pushed", "skipped", "rejected", "held"}\` (\`skipped\`: already at the
remote), and with \`--dry-run\` \`would_send\`, the POSTs it would make.

${COPY_DB}`,
    examples: [
      'chamberctl sync push --db ~/dir.db --dry-run',
      'chamberctl sync push --db ~/dir.db          # exit 5 when the remote rejected a change',
      'chamberctl sync push --db ~/dir.db --to staging --json',
    ],
    exitCodes: [
      [0, 'every pending change was pushed (or there was none)'],
      [1, 'the database is not a copy made by `sync pull` (without `--to`); the remote cannot be reached; the database cannot be opened'],
      [2, 'a usage error: `--db :memory:`, a bad `--to`'],
      [3, "no profile or no credentials, the server refused them, or the profile's client holds only the read scope while changes are pending"],
      NO_COPY,
      [5, 'the remote rejected a change; it stays pending, and the others went'],
      [130, 'interrupted by Ctrl-C; push again: nothing is sent twice'],
    ],
    seeAlso: ['sync status', 'sync discard', 'help offline'],
  },

  'sync discard': {
    description: `Drops a pending change and the local record it made, named by the change's id
(\`chg_…\`) or the record's (\`ch_…\`, \`mb_…\`), as \`sync status\` lists them. A chamber
that pending members or subsidiaries refer to can be discarded once they are. On a
terminal it asks first (\`--yes\` does not); off one it needs \`--yes\` (exit 2 without it,
nothing discarded; \`chamberctl help destructive\`).

${COPY_DB}`,
    examples: ['chamberctl sync discard chg_VbmIU7b7Md1A1PFN --db ~/dir.db', 'chamberctl sync discard mb_3kR9vXq2LmN8pT4w --db ~/dir.db --yes'],
    exitCodes: [
      [0, 'the change and its record are gone'],
      [1, 'no to the question (nothing was discarded); other pending changes refer to it; the database cannot be opened'],
      [2, 'a usage error: `--db :memory:`; no terminal and no `--yes`'],
      [4, 'there is no pending change ID, nor one that made that record; the `--db` file does not exist'],
      [130, 'interrupted by Ctrl-C at the question'],
    ],
    seeAlso: ['sync status'],
  },
};
