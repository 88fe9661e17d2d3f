// The project's own conformance test: every answer the tests receive from our server is
// checked against the OpenAPI document that server publishes (Ajv, JSON Schema 2020-12 as
// OpenAPI 3.1 has it). In-process servers (test/helpers/server.ts) are watched at the socket,
// so the CLI's requests in the end-to-end tests count too. A `serve` process
// (test/helpers/serve-process.ts) records every answer it gives (test/helpers/record-exchanges.mjs),
// checked when it ends against the documents it published; `call` also checks what it receives
// from one at once.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { openApiDocument, type DocumentOptions } from '../../src/server/openapi/document.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// ajv-formats is CommonJS with a default export
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Exchange {
  method: string;
  /** The request's path and query, as sent (`/v2/chambers?page=2`). */
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /**
   * An HTTP/1.1 request without Host: refused before any operation
   * (docs/server-behaviour.md#hostile-input).
   */
  withoutHost?: boolean;
  /** The body was longer than a recording keeps (record-exchanges.mjs): `body` is its start. */
  capped?: boolean;
  /** The whole body's length in bytes, when capped. */
  bodyBytes?: number;
}

/** The OpenAPI document of each version, as a server publishes it at /VERSION/openapi.json. */
export type Documents = Record<(typeof VERSIONS)[number], Json>;

/** A path with a malformed %-escape is the URL of no operation: the router refuses it first. */
const malformedPath = (path: string) => path.split('/').some((segment) => {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
});

const VERSIONS = ['v1', 'v2'] as const;

/** The documents this source generates for a server at `baseUrl` (with `--metrics` or not). */
export function generatedDocuments(baseUrl: string, opts: DocumentOptions = {}): Documents {
  return { v1: openApiDocument('v1', baseUrl, opts), v2: openApiDocument('v2', baseUrl, opts) };
}

/** Checks answers against the documents of one server (its base URL names them). */
export class Conformance {
  readonly problems: string[] = [];
  checked = 0;
  private readonly docs: Record<string, Json>;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  /**
   * `docs`: the documents the server published; by default those this source generates for
   * a server without `--metrics` (`generatedDocuments` for one with it).
   */
  constructor(baseUrl: string, docs?: Documents) {
    addFormats(this.ajv);
    this.docs = docs ?? generatedDocuments(baseUrl);
    for (const v of VERSIONS) this.ajv.addSchema({ $id: `https://openapi.test/${v}`, components: this.docs[v]!.components }, undefined, undefined, false);
  }

  /** Records what is wrong with `x`, if anything; returns the problem. */
  check(x: Exchange): string | undefined {
    this.checked++;
    const problem = this.problemOf(x);
    if (problem) this.problems.push(`${x.method} ${x.url} → ${x.status}: ${problem}`);
    return problem;
  }

  private problemOf(x: Exchange): string | undefined {
    const path = x.url.split('?')[0]!;
    const version = VERSIONS.find((v) => path === `/${v}` || path.startsWith(`/${v}/`));
    // outside the versions, a version's document holds its own RFC 8414 metadata path
    const docVersion = version ?? VERSIONS.find((v) => matches(`/.well-known/oauth-authorization-server/${v}`, path)) ?? 'v2';
    const doc = this.docs[docVersion]!;
    const opPath = version ? path.slice(version.length + 1) : path;
    const method = x.method === 'HEAD' ? 'get' : x.method.toLowerCase();
    const template = Object.keys(doc.paths).find((t) => matches(t, opPath) && (version !== undefined) === !doc.paths[t].servers);
    const outside = x.withoutHost || malformedPath(path);
    const operation = template && !outside ? doc.paths[template][method] : undefined;
    const type = String(x.headers['content-type'] ?? '');
    if (!operation) {
      // Not an operation of the document (an unknown path, a method a path does not serve,
      // /docs): an error is still the document's Error body; a 503 may also be the start-up
      // answer, which every path but /livez gives while the server starts (the info says so).
      if (x.status < 400) return undefined;
      if (!type.startsWith('application/json')) return `an error without a JSON body (${type || 'no Content-Type'})`;
      if (x.method === 'HEAD') return undefined; // no body to check
      const error = { $ref: '#/components/schemas/Error' };
      if (x.status === 503) return this.bodyProblem(docVersion, { anyOf: [error, { $ref: '#/components/schemas/StartingError' }] }, x, 'Error or StartingError');
      return this.bodyProblem(docVersion, error, x, 'Error');
    }
    const declared = operation.responses[String(x.status)] ?? operation.responses.default;
    if (!declared) return `status ${x.status} is not declared for ${operation.operationId}`;
    const res = resolve(doc, declared);
    for (const [name, header] of Object.entries<Json>(res.headers ?? {})) {
      const h = resolve(doc, header);
      const value = x.headers[name.toLowerCase()];
      if (h.required && value === undefined) return `the ${name} header is missing (${operation.operationId})`;
      if (value !== undefined && h.schema) {
        const typed = h.schema.type === 'integer' && /^\d+$/.test(String(value)) ? Number(value) : value;
        const p = this.schemaProblem(docVersion, h.schema, JSON.stringify(typed), `the ${name} header`);
        if (p) return p;
      }
    }
    if (!res.content) return x.body === '' ? undefined : `a body where ${operation.operationId} ${x.status} declares none`;
    if (x.method === 'HEAD') return undefined;
    const media = Object.keys(res.content);
    if (!media.includes('application/json')) {
      // a text answer (GET /metrics): its Content-Type is the one declared
      const essence = (t: string) => t.split(';')[0]!.trim().toLowerCase();
      return media.some((m) => essence(m) === essence(type)) ? undefined : `Content-Type ${type || '(none)'} where ${operation.operationId} answers ${media.join(', ')}`;
    }
    if (!type.startsWith('application/json')) return `Content-Type ${type || '(none)'} where ${operation.operationId} answers JSON`;
    return this.bodyProblem(docVersion, res.content['application/json'].schema, x, `${operation.operationId} ${x.status}`);
  }

