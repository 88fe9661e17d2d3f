import type { CliContext, GlobalOptions } from '../../core/context.js';
import { logoutProfile } from '../../config/profile-info.js';
import { openProfileStore } from '../../config/profile-store.js';
import { selectProfile } from '../../config/select.js';
import { confirmDestructive } from '../shared/ask.js';

/** `chamberctl logout`: forgets the secret and cached tokens; the profile's URL and client id stay. */
export async function runLogout(opts: GlobalOptions & { yes?: boolean }, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name } = selectProfile(opts, ctx.env, store);
  const profile = store.get(name);
  // the secret cannot be read back from the server: forgetting it is asked for (help destructive)
  if (profile?.clientSecret) {
    await confirmDestructive(ctx, {
      yes: opts.yes,
      question: `Remove the client secret of profile "${name}" (client ${profile.clientId})? It cannot be shown again; logging in again needs it.`,
      offTerminal: `logout removes the client secret of profile "${name}" for good`,
      declined: `profile "${name}" was left as it was`,
    });
  }
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
