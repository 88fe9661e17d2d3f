// The help of `chamberctl api` (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

export const API_HELP: HelpOf = {
  api: {
    description: `Like \`gh api\`: any path of the interface, with the profile's token (renewed on a 401
as for every command), and the answer printed as it came: indented on a terminal, the
server's bytes when piped, so that \`jq\` gets exactly what the server said.

- The version is the path's first segment (\`/v1/...\`, \`/v2/...\`), else the profile's
  (\`auto\` means v2).
- \`-X METHOD\` is GET by default, or POST once fields or \`--input\` are given, as in gh.
- \`-f key=value\` adds a string field, \`-F key=value\` a typed one: \`true\`, \`false\`,
  \`null\` and numbers as JSON, \`@file\` the file's text, \`@-\` stdin. The fields are the
  JSON body (\`address[city]=Ghent\` nests), or the query of a GET (\`-X GET\`, or with
  \`--paginate\`).
- \`--input FILE\` (\`-\` for stdin) is the whole JSON body.
- \`-H 'Name: value'\` adds a header; not \`Authorization\`: choose the profile instead.
- \`--paginate\` follows \`page\` (100 a page unless \`per_page\` is given) until the list's
  \`meta.total\` is reached, and prints one JSON array of every item.
- An answer that is not a 2xx is printed all the same, with one line on stderr, and the
  exit status is the one its status has (\`chamberctl help exit-codes\`).
`,
    examples: [
      "chamberctl api '/v2/chambers?filter[type]=hq&sort=name'",
      'chamberctl api -X GET /v2/chambers -f filter[status]=pending -f per_page=100',
      'chamberctl api /v2/chambers/ch_ms2fLiZry7iy3IuE/members --paginate --jq length',
      'chamberctl api /v2/chambers -f name="Ghent Chamber" -f type=hq -f address[street]="1 Quay" -f address[city]=Ghent -f address[country]=BE',
      'chamberctl api -X POST /v2/chambers/ch_x/members --input member.json -H "Idempotency-Key: 42"',
      'chamberctl api /v1/chambers/ch_x -i                # the status line and the headers first',
    ],
    exitCodes: [
      [0, 'the answer was a 2xx'],
      [1, 'a 5xx, a 405 or another answer without a code of its own; the server cannot be reached'],
      [2, 'a usage error: a bad flag or field, an `--input` that cannot be read, `-H Authorization`; a 400 about a query parameter'],
      [3, 'no profile or no credentials; a 401 that a new token did not cure; a 403'],
      [4, 'a 404'],
      [5, 'a 422 or a 409, or a 400 naming fields of the body'],
      [130, 'interrupted by Ctrl-C'],
    ],
    seeAlso: ['help exit-codes', 'help api-versions', 'help http', 'auth token'],
  },
};
