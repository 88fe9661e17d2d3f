import { Option, type Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { TEAM_DB_HELP } from '../shared/help-text.js';
import { addJsonFields } from '../shared/json-fields.js';
import { ADDED_FIELDS, CLIENT_FIELDS, EDITED_FIELDS, REVOKED_FIELDS, ROTATED_FIELDS } from './fields.js';
import type { ClientsOptions } from './clients.js';

/** `clients add|list|edit|rotate|revoke` (docs/guides/team-access.md): on the database itself, as `sync status` works. */
export function registerClientsCommands(program: Command, ctx: CliContext): void {
  const clients = program
    .command('clients')
    .description("Add, list, edit, rotate and revoke the API clients of serve's database");
  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  addJsonFields(clients.command('add'), ADDED_FIELDS, 'a new client', ctx)
    .description('Register an API client and print its new secret, once')
    .argument('<client-id>', 'the new client\'s id (1 to 64 of A-Z a-z 0-9 . _ - @); never one used before')
    .addOption(new Option('--scope <scope>', 'read: GET only; write: also the v2 POSTs (includes read)').choices(CHOICES.clientScope).default('write'))
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsAdd } = await import('./clients.js');
      await runClientsAdd(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('list'), CLIENT_FIELDS, 'a client', ctx)
    .description('List the API clients: id, scope, created, last used, revoked, old secret\'s grace (never a secret)')
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (opts: ClientsOptions, cmd: Command) => {
      const { runClientsList } = await import('./clients.js');
      await runClientsList(opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('edit'), EDITED_FIELDS, 'an edited client', ctx)
    .description("Change a client's scope, on every instance within 1 s")
    .argument('<client-id>', 'the client')
    .addOption(new Option('--scope <scope>', 'read: GET only; write: also the v2 POSTs (includes read)').choices(CHOICES.clientScope).makeOptionMandatory())
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsEdit } = await import('./clients.js');
      await runClientsEdit(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('rotate'), ROTATED_FIELDS, 'a rotated client', ctx)
    .description('Give a client a new secret, printed once; the old one works for --grace more')
    .argument('<client-id>', 'the client')
    .option('--grace <duration>', 'how long the old secret (and tokens issued with it) keep working: 0, or e.g. 90s, 15m, 2h, 1d; at most 30d', '0')
    .option('--yes', 'with no grace: rotate without asking (required without a terminal)')
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsRotate } = await import('./clients.js');
      await runClientsRotate(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('revoke'), REVOKED_FIELDS, 'a revoked client', ctx)
    .description('Revoke a client for good: its secret and every token issued to it stop working')
    .argument('<client-id>', 'the client')
    .option('--yes', 'revoke without asking (required without a terminal)')
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsRevoke } = await import('./clients.js');
      await runClientsRevoke(id, opts, globals(cmd), ctx);
    });
}
