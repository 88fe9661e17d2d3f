import { Option, type Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { TEAM_DB_HELP } from '../shared/help-text.js';
import { addJsonFields } from '../shared/json-fields.js';
import { AUDIT_FIELDS } from './fields.js';
import type { AuditOptions } from './audit.js';

/** `audit` (docs/guides/team-access.md): the server's record of accepted writes and client changes. */
export function registerAuditCommand(program: Command, ctx: CliContext): void {
  addJsonFields(program.command('audit'), AUDIT_FIELDS, 'an audit record', ctx)
    .description("Show serve's record of accepted writes and client changes, newest first")
    .option('--since <time>', 'records at or after this ISO 8601 date or date-time, or this long ago: 90s, 15m, 24h, 7d (default: all)')
    .option('--client <client-id>', 'only the writes this client made over HTTP')
    .option('--target <id>', "only the records about this id: a client's changes (client.*), a chamber or member created")
    .option('--action <pattern>', 'only these actions: chamber.create, member.add, client.add, client.scope, client.rotate, client.revoke; * for any characters (client.*)')
    .addOption(
      new Option('--format <format>', 'table (on a terminal), tsv (piped), json (as --json) or csv (a header and RFC 4180 rows)').choices(['table', 'tsv', 'json', 'csv']),
    )
    .option('--limit <n>', 'at most this many records, 1 to 10000 (default 100)')
    .option('--db <path>', TEAM_DB_HELP)
    .action(async (opts: AuditOptions, cmd: Command) => {
      const { runAudit } = await import('./audit.js');
      await runAudit(opts, cmd.optsWithGlobals<GlobalOptions>(), ctx);
    });
}
