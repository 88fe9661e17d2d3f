import type * as z from 'zod/mini';
import {
  Address,
  AuthServerMetadata,
  BearerErrorBody,
  InsufficientScopeBody,
  Chamber,
  ChamberCreate,
  ChamberGetQueryV2,
  ChamberRecord,
  ChambersQueryV2,
  ErrorBody,
  Event,
  EventsQueryV2,
  HealthOk,
  HealthUnavailable,
  LiveOk,
  IDEMPOTENCY_HEADER,
  IdempotencyKey,
  ListMeta,
  ListQueryV1,
  Member,
  MemberCreate,
  MembersQueryV2,
  StartingBody,
  TokenErrorBody,
  TokenRequest,
  TokenResponse,
  ValidationErrorBody,
  listEnvelope,
  type ApiVersion,
} from '../../contract/index.js';
import { queryParameters } from './parameters.js';
import { componentSchemas, toJsonSchema, type Json } from './schemas.js';
import { EXAMPLES, INFO_DESCRIPTION, QUERY_TEXTS, TAGS } from './texts.js';

// The OpenAPI 3.1 document of each version: parameters and bodies from the contract's zod
// schemas (what the server validates with), around them the hand-written parts: summaries,
// descriptions, the statuses and headers each operation answers with. Each version's
// document holds only what that version serves, and only the components its operations use.

const ChamberList = listEnvelope(ChamberRecord);
const MemberList = listEnvelope(Member);
const EventList = listEnvelope(Event);

/** The component name of each schema a document may use, as returned (output) or sent (input). */
const OUTPUT_NAMES = new Map<z.core.$ZodType, string>([
  [Address, 'Address'],
  [ChamberRecord, 'Chamber'],
  [Chamber, 'ChamberWithIncludes'],
  [Member, 'Member'],
  [Event, 'Event'],
  [ListMeta, 'ListMeta'],
  [ChamberList, 'ChamberList'],
  [MemberList, 'MemberList'],
  [EventList, 'EventList'],
  [TokenResponse, 'TokenResponse'],
  [ErrorBody, 'Error'],
  [ValidationErrorBody, 'ValidationError'],
  [TokenErrorBody, 'TokenError'],
  [BearerErrorBody, 'BearerError'],
  [InsufficientScopeBody, 'InsufficientScopeError'],
  [HealthOk, 'Health'],
  [HealthUnavailable, 'HealthUnavailable'],
  [LiveOk, 'Live'],
  [StartingBody, 'StartingError'],
  [AuthServerMetadata, 'AuthServerMetadata'],
]);
const INPUT_NAMES = new Map<z.core.$ZodType, string>([
  [ChamberCreate, 'ChamberCreate'],
  [MemberCreate, 'MemberCreate'],
  [TokenRequest, 'TokenRequest'],
]);

const HEADERS: Record<string, Json> = {
  Location: { description: 'The path of the new resource.', required: true, schema: { type: 'string', format: 'uri-reference' } },
  IdempotentReplayed: {
    description: `Present when the answer is the stored answer to an earlier request with the same ${IDEMPOTENCY_HEADER}; nothing was created.`,
    schema: { type: 'string', enum: ['true'] },
  },
  WWWAuthenticateBearer: {
    description: 'RFC 6750: `Bearer realm="chamber-directory"`, with `error="invalid_token"` and `error_description` when a token was sent.',
    required: true,
    schema: { type: 'string' },
  },
  WWWAuthenticateScope: {
    description: 'RFC 6750 section 3.1: `Bearer error="insufficient_scope", scope="write"`.',
    required: true,
    schema: { type: 'string' },
  },
  WWWAuthenticateBasic: {
    description: 'When the client tried HTTP Basic: `Basic realm="chamber-directory"`.',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 0 } },
  CacheControl: { description: 'Token answers are never cached (RFC 6749 section 5.1).', required: true, schema: { type: 'string', enum: ['no-store'] } },
  Pragma: { required: true, schema: { type: 'string', enum: ['no-cache'] } },
};

const STARTING_ERROR = '"error": "starting"';
const STARTING_TEXT =
  'The server is starting: from the moment it listens until it is ready, every path but `GET /livez` answers 503 `{"error": "starting", ...}`; try again after `Retry-After` seconds.';

