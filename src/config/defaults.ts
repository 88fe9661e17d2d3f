import type { CliContext, GlobalOptions } from '../core/context.js';
import { openProfileStore } from './profile-store.js';
import { selectProfile } from './select.js';

// The profile's own defaults (`config set output|prompt`), applied where no flag says
// otherwise, as the AWS CLI's `output` and gh's `prompt` settings are.

function selectedProfile(globals: GlobalOptions, ctx: CliContext) {
  try {
    const store = openProfileStore(ctx.env);
    return store.get(selectProfile(globals, ctx.env, store).name);
  } catch {
    return undefined; // no usable config: the command itself says why, if it needs one
  }
}

/** The lists' output: --format or --json, else the profile's `output`, else by the terminal. */
export function withOutputDefault(globals: GlobalOptions, ctx: CliContext): GlobalOptions {
  if (globals.json || globals.format) return globals;
  const output = selectedProfile(globals, ctx)?.output;
  return output ? { ...globals, format: output } : globals;
}

/** Whether a missing option may be asked for: the profile does not say `prompt disabled`. */
export function promptsEnabled(globals: GlobalOptions, ctx: CliContext): boolean {
  return selectedProfile(globals, ctx)?.prompt !== 'disabled';
}
