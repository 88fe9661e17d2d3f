import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { Session, WireQuery } from '../../client/types.js';
import { EventStatus, dateParam } from '../../contract/index.js';
import { eventView } from '../../output/columns.js';
import { withOutputDefault } from '../../config/defaults.js';
import { createOutput, type Output } from '../../output/output.js';
import { printList, type Paging } from '../../output/paged-list.js';
import { optionalValue, pageQuery, pagingOptions, withSession, type PagingOptions } from '../shared/options.js';

export interface EventsListOptions extends PagingOptions {
  status?: string;
  from?: string;
  to?: string;
}

export interface EventsListRequest {
  chamberId: string;
  query: WireQuery;
  paging: Paging;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

/**
 * --from/--to select the events that overlap the window (docs/server-behaviour.md#lists); a bare date means
 * the whole day, so `--from 2026-03-01 --to 2026-03-01` is that day. They are sent in UTC.
 */
export function parseEventsList(chamberId: string, opts: EventsListOptions, globals: Pick<GlobalOptions, 'apiVersion'>): EventsListRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  const query: WireQuery = {};
  const status = optionalValue('--status', EventStatus, opts.status);
  const from = optionalValue('--from', dateParam('start'), opts.from);
  const to = optionalValue('--to', dateParam('end'), opts.to);
  if (from && to && from > to) throw usageError(`--from (${opts.from}) must not be after --to (${opts.to})`);
  if (status) query['filter[status]'] = status;
  if (from) query['filter[date_from]'] = from;
  if (to) query['filter[date_to]'] = to;
  return { chamberId, query, paging: pagingOptions(opts), apiVersionFlag: globals.apiVersion };
}

/** GET /v2/chambers/{id}/events (v2 only, so a profile pinned to v1 cannot list events). */
export async function eventsList(req: EventsListRequest, session: Session, output: Output): Promise<void> {
  sessionVersion(session, ['events list'], req.apiVersionFlag);
  await printList(
    (page, perPage) => session.api.listEvents(req.chamberId, { ...req.query, ...pageQuery(page, perPage) }),
    req.paging,
    eventView,
    output,
  );
}

export async function runEventsList(chamberId: string, opts: EventsListOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const req = parseEventsList(chamberId, opts, globals);
  const output = await createOutput(withOutputDefault(globals, ctx), ctx);
  await withSession(globals, ctx, (session) => eventsList(req, session, output), output);
}