const RESPONSES: Record<string, Json> = {
  Unauthorized: {
    description: 'No bearer token, or one that is malformed, unknown, expired or issued by the other version.',
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticateBearer' } },
    content: json(ref('BearerError')),
  },
  Forbidden: {
    description: 'The token has the `read` scope only; this request needs `write`. Refused before the body is read: nothing was created.',
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticateScope' } },
    content: json(ref('InsufficientScopeError')),
  },
  Unavailable: {
    description: `The database is unavailable (a restart, a failover), the server is still starting (\`${STARTING_ERROR}\`) or is shutting down; try again after \`Retry-After\` seconds (another instance may answer).`,
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    content: json({ anyOf: [ref('Error'), ref('StartingError')] }),
  },
  Starting: {
    description: `${STARTING_TEXT} A server that is shutting down answers 503 with an \`error\` message of its own.`,
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    content: json({ anyOf: [ref('Error'), ref('StartingError')] }),
  },
  ChamberNotFound: { description: 'No chamber has this id.', content: json(ref('Error')) },
  TooLarge: { description: 'The body is larger than 1 MiB.', content: json(ref('Error')) },
  NotJson: { description: 'The body is not sent as `application/json` (or has no `Content-Type`); refused before it is read.', content: json(ref('Error')) },
};

function ref(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}
/** A JSON body of `schema`, with the component's example when it is exactly one. */
function json(schema: Json): Json {
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
  const example = name === undefined ? undefined : EXAMPLES[name];
  return { 'application/json': { schema, ...(example === undefined ? {} : { example }) } };
}
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
const oneOfBodies = (...names: string[]) => (names.length === 1 ? ref(names[0]!) : { anyOf: names.map(ref) });
const error = (description: string, ...names: string[]) => ({ description, content: json(oneOfBodies(...names)) });

const pathParameter = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const CHAMBER_ID = pathParameter('chamber_id', 'The chamber: an opaque id (`ch_…`).');

/** The OAuth scopes (docs/server-behaviour.md#tokens). */
const SCOPE_TEXTS = { read: 'Read chambers, members and events.', write: 'Create chambers and members; includes `read`.' };
const WRITE = [{ clientCredentials: ['write'] }];

const idempotencyKey = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to repeat: the same key from the same client with the same body, within 24 hours, gets the first answer again (with `Idempotent-Replayed: true`) and creates nothing; the same key with another body is a 422 naming the header. ' +
    'Choose a key per request you mean, such as `import-2026-03-01-row-17` for row 17 of an import: a new request needs a new key.',
  // no `example`: Swagger UI's "Try it out" would send that one key with every body
  schema: toJsonSchema(IdempotencyKey, 'input'),
};

const created = (what: string, schema: string) => ({
  description: `Created: the new ${what}.`,
  headers: {
    Location: { $ref: '#/components/headers/Location' },
    'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' },
  },
  content: json(ref(schema)),
});

const badPost = error(`The body is not a JSON object (or nests deeper than 32 levels), or the ${IDEMPOTENCY_HEADER} header is malformed (then \`fields\` names it).`, 'Error', 'ValidationError');

