import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { addJqOption } from './jq-option.js';

/**
 * `--json FIELDS` on a command that prints records, as gh's AddJSONFlags gives it to every
 * such command: `--json` alone, `--json=id,name` and `--json id,name`, the fields checked
 * against the record's (a usage error naming the unknown ones and the known), listed in the
 * command's help and offered by completion (`jsonFieldsOf`).
 *
 * `--json` stays the global flag: the word after it is read as fields only when the command
 * line has exactly one operand more than the command takes and that operand is the word
 * right after `--json`. So `members list --json ch_x` is the chamber's members as JSON, and
 * `members list ch_x --json id,email` (or `--json id,email ch_x`) selects fields. The word
 * after `--json` is noted by src/cli/program.ts before commander parses (`noteJsonWord`), beside
 * the option values rather than among them, so no command finds it in its options.
 *
 * Every such command also takes `--jq EXPR` (jq-option.ts).
 */
export function addJsonFields(cmd: Command, fields: readonly string[], what: string, ctx: CliContext): Command {
  FIELDS_OF.set(cmd, fields);
  return addJqOption(cmd, ctx)
    .allowExcessArguments()
    // commander ends each text with a line break
    .addHelpText('after', `\nJSON fields (--json FIELDS, comma-separated): ${fields.join(', ')}`)
    .hook('preAction', (_self, action) => takeJsonFields(action, fields, what));
}

/** The record fields of a command declared with addJsonFields (for completion). */
export const jsonFieldsOf = (cmd: Command): readonly string[] | undefined => FIELDS_OF.get(cmd);

const FIELDS_OF = new WeakMap<Command, readonly string[]>();

/** The word right after `--json` on a program's command line, if any. */
const JSON_WORD = new WeakMap<Command, string>();
export const noteJsonWord = (program: Command, word: string): void => void JSON_WORD.set(program, word);

function takeJsonFields(cmd: Command, fields: readonly string[], what: string): void {
  const declared = cmd.registeredArguments.length; // none of these commands has a variadic argument
  const operands = cmd.args;
  let root = cmd;
  while (root.parent) root = root.parent;
  if (operands.length > declared) {
    const word = JSON_WORD.get(root);
    const index = word === undefined ? -1 : operands.lastIndexOf(word);
    if (operands.length !== declared + 1 || index < 0) {
      const expected = `${declared} argument${declared === 1 ? '' : 's'}`;
      throw usageError(
        `too many arguments for '${cmd.name()}': expected ${expected}, got ${operands.length} (${operands.map((o) => `"${o}"`).join(', ')}); ` +
          'to select fields of the JSON, put them right after --json: --json id,name',
      );
    }
    operands.splice(index, 1);
    cmd.processedArgs = cmd.registeredArguments.map((_argument, i) => operands[i]);
    root.setOptionValue('json', true).setOptionValue('jsonFields', word!.split(','));
  }
  checkJsonFields(root.opts<GlobalOptions>(), fields, what);
}

/**
 * `--json FIELDS`: every field must be one of the object's (`what` names it); a usage error
 * (exit 2) before anything is sent otherwise, listing them, as gh does.
 */
export function checkJsonFields(globals: Pick<GlobalOptions, 'jsonFields'>, allowed: readonly string[], what: string): void {
  const unknown = (globals.jsonFields ?? []).filter((f) => !allowed.includes(f));
  if (unknown.length) {
    throw usageError(`--json: ${unknown.map((f) => `"${f}"`).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${what}; fields: ${allowed.join(', ')}`);
  }
}
