// `chamberctl help environment`: the environment variables and the files chamberctl reads.
export const ENVIRONMENT_TOPIC = `Environment variables:

    CHAMBERCTL_PROFILE        the profile to use, unless --profile is given
    CHAMBERCTL_CONFIG_DIR     directory of config.json (profiles, secrets, cached tokens)
                              instead of the platform's config directory
    CHAMBERCTL_DATA_DIR       directory of serve's default database
    CHAMBERCTL_DB             the database of every command with --db (serve, sync,
                              snapshot, clients, audit) unless --db is given (a SQLite
                              file or a postgres:// URL): keeps a password out of ps
    CHAMBERCTL_CLIENT_ID      client id for chamberctl login, and for --base-url of
                              another origin than the profile's (with the secret)
    CHAMBERCTL_CLIENT_SECRET  client secret for chamberctl login, of serve --client-id,
                              and for --base-url of another origin (with the id)
    PGPASSWORD, PGPASSFILE    the PostgreSQL password when the URL has none, as libpq
                              reads them (PGPASSFILE: default ~/.pgpass, mode 0600)
    CHAMBERCTL_CACHE_DIR      directory of the start-up code cache
    CHAMBERCTL_NO_CODE_CACHE  1: run without the code cache (neither read nor written)
    NO_COLOR                  any non-empty value turns colour off (as --no-color)
    TERM=dumb                 no colour
    COLUMNS                   the width tables fit when the terminal does not say
    HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower-case)
                              proxies for the commands that talk to a server, as curl
                              reads them

Global options, before or after the command: --profile NAME, --json,
--api-version auto|v1|v2, --base-url URL, --no-color, --verbose.

Proxies
-------

As in curl, \`HTTPS_PROXY\` is for \`https://\` servers and \`HTTP_PROXY\` for \`http://\`
ones, the lower-case forms win, and \`NO_PROXY\` lists what is reached directly (a host,
\`.suffix\`, \`host:port\`, \`*\`). A proxy is reached with \`CONNECT\`; one that cannot be
reached is one error line naming it (its password as \`***\`), exit 1. Without these
variables requests go straight to the server. \`chamberctl serve\` itself is never behind
them. How chamberctl talks to a server otherwise: \`chamberctl help http\`.

Files
-----

    config.json    profiles, their secrets and cached tokens: CHAMBERCTL_CONFIG_DIR, else
                   Linux    $XDG_CONFIG_HOME/chamberctl (~/.config/chamberctl)
                   macOS    ~/Library/Preferences/chamberctl
                   Windows  %APPDATA%\\chamberctl\\Config
    chamberctl.db  serve's default database: CHAMBERCTL_DATA_DIR, else
                   Linux    $XDG_DATA_HOME/chamberctl (~/.local/share/chamberctl)
                   macOS    ~/Library/Application Support/chamberctl
                   Windows  %LOCALAPPDATA%\\chamberctl\\Data
    code-cache     chamberctl's own compiled JavaScript: CHAMBERCTL_CACHE_DIR, else
                   Linux    $XDG_CACHE_HOME/chamberctl/code-cache
                            (~/.cache/chamberctl/code-cache)
                   macOS    ~/Library/Caches/chamberctl
                   Windows  %LOCALAPPDATA%\\chamberctl\\Cache

config.json holds the client secrets and the cached tokens in clear (they must be sent
to the server), so chamberctl guards the file: it is created with mode 0600, a looser
mode is set back to 0600 on the next write, and its directory is created 0700 (the
platform's default directory is set to 0700 if it existed with more; a directory named
by \`CHAMBERCTL_CONFIG_DIR\` that exists keeps its mode). Every write goes to a temporary
file (0600), flushed, then renamed over config.json: a crash or a second chamberctl at
the same time never leaves half a file. \`chamberctl logout\` removes a profile's secret
and tokens, \`chamberctl profiles remove\` the whole profile. \`chamberctl serve\` keeps
client secrets and tokens only as hashes. Secrets and tokens never appear in output or
errors: \`--verbose\` shows \`Authorization\` as \`Bearer [redacted]\`, the
\`client_secret\` and \`access_token\` of token requests as \`[redacted]\`, and so any
other place the profile's secret or token occurs.

The code cache holds only chamberctl's compiled JavaScript (no configuration, no
secrets), a few MB in one folder per build and Node.js version; a new build removes the
older folders. It can never make a command fail (unreadable, corrupt or foreign data is
ignored and written afresh), and may be deleted at any time. Compiled code is executable:
whoever can write it runs code as you. So a cache folder that another user owns or that
others can write, or a \`CHAMBERCTL_CACHE_DIR\` that others can write (unless sticky, as
/tmp is), is not used: the command runs without a cache, after one warning line on
stderr that names the folder and its mode (\`chmod go-w\` it, or remove it); chamberctl
makes its folders 0700.
`;