function paths(version: ApiVersion): Json {
  const v2 = version === 'v2';
  const badQuery = v2
    ? error('A query parameter is not valid; `fields` names each one (as sent, e.g. `filter[status]`).', 'ValidationError')
    : error('`page` or `per_page` is not valid.', 'Error');
  const list = (operationId: string, tag: string, summary: string, item: string, query: z.ZodMiniObject, chamberScoped: boolean) => ({
    operationId,
    tags: [tag],
    summary,
    description: `A page of the list, in its order (ties broken by \`id\`): walking the pages while nothing is written never repeats or skips an item.${v2 ? '' : ' v1 takes paging only and ignores every other parameter.'}`,
    parameters: [...(chamberScoped ? [CHAMBER_ID] : []), ...queryParameters(query, QUERY_TEXTS)],
    responses: {
      200: { description: 'A page of the list.', content: json(ref(`${item}List`)) },
      400: badQuery,
      401: response('Unauthorized'),
      ...(chamberScoped ? { 404: response('ChamberNotFound') } : {}),
      503: response('Unavailable'),
    },
  });

  const out: Json = {
    '/auth/token': {
      post: {
        operationId: 'issueToken',
        tags: ['Authentication'],
        summary: 'Issue an access token (client credentials grant)',
        description: `A bearer token for ${version}, valid for 3600 seconds, on ${version} only. The client authenticates either with \`client_id\` and \`client_secret\` in the body (\`client_secret_post\`) or by HTTP Basic (\`client_secret_basic\`: id and secret form-urlencoded, then Base64), not both. Past 30 failed authentications within a minute from one address (IPv6: one /64) or of one client, that address or client is answered 429.`,
        security: [{}, { clientSecretBasic: [] }],
        requestBody: {
          required: true,
          content: {
            ...json(ref('TokenRequest')),
            'application/x-www-form-urlencoded': { schema: ref('TokenRequest'), example: EXAMPLES.TokenRequest },
          },
        },
        responses: {
          200: {
            description: 'The token.',
            headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' }, Pragma: { $ref: '#/components/headers/Pragma' } },
            content: json(ref('TokenResponse')),
          },
          400: error('`invalid_request` (a parameter missing or repeated, credentials sent twice, a body that is not JSON or form data, or JSON nested deeper than 32 levels) or `unsupported_grant_type`.', 'TokenError'),
          401: {
            description: '`invalid_client`: the client authentication failed.',
            headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticateBasic' } },
            content: json(ref('TokenError')),
          },
          413: error('`invalid_request`: the body is larger than 4 KiB.', 'TokenError'),
          415: error('`invalid_request`: the body is neither `application/json` nor `application/x-www-form-urlencoded`; refused before it is read.', 'TokenError'),
          429: {
            description: '`temporarily_unavailable`: too many failed client authentications from this address, or of this client.',
            headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
            content: json(ref('TokenError')),
          },
          503: response('Unavailable'),
        },
      },
    },
    '/chambers': {
      get: list('listChambers', 'Chambers', 'List chambers', 'Chamber', v2 ? ChambersQueryV2 : ListQueryV1, false),
      ...(v2 && {
        post: {
          operationId: 'createChamber',
          tags: ['Chambers'],
          summary: 'Create a chamber',
          description: 'A new chamber starts `active`. A subsidiary names its HQ in `hq_id`, which must be an existing chamber of type `hq` (else 422 on `hq_id`).',
          security: WRITE,
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('ChamberCreate')) },
          responses: {
            201: created('chamber', 'Chamber'),
            400: badPost,
            401: response('Unauthorized'),
            403: response('Forbidden'),
            409: error(`A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry it.`, 'Error'),
            413: response('TooLarge'),
            415: response('NotJson'),
            422: error('The body breaks a rule: `fields` names every failing field (dotted, e.g. `address.city`), or the Idempotency-Key, used with another request.', 'ValidationError'),
            503: response('Unavailable'),
          },
        },
      }),
    },
    '/chambers/{id}': {
      get: {
        operationId: 'getChamber',
        tags: ['Chambers'],
        summary: 'Get a chamber',
        parameters: [pathParameter('id', 'The chamber: an opaque id (`ch_…`).'), ...(v2 ? queryParameters(ChamberGetQueryV2, QUERY_TEXTS) : [])],
        responses: {
          200: { description: 'The chamber.', content: json(ref(v2 ? 'ChamberWithIncludes' : 'Chamber')) },
          ...(v2 && { 400: error('`include` names something else than `members` and `events`.', 'ValidationError') }),
          401: response('Unauthorized'),
          404: response('ChamberNotFound'),
          503: response('Unavailable'),
        },
      },
    },
    '/chambers/{chamber_id}/members': {
      get: list('listMembers', 'Members', "List a chamber's members", 'Member', v2 ? MembersQueryV2 : ListQueryV1, true),
      ...(v2 && {
        post: {
          operationId: 'addMember',
          tags: ['Members'],
          summary: 'Add a member to a chamber',
          description: 'A new member starts `active`. An e-mail address may be a member of a chamber once, compared ignoring case (409).',
          security: WRITE,
          parameters: [CHAMBER_ID, idempotencyKey],
          requestBody: { required: true, content: json(ref('MemberCreate')) },
          responses: {
            201: created('member', 'Member'),
            400: badPost,
            401: response('Unauthorized'),
            403: response('Forbidden'),
            404: response('ChamberNotFound'),
            409: error(`The e-mail address is already a member of this chamber (\`fields.email\`), or a request with this ${IDEMPOTENCY_HEADER} is still in progress.`, 'ValidationError', 'Error'),
            413: response('TooLarge'),
            415: response('NotJson'),
            422: error('The body breaks a rule: `fields` names every failing field, or the Idempotency-Key, used with another request.', 'ValidationError'),
            503: response('Unavailable'),
          },
        },
      }),
    },
  };
  if (v2) {
    out['/chambers/{chamber_id}/members/{member_id}'] = {
      get: {
        operationId: 'getMember',
        tags: ['Members'],
        summary: 'Get a member of a chamber',
        description: 'Not in the interface document: the `Location` of a new member.',
        parameters: [CHAMBER_ID, pathParameter('member_id', 'The member: an opaque id (`mb_…`).')],
        responses: {
          200: { description: 'The member.', content: json(ref('Member')) },
          401: response('Unauthorized'),
          404: error('No such member in this chamber (or no such chamber).', 'Error'),
          503: response('Unavailable'),
        },
      },
    };
    out['/chambers/{chamber_id}/events'] = {
      get: list('listEvents', 'Events', "List a chamber's events", 'Event', EventsQueryV2, true),
    };
  }
  out['/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['Discovery'],
      summary: 'This OpenAPI document',
      description: `What ${version} of this server serves, and only that: OpenAPI 3.1, its schemas generated from those the server validates with.`,
      security: [],
      responses: {
        200: { description: 'The document.', content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } } },
        503: response('Starting'),
      },
    },
  };
  return out;
}

