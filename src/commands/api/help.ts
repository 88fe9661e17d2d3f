// The help of `chamberctl api` (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';

export const API_HELP: HelpOf = {
  api: {
    description: `An answer that is not a 2xx is printed too, and the exit status is the one
\`chamberctl help exit-codes\` gives its status (4 for a 404, 5 for a 422, ...).
`,
    examples: [
      "chamberctl api '/v2/chambers?filter[type]=hq&sort=name'",
      'chamberctl api -X GET /v2/chambers -f filter[status]=pending -f per_page=100',
      'chamberctl api /v2/chambers/ch_ms2fLiZry7iy3IuE/members --paginate | jq length',
      'chamberctl api /v2/chambers -f name="Ghent Chamber" -f type=hq -f address[street]="1 Quay" -f address[city]=Ghent -f address[country]=BE',
      'chamberctl api -X POST /v2/chambers/ch_x/members --input member.json -H "Idempotency-Key: 42"',
      'chamberctl api /v1/chambers/ch_x -i',
    ],
  },
};
