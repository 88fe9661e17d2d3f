import { Option, type Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { examples, TEAM_DB_HELP } from '../shared/help-text.js';
import { addJsonFields } from '../shared/json-fields.js';
import { ADDED_FIELDS, CLIENT_FIELDS, EDITED_FIELDS, REVOKED_FIELDS, ROTATED_FIELDS } from './fields.js';
import type { ClientsOptions } from './clients.js';

/** `clients add|list|edit|rotate|revoke` (README, "Team access"): on the database itself, as `sync status` works. */
export function registerClientsCommands(program: Command, ctx: CliContext): void {
  const clients = program
    .command('clients')
    .description("Add, list, edit, rotate and revoke the API clients of serve's database")
    .addHelpText(
      'after',
      examples([
        'chamberctl clients add alice --scope write --db "$DB"   # prints alice\'s secret once',
        'chamberctl clients add reports --scope read --db "$DB"',
        'chamberctl clients list --db "$DB"',
        'chamberctl clients edit reports --scope write --db "$DB"',
        'chamberctl clients rotate alice --grace 15m --db "$DB"',
        'chamberctl clients revoke reports --db "$DB"',
      ]) +
        `
Whoever can open the database administers its clients: there is no HTTP endpoint for them.
A secret is printed once and stored only as a scrypt hash. CLIENT_ID is 1 to 64 characters
of A-Z a-z 0-9 . _ - @. Every change is recorded in the audit trail (chamberctl audit),
with who made it (user@host).
`,
    );
  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  addJsonFields(clients.command('add'), ADDED_FIELDS, 'a new client')
    .description('Register an API client and print its new secret, once')
    .argument('<client-id>', 'the new client\'s id (1 to 64 of A-Z a-z 0-9 . _ - @); never one used before')
    .addOption(new Option('--scope <scope>', 'read: GET only; write: also the v2 POSTs (includes read)').choices(CHOICES.clientScope).default('write'))
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText(
      'after',
      examples([
        'chamberctl clients add alice --db ~/dir.db                  # a write client',
        'chamberctl clients add reports --scope read --db "$DB"',
        'secret=$(chamberctl clients add ci --db "$DB" --json | jq -r .client_secret)',
      ]) + '\nExit status 5 when the id exists (revoked clients included): ids are never reused.\n',
    )
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsAdd } = await import('./clients.js');
      await runClientsAdd(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('list'), CLIENT_FIELDS, 'a client')
    .description('List the API clients: id, scope, created, last used, revoked, old secret\'s grace (never a secret)')
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText('after', examples(['chamberctl clients list --db ~/dir.db', "chamberctl clients list --db \"$DB\" --json | jq -r '.[] | select(.revoked_at == null) | .client_id'"]))
    .action(async (opts: ClientsOptions, cmd: Command) => {
      const { runClientsList } = await import('./clients.js');
      await runClientsList(opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('edit'), EDITED_FIELDS, 'an edited client')
    .description("Change a client's scope, on every instance within 1 s")
    .argument('<client-id>', 'the client')
    .addOption(new Option('--scope <scope>', 'read: GET only; write: also the v2 POSTs (includes read)').choices(CHOICES.clientScope).makeOptionMandatory())
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText(
      'after',
      examples([
        'chamberctl clients edit reports --scope read --db "$DB"   # its tokens stop writing within 1 s',
        'chamberctl clients edit ci --scope write --db "$DB"       # new tokens can write',
      ]) +
        `
read takes effect on the tokens already issued too; write on the tokens issued from then on
(a token issued as read stays read). The scope it has already changes nothing and records
nothing (exit 0). Exit status 4 for an unknown client, 5 for a revoked one.
`,
    )
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsEdit } = await import('./clients.js');
      await runClientsEdit(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('rotate'), ROTATED_FIELDS, 'a rotated client')
    .description('Give a client a new secret, printed once; the old one works for --grace more')
    .argument('<client-id>', 'the client')
    .option('--grace <duration>', 'how long the old secret (and tokens issued with it) keep working: 0, or e.g. 90s, 15m, 2h, 1d; at most 30d', '0')
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText(
      'after',
      examples([
        'chamberctl clients rotate alice --db "$DB"              # the old secret stops working at once',
        'chamberctl clients rotate alice --grace 15m --db "$DB"  # ...or in 15 minutes: time to deploy the new one',
      ]) + '\nExit status 4 for an unknown client, 5 for a revoked one (add a new client instead).\n',
    )
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsRotate } = await import('./clients.js');
      await runClientsRotate(id, opts, globals(cmd), ctx);
    });

  addJsonFields(clients.command('revoke'), REVOKED_FIELDS, 'a revoked client')
    .description('Revoke a client for good: its secret and every token issued to it stop working')
    .argument('<client-id>', 'the client')
    .option('--yes', 'revoke without asking (required without a terminal)')
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText(
      'after',
      examples(['chamberctl clients revoke reports --db "$DB"          # asks first', 'chamberctl clients revoke reports --yes --db "$DB"    # in a script']) +
        `
For good: a revoked client cannot be used, edited, rotated or added again. On a terminal it
asks first (the default answer is no: exit 1, nothing changed); without one it needs --yes
(exit 2 otherwise, nothing changed). Revoking it again changes nothing and exits 0 with the
time it was revoked. Exit status 4 for an unknown client.
`,
    )
    .action(async (id: string, opts: ClientsOptions, cmd: Command) => {
      const { runClientsRevoke } = await import('./clients.js');
      await runClientsRevoke(id, opts, globals(cmd), ctx);
    });
}
