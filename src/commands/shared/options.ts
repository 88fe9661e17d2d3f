// Shared by the resource commands (chambers, members, events): checking option values with
// the contract's schemas before anything is sent, and running the work inside a session.
import type * as z from 'zod/mini';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import { PageParam, PerPageParam, parseWith } from '../../contract/index.js';
import type { Session } from '../../client/types.js';
import type { Paging } from '../../output/paged-list.js';
import type { Output } from '../../output/output.js';

/**
 * Parses one option value with a contract schema (the same words the server would use);
 * a failure is a usage error (exit 2) naming the option: `--page must be a positive integer, not "abc"`.
 */
export function optionValue<S extends z.ZodMiniType>(flag: string, schema: S, raw: string): z.output<S> {
  const r = parseWith(schema, raw);
  if (r.ok) return r.value;
  const message = Object.values(r.fields).flat()[0] ?? 'is not valid';
  throw usageError(`${flag} ${message}, not "${raw}"`);
}

export { checkJsonFields } from './json-fields.js';

/** Like `optionValue`, for an option that may be absent. */
export function optionalValue<S extends z.ZodMiniType>(flag: string, schema: S, raw: string | undefined): z.output<S> | undefined {
  return raw === undefined ? undefined : optionValue(flag, schema, raw);
}

export interface PagingOptions {
  page?: string;
  perPage?: string;
  all?: boolean;
}

/** --page, --per-page and --all (which walks every page from the first). */
export function pagingOptions(opts: PagingOptions): Paging {
  if (opts.all && opts.page !== undefined) throw usageError('--page and --all cannot be used together');
  const perPage = optionalValue('--per-page', PerPageParam, opts.perPage);
  return {
    page: optionalValue('--page', PageParam, opts.page) ?? 1,
    ...(perPage === undefined ? {} : { perPage }),
    all: Boolean(opts.all),
  };
}

/**
 * The query of a list from its filter and sort options (`filter[NAME]=VALUE`, `sort=-FIELD`),
 * and which options were given, for the version choice (filters and sort are v2's).
 */
export class ListQuery {
  readonly query: Record<string, string> = {};
  readonly v2Features: string[] = [];

  /** `flag`'s value as `filter[name]`, when given. */
  filter(flag: string, name: string, value: string | undefined): this {
    if (value) {
      this.query[`filter[${name}]`] = value;
      this.v2Features.push(flag);
    }
    return this;
  }

  /** --sort's value (a field, descending or not), when given. */
  sort(value: { field: string; desc: boolean } | undefined): this {
    if (value) {
      this.query.sort = `${value.desc ? '-' : ''}${value.field}`;
      this.v2Features.push('--sort');
    }
    return this;
  }
}

/** The wire parameters of a page request. */
export function pageQuery(page: number, perPage: number | undefined): Record<string, string> {
  return perPage === undefined ? { page: String(page) } : { page: String(page), per_page: String(perPage) };
}

/**
 * Checks a create/add body with the contract's schema before sending it: a failure is
 * "rejected data" (exit 5, like the server's 422) with one line per message, naming the
 * API field and the option that set it (`email (--email): must be a valid e-mail address`),
 * and nothing is sent.
 */
export function checkPayload<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  what: string,
  flagOf: Record<string, string>,
): z.output<S> {
  const r = parseWith(schema, body);
  if (r.ok) return r.value;
  const details = Object.entries(r.fields).flatMap(([field, messages]) =>
    messages.map((m) => (flagOf[field] ? `${field} (${flagOf[field]}): ${m}` : `${field}: ${m}`)),
  );
  throw new CliError(`${what} is not valid; nothing was sent`, ExitCode.REJECTED, details);
}

/**
 * What is wrong with the options that were given, before anyone is asked for the missing
 * ones: the body as far as it goes is checked with the contract, and only the messages
 * about fields whose option was given are kept (`field (--flag): message` lines, as
 * `checkPayload` writes them). `optionOf` maps an API field to its option key.
 */
export function checkGiven<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  opts: object,
  optionOf: Record<string, string>,
  flagOf: Record<string, string>,
): string[] {
  const r = parseWith(schema, body);
  if (r.ok) return [];
  const given = (field: string) => optionOf[field] !== undefined && (opts as Record<string, unknown>)[optionOf[field]!] !== undefined;
  return Object.entries(r.fields)
    .filter(([field]) => given(field))
    .flatMap(([field, messages]) => messages.map((m) => (flagOf[field] ? `${field} (${flagOf[field]}): ${m}` : `${field}: ${m}`)));
}

/**
 * Opens the profile's session (src/client/session.ts) for `work` and always closes it.
 * The client code is imported here, lazily, so `--help` never loads it.
 */
export async function withSession<T>(
  globals: GlobalOptions,
  ctx: CliContext,
  work: (session: Session) => Promise<T>,
  /** Its spinner says so when a request is retried (`retrying (2/4) after 503…`). */
  output?: Pick<Output, 'retrying'>,
): Promise<T> {
  const { openSession } = await import('../../client/session.js');
  const session = await openSession(globals, ctx, output ? { onRetry: (n) => output.retrying(n) } : {});
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

