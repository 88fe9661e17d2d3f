import { Option, type Command } from 'commander';
import type { GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';

/** --page, --per-page, --all and --format, the same on every list. */
export function addPaging(cmd: Command): Command {
  return cmd
    .addOption(new Option('--page <n>', 'page to show (default 1)').conflicts('all'))
    .option('--per-page <n>', 'items per page (default 20, at most 100)')
    .option('--all', 'walk every page (100 per page unless --per-page) and print all items')
    .option('--wide', 'tables: every column, nothing cut (the terminal may wrap)')
    .addOption(
      new Option('--format <format>', 'table (on a terminal), tsv (piped), json (as --json) or csv (a header and RFC 4180 rows)').choices([
        'table',
        'tsv',
        'json',
        'csv',
      ]),
    );
}

/** Every action: the options of the command and of its parents, then the lazily loaded work. */
export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/**
 * `id,name`: the field names a `--json` may be followed by (words, commas). Any case: `Name`
 * is taken as a field list too, so that the command names it and its fields (checkJsonFields).
 */
const FIELD_LIST = /^[a-z_]+(?:,[a-z_]+)*$/i;

export const splitFields = (word: string) => word.split(',');

/**
 * The operands of a resource command and the fields of a `--json FIELDS` (gh's form), for
 * a command declared with `allowExcessArguments()`. `--json` stays a flag: the word after
 * it is read as fields only when the command line has exactly one operand more than the
 * command takes, and that extra word is the one right after `--json` and reads as a field
 * list. So `members list --json ch_x` is the chamber's members as JSON, as it always was,
 * and `members list ch_x --json id,email` (or `--json id,email ch_x`) selects fields. Any
 * other extra word is a usage error with the hint. `--json=FIELDS` is taken by
 * src/cli/program.ts before commander sees it.
 */
export function jsonOperands(cmd: Command, declared: number): { args: string[]; globals: GlobalOptions } {
  const globals = globalsOf(cmd);
  const operands = [...cmd.args];
  if (operands.length > declared) {
    let root = cmd;
    while (root.parent) root = root.parent;
    // the command line as given (commander keeps it, though its typings do not say so)
    const raw: string[] = (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
    const end = raw.includes('--') ? raw.indexOf('--') : raw.length;
    const at = raw.slice(0, end).lastIndexOf('--json');
    const word = at >= 0 ? raw[at + 1] : undefined;
    const index = word === undefined ? -1 : operands.indexOf(word);
    if (operands.length !== declared + 1 || index < 0 || !FIELD_LIST.test(word!)) {
      const expected = `${declared} argument${declared === 1 ? '' : 's'}`;
      throw usageError(
        `too many arguments for '${cmd.name()}': expected ${expected}, got ${operands.length} (${operands.map((o) => `"${o}"`).join(', ')}); ` +
          'to select fields of the JSON, put them right after --json: --json id,name',
      );
    }
    operands.splice(index, 1);
    return { args: operands, globals: { ...globals, json: true, jsonFields: splitFields(word!) } };
  }
  return { args: operands, globals };
}
