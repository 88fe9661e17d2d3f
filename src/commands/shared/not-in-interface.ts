import type { Command } from 'commander';
import { usageError } from '../../core/exit-codes.js';

// Verbs a person tries that the interface has no endpoint for (`members delete`, `chambers
// update`): hidden commands that say so, and what to do instead, rather than commander's
// bare "unknown command". A usage error (exit 2), as an unknown command is; nothing is sent.

export const CHANGE_VERBS = ['update', 'edit', 'set', 'delete', 'remove', 'rm'];

const kind = (verb: string) => (['delete', 'remove', 'rm'].includes(verb) ? 'delete' : 'update');

/**
 * Registers each of `verbs` under `noun` as a hidden command (not in --help or completion)
 * that fails at once with: what the interface lacks, that nothing was done, and `instead`.
 */
export function refuseVerbs(noun: Command, plural: string, verbs: readonly string[], instead: string): void {
  for (const verb of verbs) {
    noun
      .command(verb, { hidden: true })
      .argument('[args...]')
      .allowUnknownOption()
      .allowExcessArguments()
      .helpOption(false)
      .action(() => {
        const lacks = CHANGE_VERBS.includes(verb) ? `no ${kind(verb)} for ${plural} (it has no update or delete at all)` : `no way to ${verb} ${plural}`;
        throw usageError(`the Chamber Directory interface has ${lacks}, so nothing was done; ${instead}`);
      });
  }
}
