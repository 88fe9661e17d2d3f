import { Option, type Command } from 'commander';
import type { GlobalOptions } from '../../core/context.js';

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
    )
    .option('--raw', "csv: values exactly as stored, without the ' before a leading = + - @ (chamberctl help csv-format)");
}

/** Every action: the options of the command and of its parents, then the lazily loaded work. */
export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}
