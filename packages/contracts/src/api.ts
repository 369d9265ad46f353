import { z } from 'zod';

/** Error body of every `/api/*` endpoint. */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const clientConfigSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('local'),
    apiKey: z.string(),
    analyticsScriptUrl: z.string().nullable(),
  }),
  z.object({
    source: z.literal('giphy'),
    apiKey: z.string(),
    apiUrl: z.string(),
    analyticsScriptUrl: z.string().nullable(),
  }),
]);
export type ClientConfig = z.infer<typeof clientConfigSchema>;
