// The help of login, logout, auth status|token, profiles list|use|remove and config
// list|get|set (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';
import { CONFIG_KEYS, configKeysHelp } from '../shared/config-keys.js';

const CONFIG_UNREADABLE = 'the config file cannot be read or written';

export const AUTH_HELP: HelpOf = {
  login: {
    description: `Checks the credentials with the server (one token request, with the version the
profile will use: v2 for \`auto\`, else the pinned one) before it saves anything: if the
server refuses them, nothing is saved. The token it got is cached, so the next command
needs no token request. The global \`--base-url\` and \`--api-version\` are saved in the
profile, and \`--profile\` names it (default: the profile commands use). The first profile
you log in to becomes the current one when no other would be picked (no current profile,
no \`default\`): after \`chamberctl login --profile work\`, commands use \`work\`.

Where the values come from, the first that has one:

    client id      --client-id, CHAMBERCTL_CLIENT_ID, a question, the profile's
    client secret  --client-secret, --client-secret-stdin, CHAMBERCTL_CLIENT_SECRET,
                   a question (masked)
    base URL       --base-url, the profile's, http://127.0.0.1:8080
    api-version    --api-version, the profile's, auto

It asks only when stdin and stderr are both terminals; without one (a script, CI, a
pipe) a missing value is a usage error (exit 2), and nothing waits for input.
\`--client-secret-stdin\` reads all of stdin and strips white space at both ends: the
secret must be on one line. \`--client-secret\` shows the secret in \`ps\` and in your
shell history. A base URL given with the version (\`http://127.0.0.1:8080/v2\`, as
\`serve\` prints it) is taken without it. The secret is sent over plain \`http://\` only
to a loopback address (127.0.0.0/8, ::1, localhost); any other server needs its
\`https://\` URL (exit 3 before anything is sent).
`,
    examples: [
      'chamberctl login --base-url https://directory.example.org                  # asks for the rest',
      'chamberctl login --base-url https://directory.example.org --client-id ci --client-secret "$SECRET"',
      "printf '%s' \"$SECRET\" | chamberctl login --client-id ci --client-secret-stdin",
      'CHAMBERCTL_CLIENT_ID=ci CHAMBERCTL_CLIENT_SECRET="$SECRET" chamberctl login --profile ci',
    ],
    exitCodes: [
      [0, 'the credentials were checked and saved'],
      [1, `the server cannot be reached or fails; ${CONFIG_UNREADABLE}`],
      [2, 'a usage error: a value missing without a terminal, `--client-secret` with `--client-secret-stdin`, a bad `--base-url`, `--api-version` or `--profile`'],
      [3, 'the server refused the credentials (check the client id and secret); an `http://` base URL that is not a loopback address'],
      [130, 'interrupted by Ctrl-C at a question; nothing was saved'],
    ],
    seeAlso: ['logout', 'auth status', 'profiles', 'config'],
  },

  logout: {
    description: `The profile keeps its base URL and client id, so a later \`chamberctl login\` asks only
for the secret. A profile without credentials is left as it is (exit 0). The secret cannot be
shown again, so on a terminal logout asks first, and off one it needs \`--yes\`
(\`chamberctl help destructive\`).
`,
    examples: ['chamberctl logout', 'chamberctl logout --profile staging --yes', 'chamberctl logout --json    # {"profile": "default", "logged_out": true}'],
    exitCodes: [
      [0, 'done, also when there was nothing to remove'],
      [1, `${CONFIG_UNREADABLE}; no to the question`],
      [2, 'a bad `--profile`; no terminal and no `--yes`'],
      [130, 'interrupted by Ctrl-C at the question'],
    ],
    seeAlso: ['login', 'profiles remove'],
  },

  auth: {
    description: `Tokens
------

chamberctl asks for a token with the profile's client credentials
(\`POST {base}/{version}/auth/token\`) the first time it needs one for a version, caches it
in the profile, and uses it until 60 seconds before it expires; each API version has a
token of its own. A server may revoke a token early (a restart with an in-memory
database, a rotated key): when it refuses a token that had worked (401), chamberctl gets
a new one and repeats the request (a 401 means nothing was done, so this is safe for a
POST too), and requests refused at the same moment share one new token. A token refused
right after it was issued ends the command (exit 3): the setup is wrong, and asking again
would only loop.

A saved secret that the server refuses (\`invalid_client\`) worked when it was saved, so
logging in again with it cannot help: the client was revoked, or its secret rotated. The
command exits 3 with one line that says so:

    error: profile "bob": https://directory.example.org refused client bob (client authentication failed); the client may have been revoked or its secret rotated: ask the directory's operator for a new secret, then log in with it (chamberctl login --profile bob)

With \`--base-url\` pointing one command at another path of the profile's origin, the
line says instead that the credentials went to another path of their origin. Tokens got
for a \`--base-url\` of one command are used for that command only, and not saved.

Where credentials go
--------------------

A profile's secret and tokens go only to the origin (scheme, host, port) they were saved
for, as gh keys credentials by host. \`--base-url\` of another origin takes
CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET when both are set, and otherwise exits 3
before sending anything, naming a profile saved for that origin when there is one. A
secret or token goes over plain \`http://\` only to a loopback address (127.0.0.0/8, ::1,
localhost); elsewhere every command, \`login\` included, refuses with exit 3.
`,
    examples: ['chamberctl auth status', 'curl -H "Authorization: Bearer $(chamberctl auth token)" http://127.0.0.1:8080/v2/chambers'],
    seeAlso: ['login', 'profiles', 'help http'],
  },

  'auth status': {
    description: `Shows the profile from the config file and, as \`gh auth status\` does, asks its server
whether it accepts the saved credentials now (one token request; the token is not kept):
a client revoked or rotated since is exit 3, however valid its cached token looks.
\`--offline\` reads the config file only and sends no request. It never shows the secret
or a token: for each API version, whether a token is cached, until when, and the scope the
server gave it (\`--json\`: \`tokens.v1\` and \`tokens.v2\` hold
\`{expires_at, valid, scope}\` or null; \`scope\` only when the server named one;
\`server\`: \`{accepted, scope}\` or \`{accepted: false, said}\`, absent with \`--offline\`).
`,
    examples: ['chamberctl auth status', 'chamberctl auth status --profile staging --json', 'chamberctl auth status --offline    # no request'],
    exitCodes: [
      [0, 'the profile has credentials, and its server accepts them (with --offline: not asked)'],
      [1, `${CONFIG_UNREADABLE}; the server could not be asked (unreachable, an error)`],
      [2, 'a bad `--profile`'],
      [3, 'the profile does not exist, or holds no credentials (`chamberctl login`); the server refused them'],
    ],
    seeAlso: ['auth token', 'login'],
  },

  'auth token': {
    description: `Prints the bare token, for other tools: the only command that ever prints a token. It
is a token for \`--api-version\` if given, else for the profile's api-version (\`auto\`
means v2), and works only on the version that issued it. The cached one is printed while
it has more than a minute left; otherwise a new one is got and cached. \`--json\`:
\`{access_token, token_type, expires_at, api_version, profile}\`.
`,
    examples: [
      'curl -H "Authorization: Bearer $(chamberctl auth token)" http://127.0.0.1:8080/v2/chambers',
      'chamberctl auth token --api-version v1    # a token for /v1',
      'chamberctl auth token --json',
    ],
    exitCodes: [
      [0, 'the token was printed'],
      [1, 'the server cannot be reached or fails; the config file cannot be read'],
      [2, 'a bad `--profile` or `--api-version`'],
      [3, 'the profile does not exist or holds no credentials, or the server refused them'],
    ],
    seeAlso: ['auth status', 'api'],
  },

  profiles: {
    description: `chamberctl keeps each server it talks to in a named profile: the base URL, the API
client's id and secret, the profile's api-version, its settings (\`chamberctl config\`)
and, for each API version, the token it last got. Every command uses one profile, the
first of:

    1. --profile NAME
    2. the environment variable CHAMBERCTL_PROFILE
    3. the current profile, set by chamberctl profiles use NAME
    4. default

\`--base-url URL\` points one command at another server without changing the profile.
The first profile you log in to becomes the current one when no other would be picked
(no current profile, no \`default\`); \`chamberctl serve\` saves its address in the
profile \`local\`, which becomes current under the same rule. A profile name is 1 to 64
characters: letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or a digit.
Where profiles are kept, and how the secrets in them are: \`chamberctl help environment\`.
`,
    examples: ['chamberctl profiles list', 'chamberctl profiles use staging', 'chamberctl --profile staging chambers list'],
    seeAlso: ['login', 'config', 'help environment'],
  },

  'profiles list': {
    description: `\`*\` marks the profile commands use. Piped, one tab-separated line per profile and no
header: \`name\`, \`current\` (the word \`current\`, or empty), \`base_url\`, \`client_id\`,
\`api_version\`, \`logged_in\` (\`yes\` or \`no\`); new columns only ever come last.
\`--json\`: \`[{name, current, base_url, client_id, api_version, logged_in}]\`.
`,
    examples: ['chamberctl profiles list', 'chamberctl profiles list --json'],
    exitCodes: [
      [0, 'the profiles were listed (none is no error)'],
      [1, CONFIG_UNREADABLE],
    ],
    seeAlso: ['profiles use', 'auth status'],
  },

  'profiles use': {
    description: `NAME must exist. \`--profile\` and \`CHAMBERCTL_PROFILE\` still take precedence over
the current profile.
`,
    examples: ['chamberctl profiles use staging'],
    exitCodes: [
      [0, 'NAME is the current profile'],
      [1, CONFIG_UNREADABLE],
      [2, 'there is no profile NAME (the message lists them), or NAME is missing'],
    ],
    seeAlso: ['profiles list'],
  },

  'profiles remove': {
    description: `Removes the whole profile from the config file: its URL, client id, secret, settings and
cached tokens (\`chamberctl logout\` removes only the secret and the tokens). On a terminal it
asks first; off one it needs \`--yes\` (\`chamberctl help destructive\`).
`,
    examples: ['chamberctl profiles remove staging', 'chamberctl profiles remove staging --yes   # in a script'],
    exitCodes: [
      [0, 'the profile was removed'],
      [1, `${CONFIG_UNREADABLE}; no to the question`],
      [2, 'there is no profile NAME, or NAME is missing; no terminal and no `--yes`'],
      [130, 'interrupted by Ctrl-C at the question'],
    ],
    seeAlso: ['logout', 'profiles list'],
  },

  config: {
    description: `Shows and changes a profile's settings without entering the secret again, as
\`aws configure set\` and \`gh config set\` do. \`--profile\` picks the profile (else the
current one). The client secret is never shown.

${configKeysHelp(false)}
- \`base-url\`, also set by \`login --base-url\`, is checked and normalised as
  \`--base-url\` is; a new URL removes the tokens cached for the old server. A URL of
  another origin (scheme, host or port) also forgets the saved secret, which belongs to
  the old server (\`chamberctl login\` then asks for the new one's); \`--keep-secret\`
  keeps it, for the same server under a new address.
- \`api-version\`, also set by \`login --api-version\`: \`chamberctl help api-versions\`.
- \`output\` is what lists print when neither \`--format\` nor \`--json\` says:
  \`auto\` (the default: a table on a terminal, TSV piped), or always \`table\`, \`tsv\`,
  \`json\` or \`csv\`, as the AWS CLI's \`output\`.
- \`prompt\`: \`enabled\` (the default), \`chambers create\` and \`members add\` ask on a
  terminal for the required options that are missing; \`disabled\`, they fail at once
  (exit 2), as without a terminal (gh's \`prompt\` setting).
- ${CONFIG_KEYS.filter((k) => !k.settable).map((k) => `\`${k.key}\``).join(' and ')} are shown only: \`login\` and \`logout\` set them.
`,
    examples: [
      'chamberctl config list',
      'chamberctl config set api-version auto        # unpin a profile pinned to v1',
      'chamberctl config set output csv',
      'chamberctl config set prompt disabled',
      'chamberctl config set base-url https://directory.example.org --profile staging',
    ],
    seeAlso: ['login', 'profiles'],
  },

  'config list': {
    description: `On a terminal it names the profile and why it is the one (\`Profile staging (from
--profile)\`, \`the current profile\`, \`from CHAMBERCTL_PROFILE\`, \`the default profile\`),
then the settings as a table; piped, \`key<TAB>value\` lines and nothing else; with
\`--json\`, one object (\`{"profile": ..., "base-url": ..., "api-version": ..., ...}\`).
`,
    examples: ['chamberctl config list', 'chamberctl config list --json --profile staging'],
    exitCodes: [
      [0, 'the settings were printed'],
      [1, CONFIG_UNREADABLE],
      [2, 'a bad `--profile`'],
      [3, 'the profile does not exist (the message says how to make it)'],
    ],
    seeAlso: ['config get', 'config set'],
  },

  'config get': {
    description: `Prints the bare value, for \`$(...)\`.
`,
    examples: ['chamberctl config get base-url', 'curl "$(chamberctl config get base-url)/v2/openapi.json"'],
    exitCodes: [
      [0, 'the value was printed'],
      [1, CONFIG_UNREADABLE],
      [2, 'an unknown setting, a bad `--profile`'],
      [3, 'the profile does not exist'],
    ],
    seeAlso: ['config list', 'config set'],
  },

  'config set': {
    description: `${configKeysHelp(true)}
Changing \`base-url\` removes the tokens cached for the old server. A URL of another
origin (scheme, host or port) also forgets the saved secret: a secret belongs to the
server it was given for, and is never sent to another (\`chamberctl login\` asks for the
new server's; the client id stays). \`--keep-secret\` keeps it, when the new URL is the
same server under a new address (a new host name, TLS in front of it).
`,
    examples: [
      'chamberctl config set api-version auto',
      'chamberctl config set output csv',
      'chamberctl config set base-url http://127.0.0.1:9090               # then chamberctl login',
      'chamberctl config set base-url https://directory.example.org --keep-secret',
    ],
    exitCodes: [
      [0, 'the setting was saved'],
      [1, `${CONFIG_UNREADABLE}; no to the question of base-url`],
      [2, 'an unknown setting, a value outside its set, a setting that only `login` sets, a bad base URL or `--profile`, `--keep-secret` with another key; base-url of a profile with cached tokens, with no terminal and no `--yes`'],
      [3, 'the profile does not exist'],
    ],
    seeAlso: ['config list', 'help api-versions'],
  },
};
