import * as z from 'zod/mini';
import {
  Address,
  Chamber,
  ChamberCreate,
  ChamberGetQueryV2,
  ChambersQueryV2,
  ErrorBody,
  Event,
  EventsQueryV2,
  ListQueryV1,
  Member,
  MemberCreate,
  MembersQueryV2,
  OAuthErrorBody,
  TokenRequest,
  TokenResponse,
  ValidationErrorBody,
  listEnvelope,
  type ApiVersion,
} from '../contract/index.js';

// The OpenAPI 3.1 documents are generated from the contract's zod schemas, so the
// published description cannot drift from what the server validates.

type Json = Record<string, unknown>;

const schema = (s: z.ZodMiniType, io: 'input' | 'output' = 'output'): Json =>
  z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: Json) => ({ 'application/json': { schema: s } });
const error = (description: string, name = 'Error') => ({ description, content: json(ref(name)) });

function queryParameters(s: z.ZodMiniObject): Json[] {
  return Object.entries(s.shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: false,
    schema: schema(field as z.ZodMiniType, 'input'),
  }));
}

const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const documents = new Map<string, Json>();

export function openApiDocument(version: ApiVersion, baseUrl: string): Json {
  const key = `${version} ${baseUrl}`;
  let doc = documents.get(key);
  if (!doc) {
    doc = build(version, baseUrl);
    if (documents.size > 16) documents.clear();
    documents.set(key, doc);
  }
  return doc;
}

function build(version: ApiVersion, baseUrl: string): Json {
  const v2 = version === 'v2';
  const common401 = error('Missing, malformed, unknown or expired bearer token', 'OAuthError');
  const list = (item: string, params: Json[], summary: string) => ({
    get: {
      summary,
      parameters: params,
      responses: {
        200: { description: 'A page of items', content: json(ref(`${item}List`)) },
        400: error('Bad query parameter', v2 ? 'ValidationError' : 'Error'),
        401: common401,
        404: error('Chamber not found'),
      },
    },
  });
  const paths: Json = {
    '/auth/token': {
      post: {
        summary: 'Generate an access token (client credentials grant)',
        security: [],
        requestBody: {
          content: {
            ...json(ref('TokenRequest')),
            'application/x-www-form-urlencoded': { schema: ref('TokenRequest') },
          },
        },
        responses: {
          200: { description: 'Token issued', content: json(ref('TokenResponse')) },
          400: error('invalid_request or unsupported_grant_type', 'OAuthError'),
          401: error('invalid_client', 'OAuthError'),
        },
      },
    },
    '/chambers': {
      ...list(
        'Chamber',
        queryParameters(v2 ? ChambersQueryV2 : ListQueryV1),
        'List chambers',
      ),
      ...(v2 && {
        post: {
          summary: 'Create a chamber',
          requestBody: { required: true, content: json(ref('ChamberCreate')) },
          responses: {
            201: { description: 'Created; Location names the chamber', content: json(ref('Chamber')) },
            400: error('Body is not a JSON object'),
            401: common401,
            413: error('Body larger than 1 MiB'),
            422: error('Validation failed', 'ValidationError'),
          },
        },
      }),
    },
    '/chambers/{id}': {
      get: {
        summary: 'Get one chamber',
        parameters: [idParam('id'), ...(v2 ? queryParameters(ChamberGetQueryV2) : [])],
        responses: {
          200: { description: 'The chamber', content: json(ref('Chamber')) },
          ...(v2 && { 400: error('Bad include', 'ValidationError') }),
          401: common401,
          404: error('Chamber not found'),
        },
      },
    },
    '/chambers/{id}/members': {
      get: {
        ...list('Member', [idParam('id'), ...queryParameters(v2 ? MembersQueryV2 : ListQueryV1)], 'List members of a chamber').get,
      },
      ...(v2 && {
        post: {
          summary: 'Add a member to a chamber',
          parameters: [idParam('id')],
          requestBody: { required: true, content: json(ref('MemberCreate')) },
          responses: {
            201: { description: 'Created; Location names the member', content: json(ref('Member')) },
            400: error('Body is not a JSON object'),
            401: common401,
            404: error('Chamber not found'),
            409: error('E-mail already a member of this chamber', 'ValidationError'),
            413: error('Body larger than 1 MiB'),
            422: error('Validation failed', 'ValidationError'),
          },
        },
      }),
    },
  };
  if (v2) {
    paths['/chambers/{id}/members/{member_id}'] = {
      get: {
        summary: 'Get one member (the Location of a created member)',
        parameters: [idParam('id'), idParam('member_id')],
        responses: { 200: { description: 'The member', content: json(ref('Member')) }, 401: common401, 404: error('Not found') },
      },
    };
    paths['/chambers/{id}/events'] = list(
      'Event',
      [idParam('id'), ...queryParameters(EventsQueryV2)],
      'List events of a chamber',
    );
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chamber Directory Service',
      version: v2 ? '2 (beta)' : '1',
      description: 'Served by chamberctl serve. Generated from the shared zod contract.',
    },
    servers: [{ url: `${baseUrl}/${version}` }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        clientCredentials: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: `${baseUrl}/${version}/auth/token`, scopes: {} } },
        },
      },
      schemas: {
        Address: schema(Address),
        Chamber: schema(Chamber),
        Member: schema(Member),
        Event: schema(Event),
        ChamberList: schema(listEnvelope(Chamber)),
        MemberList: schema(listEnvelope(Member)),
        EventList: schema(listEnvelope(Event)),
        ChamberCreate: schema(ChamberCreate, 'input'),
        MemberCreate: schema(MemberCreate, 'input'),
        TokenRequest: schema(TokenRequest, 'input'),
        TokenResponse: schema(TokenResponse),
        Error: schema(ErrorBody),
        ValidationError: schema(ValidationErrorBody),
        OAuthError: schema(OAuthErrorBody),
      },
    },
  };
}

/** RFC 8414 metadata: each version is its own issuer. */
export function authServerMetadata(baseUrl: string, version: ApiVersion) {
  return {
    issuer: `${baseUrl}/${version}`,
    token_endpoint: `${baseUrl}/${version}/auth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}
