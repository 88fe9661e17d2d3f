import { INCLUDE_LIMIT, PER_PAGE_DEFAULT, PER_PAGE_MAX, STARTING } from '../../contract/index.js';
import type { ParameterText } from './parameters.js';

// The hand-written parts of the OpenAPI documents: what the schemas cannot say.

export const INFO_DESCRIPTION = `The Chamber Directory Service, as \`chamberctl serve\` implements it: chambers
(HQs and their subsidiaries), their members and their events, over OAuth 2.0 client
credentials.

The parameter and body schemas are generated from the zod schemas the server validates
with. Text is trimmed before it is checked; rules that need the database (an \`hq_id\` that
names an HQ, an e-mail address not yet in the chamber) and text that is not well-formed
Unicode are checked by the server alone. Unknown query parameters and body fields are
ignored (an unknown \`filter[...]\` is a 400 on v2). Every error body is JSON.

While the server starts, from the moment it listens until it is ready, every path but
\`GET /livez\` (the documented ones, \`/docs\` and unknown paths alike) answers 503
\`{"error": "starting", "error_description": "..."}\` with \`Retry-After\`.`;

export const TAGS: Record<string, string> = {
  Authentication: 'OAuth 2.0 client credentials: a bearer token for this version.',
  Chambers: 'Chambers: HQs and their subsidiaries.',
  Members: "A chamber's members.",
  Events: "A chamber's events (read only).",
  Discovery: 'What this version serves: this document, and the OAuth 2.0 authorization server metadata (RFC 8414).',
  Operations: 'For load balancers and monitoring; outside the versioned API.',
};

export const QUERY_TEXTS: Record<string, ParameterText> = {
  page: { description: 'The page (1 is the first). A page past the last returns `data: []` with the true `meta.total`.' },
  per_page: {
    description: `Items per page, 1 to ${PER_PAGE_MAX}, default ${PER_PAGE_DEFAULT}. A value above ${PER_PAGE_MAX} is clamped to ${PER_PAGE_MAX}, however large; \`meta.per_page\` reports the value in effect.`,
  },
  'filter[type]': { description: 'Only chambers of this type.' },
  'filter[status]': { description: 'Only items in this status.' },
  sort: {
    description: 'The order of the list: a field, ascending, or descending with a leading `-`. Ties are broken by `id` (in the same direction). `name` sorts ignoring ASCII case. Without it, the oldest first.',
  },
  include: {
    description: `Relations to embed, comma-separated (\`members,events\`). Each embeds at most the first ${INCLUDE_LIMIT} items of its list, in the list's default order; use the list endpoints for more.`,
    example: ['members', 'events'],
  },
  'filter[date_from]': {
    description: 'Keeps the events that end on or after this date or date-time (a bare date: its first instant, UTC). Must not be after `filter[date_to]`; between the years 0000 and 9999 in UTC.',
    example: '2026-03-01',
  },
  'filter[date_to]': {
    description: 'Keeps the events that start on or before this date or date-time (a bare date: its last instant, UTC). Between the years 0000 and 9999 in UTC.',
    example: '2026-03-31',
  },
};

// Examples, by component name: shown wherever a body is exactly that schema (Redocly's lint
// checks each against its schema).
const address = { street: 'Meir 1', city: 'Antwerp', postal_code: '2000', country: 'BE' };
const chamber = {
  id: 'ch_ms2fLiZry7iy3IuE',
  name: 'Antwerp Business Chamber',
  type: 'hq',
  hq_id: null,
  status: 'active',
  address,
  created_at: '2025-06-02T09:14:07.512Z',
};
const member = {
  id: 'mb_ms3gQ2vN8cTzX1aB',
  chamber_id: 'ch_ms2fLiZry7iy3IuE',
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  phone: '+44 20 7946 0000',
  membership_type: 'premium',
  status: 'active',
  joined_at: '2026-03-01T10:00:00.000Z',
};
const event = {
  id: 'ev_ms4hR3wO9dUaY2bC',
  chamber_id: 'ch_ms2fLiZry7iy3IuE',
  title: 'Spring Networking Evening',
  status: 'upcoming',
  starts_at: '2026-03-05T18:00:00.000Z',
  ends_at: '2026-03-05T20:00:00.000Z',
  location: 'Town Hall',
};
const page = (item: unknown) => ({ data: [item], meta: { current_page: 1, total: 1, per_page: 20 } });

export const EXAMPLES: Record<string, unknown> = {
  Chamber: chamber,
  ChamberWithIncludes: { ...chamber, members: [member], events: [event] },
  Member: member,
  Event: event,
  ChamberList: page(chamber),
  MemberList: page(member),
  EventList: page(event),
  ChamberCreate: { name: 'Antwerp Business Chamber', type: 'hq', address: { street: 'Meir 1', city: 'Antwerp', postal_code: '2000', country: 'BE' } },
  MemberCreate: { name: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0000', membership_type: 'premium' },
  TokenRequest: { grant_type: 'client_credentials', client_id: 'cl4f8a2b9c0d1e2f3', client_secret: 'the secret' },
  TokenResponse: { access_token: 'mF_9.B5f-4.1JqM', token_type: 'Bearer', expires_in: 3600, scope: 'write' },
  ValidationError: { error: 'validation failed', fields: { email: ['must be a valid e-mail address'], 'address.country': ['must be an ISO 3166-1 alpha-2 country code, e.g. DE'] } },
  BearerError: { error: 'invalid_token', error_description: 'the access token has expired' },
  InsufficientScopeError: { error: 'insufficient_scope', error_description: 'this request needs the write scope; the token has read' },
  Health: { status: 'ok', database: 'ok' },
  HealthUnavailable: { status: 'unavailable', error: 'the database does not answer' },
  StartingError: STARTING,
};
