// commander's own error messages, in the tool's words: one style for a bad option value
// (`--type must be one of: hq, subsidiary, not "bogus"`, as the tool's own checks say it),
// and a "Did you mean" only for a close match (commander's own test suggests `--sort` for
// `--form`, a near-miss of nothing).

const INVALID_CHOICE = /^error: option '(-[\w-]+(?:, --[\w-]+)?)(?: <[^>]*>)?' argument '([\s\S]*)' is invalid\. Allowed choices are ([\s\S]*)\.\n$/;
const SUGGESTION = /^error: unknown (?:option|command) '([^']*)'\n\(Did you mean ([^?]+)\?\)\n$/;

const NO_JQ = /^error: unknown option '(--jq|--jq=.*)'\n/;

export function restyleCommanderError(message: string): string {
  // --jq is on the commands that print JSON (docs/manual/help-output.md), not on this one
  if (NO_JQ.test(message)) return "error: unknown option '--jq': this command prints no JSON to filter; the commands that print JSON take it (chamberctl help output)\n";
  const choice = INVALID_CHOICE.exec(message);
  if (choice) {
    const flag = choice[1]!.split(', ').pop()!;
    return `error: ${flag} must be one of: ${choice[3]}, not "${choice[2]}"\n`;
  }
  const suggested = SUGGESTION.exec(message);
  if (suggested && !isCloseMatch(suggested[1]!, suggested[2]!)) return message.replace(/\(Did you mean [^?]+\?\)\n$/, '');
  return message;
}

/** A typo's distance (one edit in four characters, at least one), or a start of the name; dashes aside. */
export function isCloseMatch(typed: string, suggestion: string): boolean {
  const a = typed.replace(/^-+/, '');
  const b = suggestion.replace(/^-+/, '');
  if (a.length >= 3 && b.startsWith(a)) return true;
  return editDistance(a, b) <= Math.max(1, Math.floor(Math.max(a.length, b.length) / 4));
}

/** Damerau-Levenshtein (optimal string alignment): a swap of two neighbours is one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
