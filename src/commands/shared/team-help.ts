// What the help of clients and audit says of their --db.

export const TEAM_DB_TEXT = `\`--db\` names the database itself, as \`serve\` takes it: a SQLite file or a
\`postgres://\` URL; by default \`$CHAMBERCTL_DB\`, else the database whose \`serve\` saved
the selected profile (\`--profile\`, else the current one: as kubectl uses the current
context), else the database \`serve\` uses by default. A file that does not exist is
\`error: no database at PATH\` (exit 4), and nothing is created.
`;
