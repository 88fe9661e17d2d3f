// `chamberctl help api-versions`: which version of the API a command calls.
export const API_VERSIONS_TOPIC = `The service has two API versions: v1, stable, which reads chambers and members, and v2,
beta, which also filters, sorts, embeds, creates and has events. A profile's
\`api-version\` is \`auto\` unless pinned (\`chamberctl login --api-version v1|v2\`, or
\`chamberctl config set api-version\`); \`--api-version\` overrides it for one command.

    setting   plain reads: chambers list     what needs v2: --type, --status,
              and get, members list with     --sort, --include, chambers create,
              paging only                    members add and import, members
                                             get, events list
    auto      v1, the stable version         v2
    v2        v2                             v2
    v1        v1                             a usage error (exit 2), before
                                             anything is sent

    $ chamberctl --profile legacy chambers list --status active
    error: --status needs API v2, but profile "legacy" is pinned to v1; use --api-version v2, or unpin it with \`chamberctl config set api-version auto\`
    $ chamberctl --profile legacy chambers list --status active --api-version v2    # works

Each version has its own token: a token works only on the version that issued it.
Tokens are cached in the profile, so a series of commands asks for one token per version
until it is about to expire. \`chamberctl auth token\` prints one for \`--api-version\`,
else for the profile's setting, where \`auto\` means v2.

\`chamberctl api\` takes the version from the path (\`/v1/...\`, \`/v2/...\`), else from the
profile (\`auto\` means v2). \`chamberctl members get\` reads a v2 route that
\`chamberctl serve\` has and the interface document does not: another server may answer
404 or 405. \`chamberctl sync pull\` through a v1-only profile copies chambers and members,
and says that events are not copied.
`;
