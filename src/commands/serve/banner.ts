import type { RunningServer } from '../../server/start.js';

/**
 * What serve prints on stdout once it serves: its URLs and database, and a new client's id and
 * secret (shown this once), as readable lines or one JSON object (--json). One write, so a
 * reader that waits for the URL also has the credentials.
 */
export function startBanner(server: Pick<RunningServer, 'baseUrl' | 'generatedClient' | 'store'>, json: boolean): string {
  const base = server.baseUrl;
  const generated = server.generatedClient;
  if (json) {
    return `${JSON.stringify({
      base_url: base,
      v1: `${base}/v1`,
      v2: `${base}/v2`,
      docs: `${base}/docs`,
      database: server.store.location,
      ...(generated && { client_id: generated.clientId, client_secret: generated.clientSecret }),
    })}\n`;
  }
  return (
    `Chamber Directory Service listening on ${base}\n  v1: ${base}/v1\n  v2: ${base}/v2\n  API reference: ${base}/docs\n  database: ${server.store.location}\n` +
    (generated
      ? `A new API client was created; its secret is shown only this once:\n` +
        `  client id:     ${generated.clientId}\n  client secret: ${generated.clientSecret}\n`
      : '')
  );
}
