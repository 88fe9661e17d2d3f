import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { examples, TEAM_DB_HELP } from '../shared/help-text.js';
import { addJsonFields } from '../shared/json-fields.js';
import { AUDIT_FIELDS } from './fields.js';
import type { AuditOptions } from './audit.js';

/** `audit` (README, "Team access"): the server's record of accepted writes and client changes. */
export function registerAuditCommand(program: Command, ctx: CliContext): void {
  addJsonFields(program.command('audit'), AUDIT_FIELDS, 'an audit record')
    .description("Show serve's record of accepted writes and client changes, newest first")
    .option('--since <time>', 'records at or after this ISO 8601 date or date-time, or this long ago: 90s, 15m, 24h, 7d (default: all)')
    .option('--client <client-id>', 'only the writes this client made over HTTP')
    .option('--limit <n>', 'at most this many records, 1 to 10000 (default 100)')
    .option('--db <path>', TEAM_DB_HELP)
    .addHelpText(
      'after',
      examples([
        'chamberctl audit --db "$DB"                              # the last 100 records',
        'chamberctl audit --since 24h --client alice --db "$DB"',
        'chamberctl audit --since 2026-11-01 --limit 10000 --json --db "$DB" | jq -r \'.[] | select(.action == "member.add") | .target\'',
      ]) +
        `
Actions: chamber.create and member.add (made over HTTP: client_id, address and request_id
of the request; target the new record's id), client.add, client.scope, client.rotate and
client.revoke (made by chamberctl clients or serve --client-id: client_id null, target the
client's id, operator the user@host who made it, detail the scope set or the grace of a
rotation). Exit status 4 when --client names no client.
`,
    )
    .action(async (opts: AuditOptions, cmd: Command) => {
      const { runAudit } = await import('./audit.js');
      await runAudit(opts, cmd.optsWithGlobals<GlobalOptions>(), ctx);
    });
}
