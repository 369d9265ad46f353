import { z } from 'zod';

/**
 * Every code an `/api` error carries, shared by the server (AppError) and the web app. Under
 * `/v1` the same errors travel in GIPHY's `{meta}` envelope, by status alone.
 */
export const apiErrorCodeSchema = z.enum([
  'bad_request',
  'unauthorized',
  'forbidden',
  /** A personal API token lacks the scope a call needs; the message names it (docs/security.md, "API tokens"). */
  'insufficient_scope',
  'not_found',
  'conflict',
  /** The request named a host this server does not answer for (docs/security.md, "Hosts"). */
  'misdirected',
  'payload_too_large',
  'range_not_satisfiable',
  'uri_too_long',
  'unsupported_media_type',
  'rate_limited',
  'internal',
  'not_implemented',
  'unavailable',
]);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** The HTTP status each error code is answered with. */
export const apiErrorStatusByCode = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  misdirected: 421,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const satisfies Record<ApiErrorCode, number>;
export type ApiErrorStatus = (typeof apiErrorStatusByCode)[ApiErrorCode];

/** Error body of every `/api/*` endpoint. */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  error: z.object({ code: apiErrorCodeSchema, message: z.string() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const clientConfigSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('local'),
    apiKey: z.string(),
    analyticsScriptUrl: z.string().nullable(),
    /** Subresource Integrity of that script (ANALYTICS_SCRIPT_INTEGRITY); absent: none. */
    analyticsScriptIntegrity: z.string().nullable().optional(),
    /** PUBLIC_LINKS: signed-out people see a shared public or unlisted item; absent: off. */
    publicLinks: z.boolean().optional(),
    /**
     * The server runs on loopback with the local sign-in: /admin tells a non-admin that
     * ADMIN_EMAILS makes them one. Absent: it says nothing of the kind.
     */
    canBecomeAdminLocally: z.boolean().optional(),
  }),
  z.object({
    source: z.literal('giphy'),
    apiKey: z.string(),
    apiUrl: z.string(),
    analyticsScriptUrl: z.string().nullable(),
    /** Subresource Integrity of that script (ANALYTICS_SCRIPT_INTEGRITY); absent: none. */
    analyticsScriptIntegrity: z.string().nullable().optional(),
  }),
]);
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** `GET /healthz`: the process answers. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** `GET /readyz`: the database answers; `catalog` says how far the starter catalog is. */
export const readyResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  catalog: z.enum(['off', 'seeding', 'ready', 'failed']),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

/** `GET /readyz` while the database does not answer (503). */
export const notReadyResponseSchema = z.object({
  status: z.literal('unavailable'),
  database: z.literal('unreachable'),
});
export type NotReadyResponse = z.infer<typeof notReadyResponseSchema>;
