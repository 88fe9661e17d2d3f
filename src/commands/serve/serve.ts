import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { startServer, StartError } from '../../server/start.js';
import { SnapshotError } from '../../snapshot/format.js';
import { defaultDbPath } from '../../config/paths.js';
import { parseClientId } from '../../team/client-id.js';

export interface ServeOptions {
  host: string;
  port: number;
  db?: string;
  /** demo, none, or the path of a snapshot file. */
  seed: string;
  seedSize: 'standard' | 'large';
  clientId?: string;
  clientSecret?: string;
  quiet?: boolean;
  metrics?: boolean;
  /** json or text; default text on a terminal, json otherwise. */
  logFormat?: 'json' | 'text';
  poolSize?: number;
  publicUrl?: string;
  cacheSize?: number;
  overwriteProfile?: boolean;
  trustProxy?: Parameters<typeof startServer>[0]['trustProxy']; // parsed by register.ts (server/trust-proxy.ts)
}

/** A URL clients on this machine can use, even when listening on every interface. */
function clientBaseUrl(baseUrl: string, host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return baseUrl.replace(/\/\/[^/]+:/, '//127.0.0.1:');
  return baseUrl;
}

export async function runServe(opts: ServeOptions, ctx: CliContext, globals: { json?: boolean; profile?: string } = {}): Promise<void> {
  const dbPath = opts.db ?? defaultDbPath(ctx.env);
  // the rule of `chamberctl clients`, so that every client can be rotated and revoked there
  if (opts.clientId !== undefined) parseClientId(opts.clientId, '--client-id');
  let server;
  try {
    server = await startServer({
      host: opts.host,
      port: opts.port,
      dbPath,
      poolSize: opts.poolSize,
      publicUrl: opts.publicUrl,
      cacheMiB: opts.cacheSize,
      seed: opts.seed === 'demo' || opts.seed === 'none' ? opts.seed : { snapshot: opts.seed },
      seedSize: opts.seedSize,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret,
      now: ctx.now,
      metrics: opts.metrics,
      trustProxy: opts.trustProxy,
      logging: {
        destination: ctx.stderr,
        format: opts.logFormat ?? (ctx.stderr.isTTY ? 'text' : 'json'),
        requests: !opts.quiet,
        colour: ctx.stderr.isTTY === true && ctx.env.NO_COLOR === undefined,
      },
    });
  } catch (e) {
    if (e instanceof StartError) throw new CliError(e.message, ExitCode.FAILURE);
    if (e instanceof SnapshotError) throw new CliError(`cannot seed from ${opts.seed}: ${e.message}; the database was left empty`, ExitCode.REJECTED);
    throw e;
  }

  // From here on, what serve has to say goes to its log (JSON lines for a log shipper, or
  // readable text on a terminal), never as a second format on the same stream.
  const log = server.app.log;

  // Ctrl-C and SIGTERM are handled from before the first line is printed: a supervisor
  // that stops the server as soon as it reads the URL gets a clean stop, not a kill.
  let profileSaved: Promise<void> = Promise.resolve();
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const off = ctx.onSignal((signal) => {
      if (stopping) {
        log.warn('%s again: stopping now, without waiting for requests in flight', signal);
        process.exit(130); // a second Ctrl-C does not wait
      }
      stopping = true;
      log.info('%s: stopping; new requests get 503, requests in flight may finish (10 s at most)', signal);
      // the profile is written first (it reads the database); then the server stops
      profileSaved.then(() => server.close()).then(
        () => {
          log.info('stopped');
          off();
          resolve();
        },
        (e: Error) => {
          log.error('error while stopping: %s', e.message);
          off();
          resolve();
        },
      );
    });
  });

  const base = server.baseUrl;
  const generated = server.generatedClient;
  if (globals.json) {
    ctx.stdout.write(
      `${JSON.stringify({
        base_url: base,
        v1: `${base}/v1`,
        v2: `${base}/v2`,
        docs: `${base}/docs`,
        database: server.store.location,
        ...(generated && { client_id: generated.clientId, client_secret: generated.clientSecret }),
      })}\n`,
    );
  } else {
    // One write, so a reader that waits for the URL also has the credentials.
    ctx.stdout.write(
      `Chamber Directory Service listening on ${base}\n  v1: ${base}/v1\n  v2: ${base}/v2\n  API reference: ${base}/docs\n  database: ${server.store.location}\n` +
        (generated
          ? `A new API client was created; its secret is shown only this once:\n` +
            `  client id:     ${generated.clientId}\n  client secret: ${generated.clientSecret}\n`
          : ''),
    );
  }
  if (server.seeded) {
    log.info(`seeded ${opts.seed === 'demo' ? 'demo data' : `from ${opts.seed}`}: ${server.seeded.chambers} chambers, ${server.seeded.members} members, ${server.seeded.events} events`);
  }

  // Point this server's profile (`local` unless --profile) at it, so the next command just
  // works. Not awaited: Ctrl-C is handled from the moment the server listens.
  const saveProfile = async () => {
    try {
      const { saveServeProfile, LOCAL_PROFILE } = await import('../../config/local-profile.js');
      const { verifySecret } = await import('../../server/auth/secrets.js');
      const known = generated ?? (opts.clientId ? { clientId: opts.clientId, clientSecret: opts.clientSecret } : {});
      const saved = await saveServeProfile(ctx, {
        name: globals.profile ?? LOCAL_PROFILE,
        baseUrl: clientBaseUrl(base, opts.host),
        database: server.store.location,
        ...known,
        overwrite: opts.overwriteProfile,
        credentialsWork: async (id, secret) => {
          const auth = await server.store.clientAuth(id);
          return auth !== undefined && !auth.revokedAt && (await verifySecret(secret, auth.secretHash));
        },
        answers: (url) => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false),
      });
      if (saved.saved) {
        const moved = saved.tookOverFrom ? ` (it pointed at ${saved.tookOverFrom}, which no longer answers)` : '';
        log.info(`profile "${saved.profile}" points here${moved}${saved.madeCurrent ? ' and is now the current profile' : ` (use it with --profile ${saved.profile})`}`);
      }
      if (saved.warning) log.warn(saved.warning);
    } catch (e) {
      log.warn('could not update the profile: %s', (e as Error).message);
    }
  };
  profileSaved = saveProfile();

  await stopped;
  // Stopped: exit 0 now even if a socket to a database that went silent is still open (its
  // close is bounded, not awaited to the end). Unref'd: a clean stop exits before it fires.
  setTimeout(() => process.exit(0), EXIT_AFTER_STOP_MS).unref();
}

/** serve exits within 12 s of SIGTERM (decisions.md): 10 s for requests in flight, 1.5 s for the pool, this. */
const EXIT_AFTER_STOP_MS = 300;
