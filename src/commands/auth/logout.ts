import type { CliContext, GlobalOptions } from '../../core/context.js';
import { logoutProfile } from '../../config/profile-info.js';
import { openProfileStore } from '../../config/profile-store.js';
import { selectProfile } from '../../config/select.js';

/** `chamberctl logout`: forgets the secret and cached tokens; the profile's URL and client id stay. */
export async function runLogout(opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name } = selectProfile(opts, ctx.env, store);
  const removed = await logoutProfile(store, name);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ profile: name, logged_out: removed })}\n`);
    return;
  }
  ctx.stderr.write(
    removed
      ? `logged out: removed the client secret and cached tokens of profile "${name}"\n`
      : `profile "${name}" holds no credentials; nothing to do\n`,
  );
}
