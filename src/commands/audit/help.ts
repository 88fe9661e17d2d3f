// The help of `chamberctl audit` (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';
import { TEAM_DB_TEXT } from '../shared/team-help.js';

export const AUDIT_HELP: HelpOf = {
  audit: {
    description: `The audit trail, newest first: every write accepted over HTTP, recorded in the
write's own transaction, and every change of a client, with who made it:

    ACTION          MADE BY               CLIENT_ID   OPERATOR  TARGET     DETAIL
    chamber.create  a request             its client  null      new id     null
    member.add      a request             its client  null      new id     null
    client.add      clients add, or       null        user@host client id  the scope
                    serve --client-id
    client.scope    clients edit          null        user@host client id  the new scope
    client.rotate   clients rotate        null        user@host client id  the grace
    client.revoke   clients revoke        null        user@host client id  null

A write's record also has the request's \`X-Request-Id\` (\`request_id\`) and the caller's
\`address\`, as \`serve --trust-proxy\` decides it. The grace of a rotation is recorded in
its largest whole unit (\`--grace 900s\` as \`15m\`). \`operator\` is the user and host of
the process that made the change (\`os.userInfo().username\` and \`os.hostname()\`): these
commands write the database directly, so there is no API client to name, and it is what
that machine reports, not a proof of who it was. Records made before these two fields
existed have null \`operator\` and \`detail\`. A repeat that changes nothing (revoking
again, editing to the scope it has) records nothing.

\`--since\` takes an ISO 8601 date (\`2026-11-01\`: from its first instant, UTC) or a
date-time with \`Z\` or an offset, or a duration back from now (\`90s\`, \`15m\`, \`24h\`,
\`7d\`); without it, the whole trail. \`--client ID\` keeps only what that client did over
HTTP (the records whose \`client_id\` is ID); \`--target ID\` what was done to an id (a
client's \`client.*\` records, or the record that created a chamber or member).
\`--action PATTERN\` keeps the actions it names, \`*\` standing for any characters
(\`client.*\`: every client change, without the writes around them); a pattern that
matches no action is a usage error naming them. \`--limit N\`, 1 to 10000, is 100 by default; on a
terminal a full page ends with a line suggesting twice that \`--limit\` or \`--since\`.

On a terminal, a table; piped, TSV in the order \`at\`, \`action\`, \`client_id\`, \`target\`,
\`request_id\`, \`address\`, \`operator\`, \`detail\` (columns are only ever appended);
\`--json\`, an array of \`{"at", "action", "client_id", "operator", "target", "request_id",
"address", "detail"}\`, times in UTC ISO 8601. \`--format table|tsv|json|csv\` chooses, as
for the list commands (CSV: a header, then RFC 4180 rows in the TSV's order).

${TEAM_DB_TEXT}`,
    examples: [
      'chamberctl audit --db "$DB"                              # the last 100 records',
      'chamberctl audit --since 24h --client alice --db "$DB"      # what alice wrote',
      'chamberctl audit --target alice --db "$DB"                  # who added, rotated, revoked alice',
      'chamberctl audit --action \'client.*\' --format csv --db "$DB" > client-changes.csv',
      'chamberctl audit --since 2026-11-01 --limit 10000 --db "$DB" --jq \'.[] | select(.action == "member.add") | .target\'',
      "chamberctl audit --json action,client_id,operator,target,detail --jq '.[]'",
    ],
    exitCodes: [
      [0, 'the records were printed (none is no error)'],
      [1, 'the database cannot be opened'],
      [2, 'a usage error: a bad `--since`, `--limit` or `--format`, an `--action` that matches no action, `--db :memory:`'],
      [4, '`--client` names no client; the `--db` file does not exist (nothing is created)'],
    ],
    seeAlso: ['clients', 'serve'],
  },
};
