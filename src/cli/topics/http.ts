// `chamberctl help http`: how chamberctl talks to a server, and what it assumes of one.
import { SENT_ONCE_HELP } from '../../commands/shared/create-help.js';

export const HTTP_TOPIC = `Every command that talks to a server does it through one HTTP client:

- Connections are kept open and reused for the requests of one command. Requests carry
  \`User-Agent: chamberctl/VERSION\`.
- Timeouts: 10 s to connect, 30 s for the response headers, and 30 s for any pause while
  the body arrives.
- GET requests, and token requests (which are safe to repeat), are retried after a
  network error and on 429, 502, 503 and 504, at most 4 times in all. Between attempts
  chamberctl waits a random time up to 0.25 s, 0.5 s, 1 s and so on (at most 4 s), or
  exactly what the server's \`Retry-After\` asks (seconds or an HTTP date); when that is
  more than 30 s, it stops and reports the error instead. On a terminal the spinner says
  so while it waits.
- For \`chambers create\` and \`members add\`: ${SENT_ONCE_HELP.trim().replace(/^The/, 'the')} (\`members import\`
  retries its rows on its own terms, which the 409 of a repeat makes safe:
  \`chamberctl members import --help\`.)
- Tokens are asked for, cached and renewed as \`chamberctl auth --help\` says; a 401 gets
  one new token and the same request.
- \`--verbose\` prints every exchange on stderr (method, URL, status, time, headers and
  bodies), the secrets and tokens in it replaced by \`[redacted]\`.
- \`--base-url URL\` points one command at another URL without changing the profile. The
  profile's secret and tokens go only to the origin (scheme, host, port) they were saved
  for: another origin takes CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET, else exit
  3. A secret or token goes over plain \`http://\` only to a loopback address (127.0.0.0/8,
  ::1, localhost): exit 3 otherwise, \`login\` included (\`chamberctl auth --help\`).
- Proxies: \`HTTPS_PROXY\`, \`HTTP_PROXY\` and \`NO_PROXY\` (\`chamberctl help environment\`).

What chamberctl assumes of a server
-----------------------------------

chamberctl is written against the interface document, not against \`chamberctl serve\`,
and takes whatever a server may do where the document is silent. It assumes the paths,
parameters and field names the document shows, the list envelope (\`data\`,
\`meta.total\`, \`meta.current_page\`, \`meta.per_page\`), bearer tokens from
\`POST /{version}/auth/token\`, and a 404 for a missing chamber. Beyond that it takes:

    where the document is silent     what chamberctl takes
    identifiers                      any string ("1042", ch_..., a UUID), passed on
                                     as they are
    other fields of a record         kept, and printed as sent (--json shows them all)
    success of a v2 POST             any 2xx, with or without Location
    validation failures              422, or a 400 whose fields name the body's
                                     fields: both exit 5 with the field messages; a
                                     400 about a query parameter exits 2
    the lifetime of a token          a token revoked early is replaced and the
                                     request repeated
    overload                         429 and 503, with or without Retry-After:
                                     retried as above
    more keys in the list envelope   ignored (links, meta.last_page); paging
                                     follows meta.total
`;
