import { checkServeAnswer } from './conformance.js';
import { noteSecret } from './run-logs.js';

/**
 * A small fetch wrapper for server tests: returns status, headers and parsed JSON. An answer
 * of a `serve` process the tests started must conform to its OpenAPI document (else it throws).
 */
export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  // what the server's log must never show (test/helpers/run-logs.ts)
  noteSecret(opts.token);
  noteSecret((opts.body as { client_secret?: unknown } | undefined)?.client_secret);
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  checkServeAnswer(baseUrl, { method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  noteSecret((parsed as { access_token?: unknown } | undefined)?.access_token);
  return { status: res.status, headers: res.headers, body: parsed, text };
}