/** GET /.well-known/oauth-authorization-server/VERSION: RFC 8414 metadata, at the root. */
function authServerMetadataPath(version: ApiVersion, baseUrl: string): Json {
  return {
    servers: [{ url: baseUrl, description: 'The server itself, outside the versions' }],
    get: {
      operationId: 'getAuthServerMetadata',
      tags: ['Discovery'],
      summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
      description: `${version} is its own issuer (\`${baseUrl}/${version}\`): its token endpoint, the client credentials grant, and the two ways a client authenticates there.`,
      security: [],
      responses: {
        200: { description: 'The metadata.', content: json(ref('AuthServerMetadata')) },
        503: response('Starting'),
      },
    },
  };
}

/** GET /healthz, beside the versions: a path-level server at the root. */
function healthPath(baseUrl: string): Json {
  return systemPath(baseUrl, {
    operationId: 'getHealth',
    summary: 'Readiness: whether the database answers',
    description: 'For a load balancer: 200 while the database answers within 2 seconds, else 503 (out of rotation).',
    responses: {
      200: { description: 'Ready.', content: json(ref('Health')) },
      503: {
        description: `The database does not answer, the server is shutting down, or it is still starting (\`${STARTING_ERROR}\`).`,
        headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        content: json(oneOfBodies('HealthUnavailable', 'StartingError')),
      },
    },
  });
}

/** GET /livez, beside /healthz. */
function livePath(baseUrl: string): Json {
  return systemPath(baseUrl, {
    operationId: 'getLive',
    summary: 'Liveness: whether the process runs',
    description: 'For an orchestrator that restarts a stuck process: 200 while the process runs, whatever the database does (readiness is /healthz).',
    responses: { 200: { description: 'Alive.', content: json(ref('Live')) } },
  });
}

/** GET /metrics, beside /healthz: only in the documents of a `serve --metrics`. */
function metricsPath(baseUrl: string): Json {
  return systemPath(baseUrl, {
    operationId: 'getMetrics',
    summary: 'Metrics in the Prometheus text format',
    description:
      'Served, and in this document, only when the server runs with `serve --metrics`. Request durations (`http_request_duration_seconds` by method, route and status code), ' +
      "the database pool's open, idle and waiting connections, token failures by reason, and the process's own metrics. Unauthenticated: keep it on the operators' network.",
    responses: {
      200: { description: 'The metrics.', content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } } },
      503: response('Starting'),
    },
  });
}

