// The allowed values of the interface (the interface document, docs/server-behaviour.md#resources), as plain
// arrays: no zod here, so the CLI's --help, its choices and shell completion can read them
// without loading zod (test/e2e/output.test.ts checks what --help loads). enums.ts builds the
// server's zod enums from them, and the OpenAPI documents come from those enums: one list
// for the CLI, the server and the published documents (test/commands/register.test.ts).

export const CHAMBER_TYPES = ['hq', 'subsidiary'] as const;
export const CHAMBER_STATUSES = ['active', 'inactive', 'pending'] as const;
export const MEMBER_STATUSES = ['active', 'inactive', 'pending'] as const;
export const EVENT_STATUSES = ['upcoming', 'past', 'canceled'] as const;
export const MEMBERSHIP_TYPES = ['standard', 'premium', 'corporate', 'honorary'] as const;

/** Sortable fields of each list (a leading `-` sorts descending). Events have no sort. */
export const CHAMBER_SORT_FIELDS = ['name', 'created_at'] as const;
export const MEMBER_SORT_FIELDS = ['name', 'joined_at'] as const;

/** Each field ascending, then descending: `name`, `-name`, ... (the values `sort` takes). */
export function sortValues<const F extends string>(fields: readonly F[]): (F | `-${F}`)[] {
  return fields.flatMap((f) => [f, `-${f}` as const]);
}
export const CHAMBER_SORTS = sortValues(CHAMBER_SORT_FIELDS);
export const MEMBER_SORTS = sortValues(MEMBER_SORT_FIELDS);

/** Relations that `GET /v2/chambers/{id}?include=` can embed, comma-separated. */
export const CHAMBER_INCLUDES = ['members', 'events'] as const;

// The fields of the interface's objects (resources.ts), for `--json FIELDS`.
export const CHAMBER_FIELDS = ['id', 'name', 'type', 'status', 'hq_id', 'address', 'created_at'] as const;
export const MEMBER_FIELDS = ['id', 'chamber_id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at'] as const;
export const EVENT_FIELDS = ['id', 'chamber_id', 'title', 'status', 'starts_at', 'ends_at', 'location'] as const;

export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
