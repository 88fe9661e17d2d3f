import * as z from 'zod/mini';

/** GET /healthz while the database answers within 2 s. */
export const HealthOk = z.object({ status: z.literal('ok'), database: z.literal('ok') });
/** GET /healthz when it does not (503). */
export const HealthUnavailable = z.object({ status: z.literal('unavailable'), error: z.string() });
/** GET /livez: the process runs. */
export const LiveOk = z.object({ status: z.literal('ok') });
export type HealthOk = z.infer<typeof HealthOk>;
export type HealthUnavailable = z.infer<typeof HealthUnavailable>;
