import { z } from 'zod';

export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  picture: z.string().nullable(),
  /** An admin (ADMIN_EMAILS, or an OIDC group of OIDC_ADMIN_GROUPS): moderates every item. */
  isAdmin: z.boolean(),
  /** May upload now (UPLOADS: everyone, admins or off). */
  canUpload: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const meResponseSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), user: sessionUserSchema }),
  z.object({ success: z.literal(false), user: z.null() }),
]);
export type MeResponse = z.infer<typeof meResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** `GET /api/auth/googleAuth`: where to go once signed in (a path on this site). */
export const googleAuthQuerySchema = z.object({
  returnTo: z.string().optional().meta({ description: 'A path on this site; "/" when absent.' }),
});
export type GoogleAuthQuery = z.infer<typeof googleAuthQuerySchema>;

/**
 * `GET /api/auth/callback`: the issuer's answer. Only `state` and `error` are read here; the
 * whole query (code, iss, …) goes to the OpenID client as it came.
 */
export const signInCallbackQuerySchema = z
  .object({
    state: z.string().optional(),
    error: z.string().optional(),
    code: z.string().optional(),
    iss: z.string().optional(),
  })
  .loose();
export type SignInCallbackQuery = z.infer<typeof signInCallbackQuerySchema>;

/** Codes the sign-in routes put in `/landing?error=<code>`; the landing page explains each. */
export const signInErrorCodeSchema = z.enum([
  'state_mismatch',
  'flow_expired',
  'access_denied',
  'provider_error',
  'code_invalid',
  'token_invalid',
  'email_unverified',
  'not_allowed',
  'invalid_return_to',
  'rate_limited',
  'server_error',
]);
export type SignInErrorCode = z.infer<typeof signInErrorCodeSchema>;

/** What the landing page shows for each code: what happened and what to do next. */
export const signInErrorMessages: Record<SignInErrorCode, string> = {
  state_mismatch:
    "We couldn't confirm that this sign-in was started from this browser, so we stopped it to keep your account safe. Please try signing in again.",
  flow_expired: 'Your sign-in took too long and expired. Please try signing in again.',
  access_denied: 'Sign-in was cancelled. You can try again whenever you like.',
  provider_error:
    "We couldn't reach the sign-in provider, or it reported a problem. Please try again in a moment.",
  code_invalid:
    'This sign-in link has already been used or has expired. Please try signing in again.',
  token_invalid:
    "We couldn't verify the answer from the sign-in provider, so we didn't sign you in. Please try again.",
  email_unverified:
    "Your account's email address isn't verified yet. Verify it with your sign-in provider, then try again.",
  not_allowed:
    "This Sticky is private, and your account isn't on its list of allowed people. Ask the person who runs it to add your email address.",
  invalid_return_to:
    'That sign-in link tried to send you to another website afterwards, so we stopped it. You can sign in safely from this page.',
  rate_limited: 'Too many sign-in attempts from your network. Please wait a minute and try again.',
  server_error: 'Something went wrong on our side while signing you in. Please try again.',
};

/** Reads the `error` query parameter of /landing; anything unknown is ignored. */
export function parseSignInErrorCode(value: string | null | undefined): SignInErrorCode | null {
  const parsed = signInErrorCodeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
