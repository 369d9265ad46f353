/**
 * The STICKY_API_KEYS key of the shared e2e server: what another app (a Tenor client, GIPHY's
 * SDK) calls `/v1` and `/v2` with, no session needed. Long enough for any key rule.
 */
export const e2eApiKey = 'e2e-app-key-0123456789abcdefghijklmnopqrstuv';

/** The shared e2e server's admin (ADMIN_EMAILS): signs in through the local issuer. */
export const e2eAdminEmail = 'e2e-admin@example.com';
