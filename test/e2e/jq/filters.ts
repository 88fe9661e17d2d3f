// The filters `--jq` is checked with (test/e2e/jq.test.ts): each over the output of a real
// command on the demo data. The filters keep to what jq 1.6 to 1.8 answer alike (no @uri,
// no builtin's error message, no arithmetic on fractions), since the answers are compared
// with whatever jq the machine has, and with recorded.json (jq's answers, recorded) where it
// has none.

/** The commands, by name; `CH` stands for the first chamber's id. */
export const COMMANDS = {
  chambers: ['chambers', 'list', '--all'],
  firstPage: ['chambers', 'list'],
  members: ['members', 'list', 'CH', '--all'],
  chamber: ['chambers', 'get', 'CH', '--include', 'members'],
  fields: ['chambers', 'list', '--per-page', '5', '--json', 'id,name'],
  events: ['events', 'list', 'CH', '--per-page', '5'],
} as const;

export type CommandName = keyof typeof COMMANDS;

export const FILTERS: Array<[CommandName, string]> = [
  // paths and indexing
  ['firstPage', '.[0].name'],
  ['firstPage', '.[0].address.city'],
  ['firstPage', '.[2:4] | map(.id)'],
  ['firstPage', '.[-1].id'],
  ['firstPage', '.[] | .id'],
  ['firstPage', '[paths] | length'],
  ['firstPage', '[paths(type == "string")] | .[0:3]'],
  ['firstPage', '.[0] | keys'],
  ['firstPage', '.[0:2][] | {id, name}'],
  ['fields', '.'],
  ['fields', '.[] | .name'],
  // length, select, map
  ['chambers', 'length'],
  ['chambers', '[.[] | select(.type == "hq")] | length'],
  ['chambers', '.[] | select(.type == "subsidiary") | .hq_id'],
  ['chambers', 'map(.address.country) | unique'],
  ['chambers', 'map(select(.status != "active")) | map(.id)'],
  ['chambers', 'map(.name | length) | add'],
  // group_by, sort_by, unique_by, min/max
  ['chambers', 'group_by(.type) | map({type: .[0].type, n: length})'],
  ['chambers', 'group_by(.address.country) | map("\\(.[0].address.country): \\(length)") | .[]'],
  ['chambers', 'sort_by(.name) | .[0:3] | map(.name)'],
  ['chambers', 'sort_by(.created_at) | last | .name'],
  ['chambers', 'unique_by(.status) | map(.status)'],
  ['chambers', 'min_by(.created_at) | .id'],
  ['chambers', 'max_by(.name) | .name'],
  // @csv, @tsv, @json, @base64, @html, string interpolation
  ['firstPage', '.[] | [.id, .name, .type] | @csv'],
  ['firstPage', '.[] | [.id, .name, .hq_id] | @tsv'],
  ['firstPage', '.[] | "\\(.id)\\t\\(.name) (\\(.address.city))"'],
  ['firstPage', '.[0] | @json "chamber: \\(.name)"'],
  ['firstPage', '.[0].name | @base64'],
  ['firstPage', '.[0:3][] | .name | @html'],
  // .., //, try/catch
  ['chambers', '[.. | strings | select(startswith("ch_"))] | length'],
  ['chamber', '[.. | objects | select(has("email"))] | length'],
  ['firstPage', '.[] | .hq_id // "-"'],
  ['firstPage', '.[0].no_such_field // "none"'],
  ['firstPage', '.[] | try (.name | tonumber) catch "not a number"'],
  ['firstPage', 'try error("stop") catch "caught: \\(.)"'],
  ['firstPage', '.[0] | try .name.first catch "a string has no fields"'],
  // reduce, to_entries, with_entries
  ['chambers', 'reduce .[] as $c ({}; .[$c.type] += 1)'],
  ['firstPage', '.[0] | to_entries | map(.key) | join(",")'],
  ['firstPage', '.[0] | to_entries[] | select(.value == null) | .key'],
  ['firstPage', '.[0] | with_entries(select(.value | type == "string")) | keys'],
  ['firstPage', 'to_entries | map("\\(.key): \\(.value.id)") | .[0:2][]'],
  // first, limit, last, any, all
  ['chambers', 'first(.[] | select(.type == "subsidiary")) | .name'],
  ['chambers', '[limit(3; .[] | .name)]'],
  ['chambers', 'first, last | .id'],
  ['chambers', 'any(.[]; .type == "hq"), all(.[]; has("hq_id"))'],
  // strings: ascii_downcase, test with a regular expression, split, sub
  ['firstPage', '.[] | .name | ascii_downcase'],
  ['chambers', 'map(select(.name | test("chamber"; "i"))) | length'],
  ['chambers', 'map(select(.name | test("^[A-C][a-z]+ "))) | map(.name) | .[0:5]'],
  ['members', 'map(.email | ascii_downcase | split("@")[1]) | unique | length'],
  ['members', 'map(select(.email | test("\\\\.example$"))) | length'],
  ['members', '.[0] | "\\(.name) <\\(.email)>"'],
  ['members', 'group_by(.membership_type) | map([.[0].membership_type, length] | @tsv) | .[]'],
  ['members', 'sort_by(.joined_at) | first | .joined_at[0:10]'],
  ['members', '[.[] | .phone // "none"] | .[0:3]'],
  ['members', '.[0].name | sub(" "; "_")'],
  ['chamber', '.members | length'],
  ['chamber', '.members[0:2][] | [.name, .membership_type] | @csv'],
  ['events', 'map(.title) | sort'],
  ['events', '.[] | .location // "(no location)"'],
];
