import { z } from 'zod';

export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  picture: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const meResponseSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), user: sessionUserSchema }),
  z.object({ success: z.literal(false), user: z.null() }),
]);
export type MeResponse = z.infer<typeof meResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** Codes the callback puts in `/landing?error=<code>`; the landing page explains each. */
export const signInErrorCodeSchema = z.enum([
  'state_mismatch',
  'flow_expired',
  'provider_error',
  'token_invalid',
  'email_unverified',
  'not_allowed',
  'rate_limited',
  'server_error',
]);
export type SignInErrorCode = z.infer<typeof signInErrorCodeSchema>;
