// `chamberctl help destructive`: every command that destroys or overwrites something, and
// what it does before it does (issue 43: whatever a person types or interrupts, nothing
// already written is lost without a question, and off a terminal without --yes).
export const DESTRUCTIVE_TOPIC = `Commands that destroy or overwrite something follow one rule: on a terminal they ask
first, saying what would be lost (the default answer is no: exit 1; Ctrl-C: exit 130);
off a terminal (a script, a pipe, CI) they refuse with exit 2 and change nothing unless
--yes is given; when they have done it they say what was removed.

    snapshot import --replace   asks when the database holds anything: the chambers,
                                members and events it holds that the snapshot does not,
                                and local changes not pushed yet. Writes what it held to
                                DB.before-replace-TIME.snapshot (0600) first, printed
                                with the command that restores it (--no-backup: not).
                                Refused (exit 1) while a serve has the database open.
    snapshot export FILE        asks when FILE exists (stdout never asks).
    sync discard ID             always: a change never pushed is gone for good.
    clients revoke ID           always: a revoked client can never be used again.
    clients rotate ID           asks without --grace (the old secret stops at once);
                                with --grace the old secret keeps working: no question.
    logout                      asks when the profile holds a client secret (it cannot
                                be shown again); cached tokens alone: no question.
    profiles remove NAME        always: the profile, its URL and its secret.
    config set base-url URL     asks when the profile holds cached tokens and the URL
                                changes (they are removed).

Not asked, by decision: members import (it only adds; its --report file is rewritten
by each run, as a log is); clients add and edit (nothing is lost: edit can set the
scope back); login over an existing profile (the new credentials are checked with the
server first, and the old ones are what \`login\` is asked to replace).
`;
