import { readFileSync } from 'node:fs';
import { CliError, ExitCode, usageError } from '../core/exit-codes.js';
import type { ApiVersion } from '../contract/index.js';
import { errorFromResponse } from './errors.js';
import type { HttpClient, HttpResponse } from './http.js';
import type { TokenProvider } from './tokens.js';
import { isLastPage } from './last-page.js';

// `chamberctl api PATH`: any endpoint with the profile's token, as `gh api` does. The
// request is built here from the command's flags; the answer is given back as it came.

export interface RawRequest {
  method: string;
  /** The version taken from the path, or the profile's. */
  version: ApiVersion;
  /** The path under the version, with its query (`/chambers?page=2`). */
  path: string;
  headers: Record<string, string>;
  /** JSON body (fields, or --input). */
  body?: unknown;
}

export interface RawRequestInput {
  path: string;
  method?: string;
  /** -f key=value: strings. */
  rawFields: string[];
  /** -F key=value: typed (true, false, null, numbers; @file reads a file, @- stdin). */
  typedFields: string[];
  /** --input: the JSON body, already read. */
  input?: string;
  headers: string[];
  /** The profile's api-version. */
  profileVersion: 'auto' | 'v1' | 'v2';
  /** --paginate: a GET unless -X says otherwise (fields are then the query). */
  paginate?: boolean;
  readStdin: () => string;
}

/** Builds the request from the flags; usage errors (exit 2) for what cannot be sent. */
export function buildRawRequest(o: RawRequestInput): RawRequest {
  let path = o.path.startsWith('/') ? o.path : `/${o.path}`;
  let version: ApiVersion = o.profileVersion === 'v1' ? 'v1' : 'v2';
  const m = /^\/(v1|v2)(\/.*|$)/.exec(path);
  if (m) {
    version = m[1] as ApiVersion;
    path = m[2] || '/';
  }
  const fields: [string, unknown][] = [
    ...o.rawFields.map((f) => splitField(f, '-f')).map(([k, v]) => [k, v] as [string, unknown]),
    ...o.typedFields.map((f) => splitField(f, '-F')).map(([k, v]) => [k, typedValue(v, o.readStdin)] as [string, unknown]),
  ];
  if (o.input !== undefined && fields.length) throw usageError('--input and -f/-F fields do not go together: the input is the whole body');
  // as gh api: GET, or POST once fields or a body are given (-X GET sends fields as the query)
  const method = (o.method ?? (!o.paginate && (fields.length || o.input !== undefined) ? 'POST' : 'GET')).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw usageError(`-X must be an HTTP method such as GET or POST, not "${o.method}"`);
  const headers: Record<string, string> = {};
  for (const h of o.headers) {
    const i = h.indexOf(':');
    if (i <= 0) throw usageError(`-H must be "Name: value", not "${h}"`);
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  if (headers.authorization) throw usageError('-H Authorization: the profile\'s token is sent; use --profile to choose another');

  let body: unknown;
  if (o.input !== undefined) {
    try {
      body = JSON.parse(o.input);
    } catch {
      throw usageError('--input is not JSON');
    }
  } else if (fields.length && method === 'GET') {
    // fields of a GET are its query, as gh api does
    const url = new URL(path, 'http://x');
    for (const [k, v] of fields) url.searchParams.append(k, v === null ? '' : String(v));
    path = `${url.pathname}${url.search}`;
  } else if (fields.length) {
    body = nest(fields);
  }
  return { method, version, path, headers, ...(body !== undefined ? { body } : {}) };
}

function splitField(field: string, flag: string): [string, string] {
  const i = field.indexOf('=');
  if (i <= 0) throw usageError(`${flag} must be key=value, not "${field}"`);
  return [field.slice(0, i), field.slice(i + 1)];
}

/** -F: true, false, null and numbers as JSON; @file the file's text (@- stdin); else a string. */
function typedValue(v: string, readStdin: () => string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v.startsWith('@')) {
    const file = v.slice(1);
    try {
      return file === '-' ? readStdin() : readFileSync(file, 'utf8');
    } catch (err) {
      throw usageError(`-F ${v}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return v;
}

/** `address[city]=Ghent` → `{address: {city: 'Ghent'}}`, as gh api nests keys. */
function nest(fields: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    const parts = key.split(/\[|\]\[|\]$/).filter((p, i) => p !== '' || i === 0);
    let at = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts[parts.length - 1]!] = value;
  }
  return out;
}

/** One request with the version's token (renewed on a 401 as every command does). */
export function sendRaw(http: HttpClient, tokens: Pick<TokenProvider, 'authorized'>, baseUrl: string, req: RawRequest): Promise<HttpResponse> {
  return tokens.authorized(req.version, (token) =>
    http.request({
      method: req.method,
      url: `${baseUrl}/${req.version}${req.path}`,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
      ...(req.body !== undefined ? { json: req.body } : {}),
    }),
  );
}

/**
 * --paginate: every page of a list, from `page` on, merged into one array of the items.
 * Stops at the first answer that is not a 2xx list envelope, and returns it.
 */
export async function sendPaginated(
  http: HttpClient,
  tokens: Pick<TokenProvider, 'authorized'>,
  baseUrl: string,
  req: RawRequest,
): Promise<{ items: unknown[]; last: HttpResponse; failed?: HttpResponse }> {
  if (req.method !== 'GET') throw usageError('--paginate goes with GET requests');
  const url = new URL(req.path, 'http://x');
  let page = Number(url.searchParams.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1) page = 1;
  if (!url.searchParams.has('per_page')) url.searchParams.set('per_page', '100');
  const items: unknown[] = [];
  for (;;) {
    url.searchParams.set('page', String(page));
    const res = await sendRaw(http, tokens, baseUrl, { ...req, path: `${url.pathname}${url.search}` });
    if (res.status < 200 || res.status >= 300) return { items, last: res, failed: res };
    const body = res.json as { data?: unknown; meta?: { total?: unknown; per_page?: unknown } } | undefined;
    if (!body || !Array.isArray(body.data)) {
      throw new CliError(`--paginate: ${req.path} did not answer a list ({data: [...], meta}); run it without --paginate`, ExitCode.USAGE);
    }
    items.push(...body.data);
    const total = Number(body.meta?.total);
    const perPage = Number(body.meta?.per_page) || body.data.length;
    if (!Number.isFinite(total) || isLastPage(page, body.data.length, { per_page: perPage, total })) return { items, last: res };
    page++;
  }
}

/** The exit code docs/manual/help-exit-codes.md gives an answer's status (0 for a 2xx). */
export const exitCodeFor = (res: HttpResponse): number => (res.status >= 200 && res.status < 300 ? ExitCode.OK : errorFromResponse(res).exitCode);
