import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { startBanner } from './banner.js';
import { clientSecretOf, writeNewClientSecret } from './client-secret.js';
import { firstClientKeeper, logProfileSaved, pointProfileHere } from './profile.js';
import { serverLogger, startServer, StartStopped, type RunningServer } from '../../server/start.js';
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
  pgPooler?: 'transaction';
  /** Seconds of drain on SIGTERM; default DRAIN_DEFAULT_S while a balancer probes readiness. */
  drain?: number;
  publicUrl?: string;
  cacheSize?: number;
  /** Seconds. */
  headerTimeout?: number;
  maxConnections?: number;
  overwriteProfile?: boolean;
  trustProxy?: Parameters<typeof startServer>[0]['trustProxy']; // parsed by register.ts (server/trust-proxy.ts)
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

  const keeper = firstClientKeeper(ctx, { name: globals.profile, host: opts.host, overwrite: opts.overwriteProfile });
  let server: RunningServer;
  try {
    server = await startServer({
      host: opts.host,
      port: opts.port,
      dbPath,
      poolSize: opts.poolSize,
      pgPooler: opts.pgPooler,
      publicUrl: opts.publicUrl,
      cacheMiB: opts.cacheSize,
      connections: { headerTimeoutMs: opts.headerTimeout && opts.headerTimeout * 1000, maxConnections: opts.maxConnections },
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
      firstClientKeeper: keeper,
    });
  } catch (e) {
    off();
    if (e instanceof StartStopped) {
      log.info('stopped');
      return;
    }
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
    let phase: 'serving' | 'draining' | 'stopping' = 'serving';
    const stop = (signal: NodeJS.Signals) => {
      phase = 'stopping';
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
    onSignal = (signal) => {
      if (phase === 'stopping') {
        log.warn('%s again: stopping now, without waiting for requests in flight', signal);
        process.exit(130); // a second Ctrl-C does not wait
      }
      if (phase === 'draining') return stop(signal); // a second signal cuts the drain short
      const seconds = drainSeconds(signal, opts.drain, server.readinessProbedAt());
      if (seconds === 0) return stop(signal);
      phase = 'draining';
      log.info('%s: draining for %d s before stopping: readiness (/healthz) answers 503, requests are still served', signal, seconds);
      void server.drain(seconds * 1000).then(() => phase === 'draining' && stop(signal));
    };
  });

  const base = server.baseUrl;
  const generated = server.generatedClient;
  let secretFile: string | undefined;
  if (generated && ctx.stdout.isTTY !== true) {
    try {
      secretFile = await writeNewClientSecret(generated, ctx.env);
    } catch (e) {
      log.warn('could not write the new client\'s secret to a file (%s): it is shown nowhere; `chamberctl clients rotate %s --db %s` gives it a new one', (e as Error).message, generated.clientId, server.store.location);
    }
  }
  ctx.stdout.write(startBanner(server, globals.json === true, generated && ctx.stdout.isTTY !== true ? { shown: false, file: secretFile } : { shown: true }));
  // the line Fastify's listen() would log; serve's port is bound before the app (bound-address.ts)
  log.info('Server listening at %s', base);
  if (server.seeded) {
    log.info(`seeded ${opts.seed === 'demo' ? 'demo data' : `from ${opts.seed}`}: ${server.seeded.chambers} chambers, ${server.seeded.members} members, ${server.seeded.events} events`);
  }

  // Point this server's profile (`local` unless --profile) at it, so the next command just
  // works. Not awaited: Ctrl-C is handled from the moment the server listens.
  const known = generated ?? (opts.clientId ? { clientId: opts.clientId, clientSecret } : {});
  if (generated && keeper.saved) logProfileSaved(keeper.saved, log); // saved with the new client, before the database had it
  else profileSaved = pointProfileHere(ctx, server, log, { name: globals.profile, host: opts.host, overwrite: opts.overwriteProfile, ...known });

  await stopped;
  // Stopped: exit 0 now even if a socket to a database that went silent is still open (its
  // close is bounded, not awaited to the end). Unref'd: a clean stop exits before it fires.
  setTimeout(() => process.exit(0), EXIT_AFTER_STOP_MS).unref();
}

/**
 * The drain before a stop on SIGTERM (docs/operations/shared-deployment.md#rolling-restarts):
 * long enough for a load balancer to see readiness fail and stop sending (HAProxy's defaults,
 * three failed checks 2 s apart, take 6 s), and only where one watches readiness: a serve
 * whose /healthz was probed in the last minute. A serve nothing probes, and Ctrl-C (SIGINT,
 * a person at the terminal), stop at once; --drain sets it for SIGTERM whatever probes.
 */
export const DRAIN_DEFAULT_S = 8;
const PROBED_RECENTLY_MS = 60_000;
function drainSeconds(signal: NodeJS.Signals, option: number | undefined, probedAt: number | undefined): number {
  if (signal !== 'SIGTERM') return 0;
  if (option !== undefined) return option;
  return probedAt !== undefined && performance.now() - probedAt < PROBED_RECENTLY_MS ? DRAIN_DEFAULT_S : 0;
}

/**
 * serve exits within 12 s of SIGTERM (docs/server-behaviour.md#shutdown): 10 s for requests in
 * flight, 1.5 s for the pool, this.
 */
const EXIT_AFTER_STOP_MS = 300;
/** A signal during start: the start stops at its next step, or the process exits this long after. */
const START_STOP_BOUND_MS = 10_000;
