// `chamberctl help exit-codes`: what the exit status of every command means. Each command's
// help.ts lists its own statuses; this is the rule they follow.
export const EXIT_CODES_TOPIC = `Exit status of chamberctl (every command; scripts may rely on it):

    0    success (also when the reader of a pipe stops early: ... | head)
    1    other failure: the server unreachable, a server error (5xx), an unexpected
         answer; a database, config file, report or snapshot file that cannot be
         read or written; an import with invalid, duplicate or failed rows; no to a
         question (chamberctl help destructive); snapshot import --replace while a
         serve has the database open; a
         Node.js older than chamberctl runs on (it names the one it needs)
    2    usage error: unknown command or option, a missing required option or
         argument, a value outside its set or form (--type bogus, --page abc, a date
         that is not ISO 8601), --page with --all, a v2-only feature on a profile
         pinned to v1, a 400 about a query parameter, an input file that cannot be
         read (members import FILE, api --input), a --db URL of another scheme than
         postgres://, --db :memory: where a database must last, a question that
         needs --yes without a terminal (chamberctl help destructive)
    3    authentication failed or no credentials: no profile yet (chamberctl login),
         a refused client secret (a saved one was revoked or rotated: ask the
         directory's operator for a new one), a client without the scope the call
         needs (a write on a read-only profile, refused before any question; the
         server's 401 or 403); credentials that may not go where the command
         would send them: --base-url of another origin than the profile's, a
         secret or token over plain http:// to an address other than loopback
    4    not found (404): chambers get ch_nope, members list ch_nope; an unknown
         client (clients rotate nobody, audit --client nobody) or pending change
         (sync discard); a --db file that does not exist (clients, audit, sync
         status, push and discard, snapshot export: nothing is created)
    5    input data rejected: by the server (422, 409, a 400 naming fields of the
         body) or by the same rules before anything is sent (a bad e-mail, an
         unknown country); a CSV header that members import cannot use; a snapshot
         that is refused; clients add of an id that exists, clients rotate or edit
         of a revoked client; sync push with a change the remote rejected
    130  interrupted by Ctrl-C, at a question as anywhere else (members import and
         sync pull stop cleanly and say how to go on)
    143  stopped by SIGTERM (members import, sync pull)

Each command's own statuses are in its help (\`chamberctl COMMAND --help\`, "Exit codes")
and on its manual page. \`chamberctl api\` exits with the code of the answer's status: 4
for a 404, 5 for a 422 or 409, 3 for a 401 that a new token did not cure, 1 for a 5xx.

An error is one line on stderr starting with \`error:\`, followed by the server's (or the
local check's) messages about fields, one a line, indented. A command never ends with 0
in silence when it failed: one whose work was still pending when nothing was left to
wait on says so, and exits 1.
`;
