import { resolve } from 'node:path';
import type { RunningServer } from '../../server/start.js';

/** The database in words, so a typo cannot pass for another backend: `SQLite file /abs/dir.db`, `PostgreSQL database dir on host:5432`. */
export function databaseInWords(store: Pick<RunningServer['store'], 'backend' | 'location'>): string {
  if (store.backend === 'postgres') {
    try {
      const url = new URL(store.location);
      const name = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres';
      return `PostgreSQL database ${name} on ${url.hostname || 'localhost'}:${url.port || '5432'}${url.username ? ` as ${decodeURIComponent(url.username)}` : ''}`;
    } catch {
      return `PostgreSQL database ${store.location}`;
    }
  }
  if (store.location === ':memory:') return 'SQLite in memory (:memory:, gone when serve stops)';
  return `SQLite file ${resolve(store.location)}`;
}

/**
 * What serve prints on stdout once it serves: its URLs and database, and a new client's id and
 * secret (shown this once) or, off a terminal, the file that holds the secret
 * (client-secret.ts), as readable lines or one JSON object (--json). One write, so a reader
 * that waits for the URL also has the credentials.
 */
export function startBanner(server: Pick<RunningServer, 'baseUrl' | 'generatedClient' | 'store'>, json: boolean, secret: { shown: true } | { shown: false; file?: string } = { shown: true }): string {
  const secretFile = secret.shown ? undefined : (secret.file ?? 'none (it could not be written; see the log)');
  const base = server.baseUrl;
  const generated = server.generatedClient;
  if (json) {
    return `${JSON.stringify({
      base_url: base,
      v1: `${base}/v1`,
      v2: `${base}/v2`,
      docs: `${base}/docs`,
      database: server.store.location,
      ...(generated && {
        client_id: generated.clientId,
        ...(secret.shown ? { client_secret: generated.clientSecret } : secret.file !== undefined && { client_secret_file: secret.file }),
      }),
    })}\n`;
  }
  return (
    `Chamber Directory Service listening on ${base}\n  v1: ${base}/v1\n  v2: ${base}/v2\n  API reference: ${base}/docs\n  database: ${databaseInWords(server.store)}\n` +
    (generated && secretFile
      ? `A new API client was created; its secret is in a file only you can read (stdout is not a terminal):\n` +
        `  client id:          ${generated.clientId}\n  client secret file: ${secretFile}\n`
      : generated
      ? `A new API client was created; its secret is shown only this once:\n` +
        `  client id:     ${generated.clientId}\n  client secret: ${generated.clientSecret}\n`
      : '')
  );
}
