import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { seedDemo } from '../storage/seed/index.js';
import { randomAlphanumeric } from '../storage/ids.js';
import { Storage } from '../storage/storage.js';
import { buildApp } from './app.js';
import { hashSecret } from './auth/secrets.js';
import type { ServerDeps } from './deps.js';
import { WriteBatcher } from './write-batch.js';

export interface StartOptions {
  host: string;
  port: number;
  /** A file path or ':memory:'. */
  dbPath: string;
  seed: 'demo' | 'none';
  seedSize?: 'standard' | 'large';
  clientId?: string;
  clientSecret?: string;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  storage: Storage;
  stats: ServerDeps['stats'];
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  port: number;
  /** Set when a new database got a generated client: shown once, never stored in clear. */
  generatedClient?: { clientId: string; clientSecret: string };
  seeded?: { chambers: number; members: number; events: number };
  close(): Promise<void>;
}

/** Error with a message fit for the user (the serve command prints it as one line). */
export class StartError extends Error {}

export function openStorage(dbPath: string): Storage {
  try {
    if (dbPath !== ':memory:') {
      // The database holds personal data and the hashes of secrets: a new directory is
      // 0700 and a new file 0600 (SQLite gives its -wal and -shm files the same mode).
      mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
      closeSync(openSync(dbPath, 'a', 0o600));
    }
    return new Storage(dbPath);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartError(`cannot open the database ${dbPath}: ${describe(reason, err as Error)}`);
  }
}

function describe(code: string, err: Error): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
      return 'permission denied or not writable';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a path component is not a directory';
    case 'SQLITE_NOTADB':
      return 'the file is not a SQLite database';
    default:
      return err.message;
  }
}

/** Opens (and on first use seeds) the database, registers clients, and listens. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  const storage = openStorage(opts.dbPath);
  try {
    let seeded: RunningServer['seeded'];
    if (opts.seed === 'demo' && storage.isUnused()) {
      seeded = seedDemo(storage, { size: opts.seedSize ?? 'standard', now: now() });
    }
    let generatedClient: RunningServer['generatedClient'];
    if (opts.clientId && opts.clientSecret) {
      storage.putClient(opts.clientId, await hashSecret(opts.clientSecret), now());
    } else if (storage.clientCount() === 0) {
      generatedClient = { clientId: `cl${randomAlphanumeric(14)}`, clientSecret: randomAlphanumeric(40) };
      storage.putClient(generatedClient.clientId, await hashSecret(generatedClient.clientSecret), now());
    }

    storage.checkpointEvery(1000);
    const stats = { tokenRequests: 0 };
    const writes = new WriteBatcher((fn) => storage.transaction(fn));
    const app = buildApp({ storage, now, stats, writes, log: opts.log });
    let closing = false;
    // Requests still in flight when we stop get `Connection: close`, so their keep-alive
    // sockets end with the response instead of holding the process open.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (closing) reply.header('connection', 'close');
      return payload;
    });
    try {
      await app.listen({ host: opts.host, port: opts.port });
    } catch (err) {
      await app.close();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new StartError(`port ${opts.port} on ${opts.host} is already in use (try --port 0 for a free one)`);
      if (code === 'EACCES') throw new StartError(`not allowed to listen on ${opts.host}:${opts.port}`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new StartError(`cannot listen on ${opts.host}: no such local address`);
      throw err;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : opts.port;
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    return {
      app,
      storage,
      stats,
      baseUrl: `http://${host}:${port}`,
      port,
      generatedClient,
      seeded,
      async close() {
        if (closing) return;
        closing = true;
        await app.close(); // stops accepting, lets in-flight requests finish
        storage.close();
      },
    };
  } catch (err) {
    storage.close();
    throw err;
  }
}
