// What `chamberctl --help`, chamberctl(1) and the manual's index say of chamberctl itself.
import type { CommandHelp } from '../commands/shared/command-help.js';

export const PROGRAM_HELP: CommandHelp = {
  description: `chamberctl is the command-line tool of the Chamber Directory Service: chambers (HQs and
their subsidiaries), their members and their events, over OAuth 2.0 client credentials
and the service's two API versions (v1 stable, v2 beta). Run it in a terminal, script it
with \`--json\`, import members from CSV, and work offline against \`chamberctl serve\`,
an embedded server that implements the whole interface on SQLite or PostgreSQL.

\`chamberctl serve\` saves its address and client in the profile \`local\`, which becomes
the current profile if there is none, so commands need no login against it; for another
server, \`chamberctl login\` once. Without any profile, a command says how to get one
(exit 3).

Every command has \`--help\` with examples and its exit codes, and takes the global
options before or after its name. \`chamberctl help COMMAND...\` is \`chamberctl COMMAND...
--help\`, \`chamberctl help TOPIC\` prints a topic below, and a word that is neither is a
usage error (exit 2) that lists both.
`,
  examples: [
    'chamberctl serve &                      # a local server with demo data; writes the "local" profile',
    'chamberctl chambers list --type hq --sort name',
    'chamberctl login --base-url https://directory.example.org --client-id ID   # asks for the secret',
    'chamberctl members import ch_ms2fLiZry7iy3IuE members.csv --report rejected.csv',
    'chamberctl help chambers',
  ],
};
