import type { FastifyRequest } from 'fastify';

// bench:layers, the zod check of the query left out (in place of
// src/server/routes/query.ts's parseVersionQuery): the query read as the bench's URLs write
// it, with no check at all, into the shape the v2 schemas give (the same page for the same URL).
export function parseVersionQuery(request: FastifyRequest): Record<string, unknown> {
  const q = request.query as Record<string, string | undefined>;
  const day = (s: string | undefined, edge: string) => (s === undefined ? undefined : s.length === 10 ? `${s}T${edge}Z` : new Date(s).toISOString());
  return {
    page: Number(q.page ?? 1),
    per_page: Math.min(Number(q.per_page ?? 20), 100),
    'filter[type]': q['filter[type]'],
    'filter[status]': q['filter[status]'],
    sort: q.sort === undefined ? undefined : { field: q.sort.replace(/^-/, ''), desc: q.sort.startsWith('-') },
    'filter[date_from]': day(q['filter[date_from]'], '00:00:00.000'),
    'filter[date_to]': day(q['filter[date_to]'], '23:59:59.999'),
  };
}