/**
 * A GET of the server itself (health, liveness, metrics): at the server's root rather than
 * under a version, tagged Operations, without a token (its keys in the documents' order).
 */
function systemPath(baseUrl: string, { operationId, summary, description, responses }: { operationId: string; summary: string; description: string; responses: Json }): Json {
  return {
    servers: [{ url: baseUrl, description: 'The server itself, outside the versions' }],
    get: { operationId, tags: ['Operations'], summary, description, security: [], responses },
  };
}

/** The names a part of the document refers to (`#/components/KIND/NAME`). */
function refsIn(value: unknown, kind: string, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, kind, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const prefix = `#/components/${kind}/`;
      if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) found.add(v.slice(prefix.length));
      else refsIn(v, kind, found);
    }
  }
  return found;
}

/** Only the entries that `from` refers to, directly or through each other. */
function used(all: Record<string, Json>, kind: string, from: unknown): Record<string, Json> {
  const keep = new Set<string>();
  let next = [...refsIn(from, kind)];
  while (next.length) {
    const name = next.pop()!;
    if (keep.has(name)) continue;
    if (!all[name]) throw new Error(`the OpenAPI document refers to #/components/${kind}/${name}, which is not defined`);
    keep.add(name);
    next = [...next, ...refsIn(all[name], kind)];
  }
  return Object.fromEntries([...keep].sort().map((name) => [name, all[name]!]));
}

/** What a server instance serves beyond the interface: its document lists only that. */
export interface DocumentOptions {
  /** `serve --metrics`: GET /metrics is served, so documented. */
  metrics?: boolean;
}

function build(version: ApiVersion, baseUrl: string, opts: DocumentOptions): Json {
  const v2 = version === 'v2';
  const allPaths = {
    ...paths(version),
    '/healthz': healthPath(baseUrl),
    '/livez': livePath(baseUrl),
    ...(opts.metrics ? { '/metrics': metricsPath(baseUrl) } : {}),
    [`/.well-known/oauth-authorization-server/${version}`]: authServerMetadataPath(version, baseUrl),
  };
  const responses = used(RESPONSES, 'responses', allPaths);
  const headers = used(HEADERS, 'headers', [allPaths, responses]);
  const schemas = used(
    { ...componentSchemas(OUTPUT_NAMES, 'output'), ...componentSchemas(INPUT_NAMES, 'input') },
    'schemas',
    [allPaths, responses],
  );
  const tags = [...new Set(Object.values(allPaths).flatMap((p) => Object.values(p as Json).flatMap((op) => (op as { tags?: string[] }).tags ?? [])))];
  return {
    openapi: '3.1.0',
    info: {
      title: `Chamber Directory Service ${version}${v2 ? ' (beta)' : ''}`,
      version: v2 ? '2-beta' : '1',
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${baseUrl}/${version}`, description: `${version} of the embedded server` }],
    security: [{ clientCredentials: ['read'] }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    paths: allPaths,
    components: {
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          description: `A bearer token from \`POST /${version}/auth/token\` (client credentials grant), valid on ${version} only.`,
          flows: { clientCredentials: { tokenUrl: `${baseUrl}/${version}/auth/token`, scopes: SCOPE_TEXTS } },
        },
        clientSecretBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'The token endpoint\'s `client_secret_basic`: the client id and secret, each form-urlencoded, as HTTP Basic credentials (RFC 6749 section 2.3.1).',
        },
      },
      schemas,
      responses,
      headers,
    },
  };
}

const documents = new Map<string, Json>();

/**
 * The document of `version` for a server reached at `baseUrl` that serves what `opts` says
 * (built once, then kept).
 */
export function openApiDocument(version: ApiVersion, baseUrl: string, opts: DocumentOptions = {}): Json {
  const key = `${version} ${baseUrl} ${opts.metrics ? 'metrics' : ''}`;
  let doc = documents.get(key);
  if (!doc) {
    doc = build(version, baseUrl, opts);
    if (documents.size > 16) documents.clear();
    documents.set(key, doc);
  }
  return doc;
}
