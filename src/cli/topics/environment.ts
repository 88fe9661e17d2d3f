// `chamberctl help environment`: the environment variables chamberctl reads.
export const ENVIRONMENT_TOPIC = `Environment variables:

    CHAMBERCTL_PROFILE        the profile to use, unless --profile is given
    CHAMBERCTL_CONFIG_DIR     directory of config.json (profiles, secrets, cached tokens)
                              instead of the platform's config directory
    CHAMBERCTL_DATA_DIR       directory of serve's default database
    CHAMBERCTL_DB             the database of every command with --db, unless --db
                              is given (a SQLite file or a postgres:// URL)
    CHAMBERCTL_CLIENT_ID      client id for chamberctl login
    CHAMBERCTL_CLIENT_SECRET  client secret for chamberctl login, and of serve --client-id
    PGPASSWORD, PGPASSFILE    the PostgreSQL password when the URL has none, as libpq
                              reads them (PGPASSFILE: default ~/.pgpass, mode 0600)
    CHAMBERCTL_CACHE_DIR      directory of the start-up code cache
    CHAMBERCTL_NO_CODE_CACHE  1: run without the code cache
    NO_COLOR                  any non-empty value turns colour off (as --no-color)
    TERM=dumb                 no colour
    COLUMNS                   the width tables fit when the terminal does not say
    HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower-case)
                              proxies for the commands that talk to a server, as curl
                              reads them

Global options, before or after the command: --profile NAME, --json,
--api-version auto|v1|v2, --base-url URL, --no-color, --verbose.
`;
