// Reads jq's own tests/jq.test (jqlang/jq) the way jq's test runner (src/jq_test.c) does:
// groups of lines separated by blank or comment lines; a group is a program, an input and the
// expected outputs, or after `%%FAIL` / `%%FAIL IGNORE MSG` a program that must not compile
// and its error message.

/** Names whose use puts a case out of the subset `--jq` needs: I/O, modules, dates, `input`. */
const OUT_OF_SUBSET = [
  // I/O and the process around the program
  /\binputs?\b/, /\binput_filename\b/, /\binput_line_number\b/, /\bdebug\b/, /\bstderr\b/,
  /\bhalt(_error)?\b/, /\$ENV\b/, /\benv\b/, /\$__prog_args\b/, /\bget_search_list\b/,
  /\bget_prog_origin\b/, /\bget_jq_origin\b/,
  // modules
  /\b(import|include)\s+"/, /\bmodulemeta\b/,
  // dates and time
  /\b(mktime|gmtime|localtime|strftime|strptime|strflocaltime|todate|fromdate|date|now|dateadd|datesub|datefmt|todateiso8601|fromdateiso8601|dateiso8601)\b/,
];

export function outOfSubset(program) {
  return OUT_OF_SUBSET.some((re) => re.test(program));
}

/** @returns {{line: number, program: string, input?: string, expected: string[], mustFail: boolean}[]} */
export function parseJqTest(text) {
  const lines = text.split('\n');
  const skip = (l) => /^[ \t]*(#|$)/.test(l);
  const cases = [];
  let i = 0;
  let mustFail = false;
  while (i < lines.length) {
    const line = lines[i];
    i++;
    if (skip(line)) continue;
    if (line === '%%FAIL' || line === '%%FAIL IGNORE MSG') {
      mustFail = true;
      continue;
    }
    const c = { line: i, program: line, expected: [], mustFail };
    if (!mustFail) c.input = lines[i++];
    while (i < lines.length && !skip(lines[i])) c.expected.push(lines[i++]);
    cases.push(c);
    mustFail = false;
  }
  return cases;
}
