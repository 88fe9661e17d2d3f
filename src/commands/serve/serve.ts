import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import { readFile } from 'node:fs/promises';
import { serverLogger, startServer, StartError, StartStopped, type RunningServer } from '../../server/start.js';
import { SnapshotError } from '../../snapshot/format.js';
import { resolveDb } from '../../config/paths.js';
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
  clientSecretFile?: string;
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

/**
 * The secret of --client-id, from wherever it was given: --client-secret-file (its first
 * line), CHAMBERCTL_CLIENT_SECRET, or --client-secret (visible to every user of the host in
 * `ps`). Usage errors (exit 2) for a secret without an id and an id without a secret.
 */
async function clientSecretOf(opts: ServeOptions, env: CliContext['env']): Promise<string | undefined> {
  if (opts.clientSecret !== undefined && opts.clientSecretFile !== undefined) throw usageError('--client-secret and --client-secret-file: give one of them');
  let secret = opts.clientSecret;
  if (opts.clientSecretFile !== undefined) {
    let text: string;
    try {
      text = await readFile(opts.clientSecretFile, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw usageError(`cannot read --client-secret-file ${opts.clientSecretFile}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code}`);
    }
    secret = text.split(/\r?\n/)[0]!;
    if (secret === '') throw usageError(`--client-secret-file ${opts.clientSecretFile} is empty; its first line is the secret`);
  }
  if (secret === undefined && opts.clientId !== undefined) secret = env.CHAMBERCTL_CLIENT_SECRET || undefined;
  if (secret !== undefined && opts.clientId === undefined) throw usageError('--client-secret and --client-secret-file need --client-id');
  if (opts.clientId !== undefined && secret === undefined) {
    throw usageError('--client-id needs its secret: CHAMBERCTL_CLIENT_SECRET, --client-secret-file FILE, or --client-secret');
  }
  return secret;
}

export async function runServe(opts: ServeOptions, ctx: CliContext, globals: { json?: boolean; profile?: string } = {}): Promise<void> {
  const dbPath = resolveDb(opts.db, ctx.env);
  // the rule of `chamberctl clients`, so that every client can be rotated and revoked there
  if (opts.clientId !== undefined) parseClientId(opts.clientId, '--client-id');
  const clientSecret = await clientSecretOf(opts, ctx.env);
  const logging = {
    destination: ctx.stderr,
    format: opts.logFormat ?? (ctx.stderr.isTTY ? 'text' : 'json'),
    requests: !opts.quiet,
    colour: ctx.stderr.isTTY === true && ctx.env.NO_COLOR === undefined,
  } as const;
  const log = await serverLogger(logging);

  // Signals are handled from the first moment. During start, the first one stops the start
  // at its next step (each step is one transaction, so the database is left as if the start
  // had not happened or had finished it); START_STOP_BOUND_MS later the process exits anyway,
  // as a step that hangs (a silent database) must not keep it.
  const startStop = new AbortController();
  let onSignal = (signal: NodeJS.Signals) => {
    if (startStop.signal.aborted) {
      log.warn('%s again: stopping now', signal);
      process.exit(130);
    }
    log.info('%s during start: stopping', signal);
    startStop.abort();
    setTimeout(() => {
      log.warn('the start did not stop within %d s: exiting', START_STOP_BOUND_MS / 1000);
      process.exit(0);
    }, START_STOP_BOUND_MS).unref();
  };
  const off = ctx.onSignal((signal) => onSignal(signal));

  let server: RunningServer;
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
      clientSecret,
      now: ctx.now,
      metrics: opts.metrics,
      trustProxy: opts.trustProxy,
      logging,
      logger: log,
      signal: startStop.signal,
    });
  } catch (e) {
    off();
    if (e instanceof StartStopped) {
      log.info('stopped');
      return;
    }
    if (e instanceof StartError) throw new CliError(e.message, ExitCode.FAILURE);
    if (e instanceof SnapshotError) throw new CliError(`cannot seed from ${opts.seed}: ${e.message}; the database was left empty`, ExitCode.REJECTED);
    throw e;
  }
  if (server.oldSecretUntil) {
    log.warn(`--client-id ${opts.clientId} was given its secret from before the last rotation, which stops working at ${server.oldSecretUntil}`);
  }

  // From here on a signal stops the running server: a supervisor that stops it as soon as
  // it reads the URL gets a clean stop, not a kill.
  let profileSaved: Promise<void> = Promise.resolve();
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    onSignal = (signal) => {
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
    };
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
  // the line Fastify's listen() would log; serve's port is bound before the app (bound-address.ts)
  log.info('Server listening at %s', base);
  if (server.seeded) {
    log.info(`seeded ${opts.seed === 'demo' ? 'demo data' : `from ${opts.seed}`}: ${server.seeded.chambers} chambers, ${server.seeded.members} members, ${server.seeded.events} events`);
  }

  // Point this server's profile (`local` unless --profile) at it, so the next command just
  // works. Not awaited: Ctrl-C is handled from the moment the server listens.
  const saveProfile = async () => {
    try {
      const { saveServeProfile, LOCAL_PROFILE } = await import('../../config/local-profile.js');
      const { verifySecret } = await import('../../server/auth/secrets.js');
      const known = generated ?? (opts.clientId ? { clientId: opts.clientId, clientSecret } : {});
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

/**
 * serve exits within 12 s of SIGTERM (docs/server-behaviour.md#shutdown): 10 s for requests in
 * flight, 1.5 s for the pool, this.
 */
const EXIT_AFTER_STOP_MS = 300;
/** A signal during start: the start stops at its next step, or the process exits this long after. */
const START_STOP_BOUND_MS = 10_000;
