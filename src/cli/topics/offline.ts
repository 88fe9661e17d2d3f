// `chamberctl help offline`: working on a copy of the directory, and how sync, serve and
// snapshots fit together.
export const OFFLINE_TOPIC = `Take your directory along: copy it into a local database, work on the copy with
\`chamberctl serve\` (every command works against it), and send what you created back
when you are online again.

    $ chamberctl sync pull --db ~/dir.db        # copy the current profile's directory
    $ chamberctl serve --db ~/dir.db --port 8181 --profile offline &
    $ chamberctl --profile offline chambers create --name "Lyon Office" --type subsidiary --hq-id ch_8f3k2a --street "2 Rue" --city Lyon --country FR
    $ chamberctl --profile offline members add ch_8f3k2a --name "Ann Lee" --email ann@example.org --membership-type standard
    $ chamberctl sync status --db ~/dir.db      # the source, the last pull, the counts, what is pending
    $ chamberctl sync push --db ~/dir.db --dry-run
    $ chamberctl sync push --db ~/dir.db        # online again: send them where the copy came from
    $ chamberctl sync pull --db ~/dir.db        # refresh the copy later (pending changes are kept)

- \`sync pull\` copies every chamber, member and event behind a profile, with every field
  the remote returned, so the copy serves back what the remote served. Run again, it
  finishes an interrupted pull, or refreshes the copy.
- \`serve\` on a copy records every chamber and member created through it as a pending
  change, in the same transaction as the record. The interface has no update and no
  delete, so creations (chambers and members; events cannot be created) are the only
  local edits, and a pull is how changes made at the remote reach the copy. Nothing else
  goes back.
- \`sync status\` lists the pending changes, \`sync discard\` drops one and the record it
  made, and \`sync push\` sends them in order, never twice at the remote. A change the
  remote refuses stays pending, marked \`rejected\` with the remote's message, and push
  exits 5: fix the cause and push again, or discard it.
- \`--db\` names the copy as \`serve --db\` names its database: a SQLite file, or a
  PostgreSQL URL for a copy that a team serves from several instances (\`serve --db
  postgres://...\` records the changes made through any of them).

A snapshot (\`chamberctl snapshot export|import\`) is the other way to take a directory
elsewhere: the whole of it in one file, for a backup, a colleague, a CI job, or another
database (\`chamberctl serve --seed FILE\` starts a new one from it). It carries no local
changes, no sync state and no API clients.
`;
