import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CONFIG_KEYS } from '../shared/config-keys.js';
import { addJqOption } from '../shared/jq-option.js';

/** The command's options merged with the global ones (given before or after the subcommand). */
const globals = (cmd: Command) => cmd.optsWithGlobals() as GlobalOptions;

/** login, logout, auth status|token, profiles list|use|remove, config get|set|list. */
export function registerAuthCommands(program: Command, ctx: CliContext): void {
  registerLogin(program, ctx);
  registerAuth(program, ctx);
  registerProfiles(program, ctx);
  registerConfig(program, ctx);
}

/** login and logout. */
function registerLogin(program: Command, ctx: CliContext): void {
  program
    .command('login')
    .description('Check client credentials with the server and save them in a profile')
    .option('--client-id <id>', 'API client id (env CHAMBERCTL_CLIENT_ID)')
    .option('--client-secret <secret>', 'API client secret (env CHAMBERCTL_CLIENT_SECRET; visible to other users in `ps`, prefer --client-secret-stdin)')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .action(async (_opts, cmd: Command) => {
      const { runLogin } = await import('./login.js');
      await runLogin(globals(cmd), ctx);
    });

  program
    .command('logout')
    .description("Remove the profile's client secret and cached tokens")
    .option('--yes', 'do not ask first (required without a terminal when the profile holds a secret)')
    .action(async (opts: { yes?: boolean }, cmd: Command) => {
      const { runLogout } = await import('./logout.js');
      await runLogout({ ...globals(cmd), yes: opts.yes }, ctx);
    });
}

/** auth status and auth token. */
function registerAuth(program: Command, ctx: CliContext): void {
  const auth = program
    .command('auth')
    .description('Show the login state or print an access token');
  addJqOption(auth.command('status'), ctx)
    .description('Show the profile in use (base URL, client id, api-version, cached tokens; never secrets) and whether its server accepts its credentials')
    .option('--offline', 'the config file alone: do not ask the server')
    .action(async (opts: { offline?: boolean }, cmd: Command) => {
      const { runAuthStatus } = await import('./status.js');
      await runAuthStatus({ ...globals(cmd), offline: opts.offline }, ctx);
    });
  addJqOption(auth.command('token'), ctx)
    .description('Print an access token (cached while valid for over a minute, else a new one)')
    .action(async (_opts, cmd: Command) => {
      const { runAuthToken } = await import('./token.js');
      await runAuthToken(globals(cmd), ctx);
    });
}

/** profiles list|use|remove. */
function registerProfiles(program: Command, ctx: CliContext): void {
  const profiles = program
    .command('profiles')
    .description('List, select and remove config profiles');
  addJqOption(profiles.command('list'), ctx)
    .description('List the profiles; * marks the one commands use')
    .action(async (_opts, cmd: Command) => {
      const { runProfilesList } = await import('./profiles.js');
      await runProfilesList(globals(cmd), ctx);
    });
  profiles
    .command('use')
    .argument('<name>', 'profile name')
    .description('Make NAME the current profile (--profile and CHAMBERCTL_PROFILE still take precedence)')
    .action(async (name: string, _opts, cmd: Command) => {
      const { runProfilesUse } = await import('./profiles.js');
      await runProfilesUse(name, globals(cmd), ctx);
    });
  profiles
    .command('remove')
    .argument('<name>', 'profile name')
    .description('Delete profile NAME with its secret and cached tokens')
    .option('--yes', 'do not ask first (required without a terminal)')
    .action(async (name: string, opts: { yes?: boolean }, cmd: Command) => {
      const { runProfilesRemove } = await import('./profiles.js');
      await runProfilesRemove(name, { ...globals(cmd), yes: opts.yes }, ctx);
    });
}

/** config list|get|set. */
function registerConfig(program: Command, ctx: CliContext): void {
  const config = program
    .command('config')
    .description("Show or change a profile's settings without logging in again");
  addJqOption(config.command('list'), ctx)
    .description("Show every setting of the profile")
    .action(async (_opts, cmd: Command) => {
      const { runConfigList } = await import('./config.js');
      await runConfigList(globals(cmd), ctx);
    });
  addJqOption(config.command('get'), ctx)
    .argument('<key>', CONFIG_KEYS.map((k) => k.key).join(', '))
    .description('Print one setting of the profile')
    .action(async (key: string, _opts, cmd: Command) => {
      const { runConfigGet } = await import('./config.js');
      await runConfigGet(key, globals(cmd), ctx);
    });
  config
    .command('set')
    .argument('<key>', CONFIG_KEYS.filter((k) => k.settable).map((k) => k.key).join(', '))
    .argument('<value>', 'the new value')
    .option('--keep-secret', 'base-url of another origin: keep the saved secret (the same server under a new address)')
    .option('--yes', 'base-url: do not ask before removing cached tokens (required without a terminal)')
    .description('Change one setting of the profile; a base-url of another origin forgets the secret')
    .action(async (key: string, value: string, opts: { keepSecret?: boolean; yes?: boolean }, cmd: Command) => {
      const { runConfigSet } = await import('./config.js');
      await runConfigSet(key, value, { ...globals(cmd), ...opts }, ctx);
    });
}
