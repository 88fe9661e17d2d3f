import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { parseTrustProxy } from '../../server/trust-proxy.js';
import { dbHelp } from '../shared/help-text.js';
import type { ServeOptions } from './serve.js';

function parseCacheSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 65536) throw usageError(`--cache-size must be a number of MiB from 2 to 65536, not "${value}"`);
  return Number(value);
}

/** An http(s) URL without query or fragment; a trailing slash is dropped. */
function parsePublicUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw usageError(`--public-url must be an http or https URL, not "${value}"`);
  }
  if (!/^https?:$/.test(u.protocol) || u.search || u.hash || u.username || u.password) {
    throw usageError(`--public-url must be an http or https URL without query, fragment or credentials, not "${value}"`);
  }
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

/** demo, none, or a snapshot file that exists (a typo of a kind is a usage error, not a missing file). */
function parseSeed(value: string): string {
  if (value === 'demo' || value === 'none' || (value !== '' && existsSync(value))) return value;
  throw usageError(`--seed must be demo, none, or the path of a snapshot file, not "${value}" (no such file)`);
}

function parsePoolSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw usageError(`--pool-size must be a number from 1 to 1000, not "${value}"`);
  return Number(value);
}

function parseHeaderTimeout(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 600) throw usageError(`--header-timeout must be a number of seconds from 1 to 600, not "${value}"`);
  return Number(value);
}

function parseMaxConnections(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) throw usageError(`--max-connections must be a number from 1 to 1000000, not "${value}"`);
  return Number(value);
}

function parseTrustProxyOption(value: string): ReturnType<typeof parseTrustProxy> {
  try {
    return parseTrustProxy(value);
  } catch (e) {
    throw usageError(`--trust-proxy must be true, false, a number of hops, or addresses and CIDR ranges separated by commas: ${(e as Error).message}`);
  }
}

function parseDrain(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 300) throw usageError(`--drain must be a number of seconds from 0 to 300, not "${value}"`);
  return Number(value);
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw usageError(`--port must be a number from 0 to 65535, not "${value}"`);
  return Number(value);
}

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('Run the Chamber Directory Service locally (v1 and v2) for offline work')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 8080)
    .option('--db <path>', dbHelp('the database', true))
    .option('--pool-size <n>', 'connections to PostgreSQL per instance, every one it opens (default 10)', parsePoolSize)
    .addOption(new Option('--pg-pooler <mode>', 'PostgreSQL is reached through a connection pooler in this mode (PgBouncer pool_mode): no prepared statement or setting is kept per session').choices(['transaction']))
    .option('--drain <seconds>', 'on SIGTERM, answer readiness (/healthz) 503 for this long while still serving, so that a load balancer stops sending first (default: 8 when /healthz was probed in the last minute, else 0)', parseDrain)
    .option('--cache-size <MiB>', "SQLite's page cache and memory map, each at most this size (default: 64 MiB cache, 1 GiB map)", parseCacheSize)
    .option('--public-url <url>', 'the URL clients use (e.g. behind a load balancer), named in the OAuth metadata and OpenAPI documents', parsePublicUrl)
    .option('--header-timeout <seconds>', "how long a connection may take to send a request's headers, then 408 and closed (default 10)", parseHeaderTimeout)
    .option('--max-connections <n>', 'connections open at once; past this many, new ones are closed unanswered (default 1000)', parseMaxConnections)
    .option('--trust-proxy <value>', "whose X-Forwarded-For names the client in logs and audit records: true (any peer), a number of proxy hops, or the proxies' addresses and CIDR ranges, comma-separated (default: none, the peer's address)", parseTrustProxyOption)
    .addOption(new Option('--seed <kind>', 'what a new database starts with: demo (data), none, or the path of a snapshot file').argParser(parseSeed).default('demo'))
    .addOption(
      new Option('--seed-size <size>', 'size of the demo data (large: 100k chambers, 1M members, for benchmarks)')
        .choices(['standard', 'large'])
        .default('standard'),
    )
    .option('--client-id <id>', 'this API client: registered (scope write) if new, else its secret must be the one it has')
    .option('--client-secret-file <file>', 'read the secret of --client-id from the first line of this file (or set CHAMBERCTL_CLIENT_SECRET)')
    .option('--client-secret <secret>', 'the secret of --client-id on the command line, where `ps` shows it: prefer the two above')
    .option('--metrics', 'serve GET /metrics in the Prometheus text format (request durations, pool, token failures)')
    .option('--quiet', 'log failures only, not a line per request')
    .addOption(
      new Option('--log-format <format>', 'log lines as JSON (for a log shipper) or readable text (default: text on a terminal, else json)').choices([
        'json',
        'text',
      ]),
    )
    .option('--overwrite-profile', "take over the profile (--profile, default local) even if it belongs to another server's database")
    .action(async (opts: ServeOptions, cmd: Command) => {
      const { runServe } = await import('./serve.js');
      await runServe(opts, ctx, cmd.optsWithGlobals());
    });
}
