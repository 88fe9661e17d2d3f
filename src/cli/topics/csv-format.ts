// `chamberctl help csv-format`: the CSV file that `members import` reads, and which of its
// rows are refused before anything is sent.
import { MEMBERSHIP_TYPES } from '../../contract/values.js';

export const CSV_FORMAT_TOPIC = `The CSV file of \`chamberctl members import\`: a header row, then one member a row.

    name,email,phone,membership_type,notes
    Ada Lovelace,ada@example.org,+44 20 7946 0000,premium,board member
    "Doe, Jane",jane@example.org,,standard,
    "Say ""Hi"" Ltd",hi@example.org,+49 30 1234567,corporate,"two
    lines"

- The header row: the first line that is not blank names the columns. \`name\`, \`email\`
  and \`membership_type\` are required, \`phone\` is optional. Names are matched trimmed
  and in any case, in any order, and spaces and dashes count as \`_\`: \`Membership Type\`,
  \`E-Mail\` and \`EMAIL\` with blanks around it all work. A required column that is
  missing stops the import before anything is sent (exit 5), and so does a column named
  twice. When the header reads as one column holding \`;\` or a tab, the message says
  which \`--delimiter\` to try.
- Other columns are ignored, and named once in a warning on stderr (and in the summary's
  \`ignored_columns\`). The report's own columns \`line\`, \`status\` and \`reason\` are
  ignored without a warning, so a report imports as it is.
- Values: \`membership_type\` is one of
  ${MEMBERSHIP_TYPES.map((t) => `\`${t}\``).join(', ')}, in any case (\`Premium\` is \`premium\`).
  An empty \`phone\` means no phone. Values are checked with the server's rules (the
  contract's \`MemberCreate\`), so what passes here is what the server takes.
- Encoding: UTF-8, with or without a byte-order mark. A UTF-16 file is refused (exit 5)
  with a hint to save it as "CSV UTF-8"; text that is not UTF-8 (a Latin-1 export) makes
  its row invalid rather than sending garbled names.
- Quoting follows RFC 4180: a value with the delimiter, a quote or a line break is
  quoted, and a quote inside it is doubled. Line breaks may be CRLF, LF or CR, mixed.
  Blank lines and rows of empty values (\`,,,\`) are skipped.
- The delimiter is \`,\` unless \`--delimiter\` says otherwise: \`;\` for files from a German
  or French Excel, \`tab\` (or \`\\t\`) for tab-separated files, or any other single
  character.
- Formulas: a spreadsheet runs a cell that begins with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a
  carriage return as a formula (OWASP's "CSV Injection"), so the report (always) and
  \`--format csv\` exports (unless \`--raw\`) write such a value with a leading \`'\`,
  which spreadsheets read as "text" and do not show: \`=HYPERLINK("http://x","y")\` is
  written \`'=HYPERLINK("http://x","y")\`, a phone \`+44 20 7946 0000\` is
  \`'+44 20 7946 0000\`. The import takes one \`'\` off a value that begins with one or
  more \`'\` and then one of those characters, so an export or a
  report imports back as it was stored; a value that really begins with \`'=\` is written
  \`''=\` for that reason. A file written by hand with \`'=1+1\` imports as \`=1+1\`.
  Values are trimmed, so a leading tab or carriage return never reaches the server: a
  cell \`<TAB>=1+1\` is the name \`=1+1\`. \`--raw\` exports values exactly as stored; such
  an export imports back the same, except a value that begins with \`'\` and one of those
  characters, which loses its \`'\`.
- Line numbers in messages and in the report are the lines of the file as an editor
  shows them: a row whose quoted value spans lines is named by its first line.

Rows refused before anything is sent
------------------------------------

- Invalid rows (a bad e-mail address, a missing name, an unknown membership type, more
  values than the header has columns) are never sent. Each is reported with its line and
  every failing field: \`line 7 (invalid): email: must be a valid e-mail address\`.
- Duplicates within the file: an e-mail address that an earlier row has (compared in any
  case, as the server compares it) is reported as \`duplicate\` on the later line, and not
  sent: \`line 12 (duplicate): the same e-mail as line 3\`.
- Malformed lines: a line the CSV rules cannot read (an unbalanced \`"\`, a quote inside a
  value that is not quoted) is reported with its line, and reading goes on with the next
  line: \`line 9 (invalid): a quoted value is never closed (unbalanced ")\`. A quoted value
  may span lines, but a row may not exceed 1 MiB, so an unclosed quote costs that row and
  not the rest of the file.

The first 50 of these are printed on stderr; \`--report\` lists every one, with the rows
that failed at the server.
`;
