// Spreadsheet formula injection (OWASP "CSV Injection"): a spreadsheet opening a CSV runs a
// cell that begins with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)`, DDE), and a
// leading tab or carriage return does not stop it. Such a cell is written with a leading
// `'`, which spreadsheets read as "this is text" and do not show. The import takes one `'`
// back off, so an export imports back as it was stored (docs/manual/help-csv-format.md,
// "Formulas").
//
// The rule is a bijection: a value that begins with any number of `'` and then one of
// those characters gets one more `'`; a cell that begins with one or more `'` and then one
// of them loses one. A value such as `'=x` (stored with its apostrophe) is written `''=x`
// and read back as `'=x`.

const NEEDS_QUOTE = /^'*[=+\-@\t\r]/;
const QUOTED = /^'+[=+\-@\t\r]/;

/** The cell to write for a value: with a leading `'` when a spreadsheet would run it. */
export function protectCell(value: string): string {
  return NEEDS_QUOTE.test(value) ? `'${value}` : value;
}

/** The value a cell that protectCell wrote stands for. */
export function unprotectCell(cell: string): string {
  return QUOTED.test(cell) ? cell.slice(1) : cell;
}
