// `chamberctl help exit-codes`: what the exit status of every command means.
export const EXIT_CODES_TOPIC = `Exit status of chamberctl (every command; scripts may rely on it):

    0    success (also when the reader of a pipe stops early: ... | head)
    1    other failure: server unreachable, a server error (5xx), an unexpected answer,
         an import with invalid, duplicate or failed rows
    2    usage error: unknown command or option, a missing required option, a value
         outside its set or form (--type bogus, --page abc, a date that is not ISO 8601),
         --page with --all, a v2-only feature on a profile pinned to v1, a 400 about a
         query parameter, a --db URL of another scheme than postgres://, clients revoke
         without --yes off a terminal
    3    authentication failed or no credentials: no profile yet (chamberctl login), a
         refused client secret (a saved one was revoked or rotated: ask the directory's
         operator for a new one), a client without the scope the call needs (a write on
         a read-only profile, refused before any prompt; the server's 401 or 403)
    4    not found (404): chambers get ch_nope, members list ch_nope; an unknown
         client (clients rotate nobody, clients edit nobody); a --db file that does
         not exist
    5    input data rejected: by the server (422, 409, a 400 naming fields of the body)
         or by the same rules before anything is sent (a bad e-mail, an unknown country);
         clients add of an id that exists, clients rotate or edit of a revoked client
    130  interrupted by Ctrl-C, at a prompt as anywhere else (143 after SIGTERM)

chamberctl api exits with the code of the answer's status: 4 for a 404, 5 for a 422
or 409, 3 for a 401 that a new token did not cure, 1 for a 5xx.
`;