  /** The answer's body against `schema`. A capped body is not a whole JSON value: never passed unchecked. */
  private bodyProblem(version: string, schema: Json, x: Exchange, what: string): string | undefined {
    if (x.capped) return `${what}: the body (${x.bodyBytes} bytes) is longer than record-exchanges.mjs keeps, so it could not be checked`;
    return this.schemaProblem(version, schema, x.body, what);
  }

  private schemaProblem(version: string, schema: Json, body: string, what: string): string | undefined {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return `${what}: the body is not JSON`;
    }
    // $refs inside `schema` are relative to the version's document (#/components/...)
    const key = `${version} ${JSON.stringify(schema)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema, `https://openapi.test/${version}`));
      this.compiled.set(key, validate);
    }
    if (validate(value)) return undefined;
    return `${what}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })} in ${body.slice(0, 300)}`;
  }
}

function matches(template: string, path: string): boolean {
  const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}/?$`);
  return re.test(path);
}

function resolve(doc: Json, x: Json): Json {
  let out = x;
  while (typeof out.$ref === 'string') {
    out = out.$ref
      .slice(2)
      .split('/')
      .reduce((o: Json, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return out;
}

function rewriteRefs(schema: unknown, base: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, base));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${base}${v}` : rewriteRefs(v, base)]),
  );
}

/**
 * Watches every answer of an in-process server at the socket (what the server wrote, as a
 * client reads it): status, headers and body go to `conformance.check`.
 */
export function watchAnswers(server: Server, conformance: Conformance): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const written: Record<string, string | string[] | number | undefined> = {};
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    const { write, end, writeHead } = res;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    let status: number | undefined; // as written: a later reply.code() would change res.statusCode
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      status ??= args[0] as number;
      const headers = args.find((a, i) => i > 0 && a && typeof a === 'object') as Record<string, string> | undefined;
      for (const [k, v] of Object.entries(headers ?? {})) written[k.toLowerCase()] = v;
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['writeHead'];
    res.on('finish', () => {
      conformance.check({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status: status ?? res.statusCode,
        headers: { ...lowerCased(res.getHeaders()), ...written },
        body: Buffer.concat(chunks).toString('utf8'),
        withoutHost: req.httpVersion === '1.1' && req.headers.host === undefined,
      });
    });
  });
}

const lowerCased = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v as string | string[] | number | undefined]));

/** The base URLs of `serve` processes the tests started: `call` checks their answers. */
const serveProcesses = new Map<string, Conformance>();

export function watchServeProcess(baseUrl: string, docs?: Documents): void {
  serveProcesses.set(baseUrl, new Conformance(baseUrl, docs));
}

/** Throws when the answer came from a watched `serve` process and does not conform. */
export function checkServeAnswer(baseUrl: string, x: Exchange): void {
  const conformance = serveProcesses.get(baseUrl);
  const problem = conformance?.check(x);
  if (problem) throw new Error(`the answer does not conform to the server's OpenAPI document: ${x.method} ${x.url} → ${x.status}: ${problem}`);
}

/**
 * Checks what a `serve` process recorded (record-exchanges.mjs: an exchange per line) and
 * returns the error to fail its test with when an answer does not conform. A last line
 * without its newline is a write the process was killed in the middle of: left out.
 */
export function checkRecordedExchanges(conformance: Conformance, recorded: string, what: string): Error | undefined {
  const lines = recorded.split('\n').slice(0, -1);
  for (const line of lines) conformance.check(JSON.parse(line) as Exchange);
  const { problems, checked } = conformance;
  if (problems.length === 0) return undefined;
  return new Error(`${problems.length} of ${checked} answers of ${what} do not conform to its OpenAPI document:\n${problems.slice(0, 20).join('\n')}`);
}
