import type { LogoutResponse, MeResponse, SignInErrorCode } from '@sticky/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseReturnTo } from '../auth/return-to.ts';
import {
  createSession,
  deleteSession,
  sessionCookieName,
  sessionCookieOptions,
} from '../auth/sessions.ts';
import { createSignInService, SignInError } from '../auth/sign-in.ts';
import {
  clearFlowCookie,
  hasFlowCookie,
  readFlowCookie,
  setFlowCookie,
} from '../auth/sign-in-flow.ts';
import { toAppError } from '../plugins/error-handler.ts';

// Generous enough for a busy household behind one address, tight enough to stop hammering.
// Per account once signed in: a whole office behind one NAT address must not share one budget.
const ME_RATE_LIMIT = {
  max: 600,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) =>
    request.user ? `user:${request.user.id}` : `ip:${request.ip}`,
};
const SIGN_IN_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };
const LOGOUT_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };

const googleAuthQuerySchema = z.object({ returnTo: z.string().optional() });
const callbackQuerySchema = z.object({
  state: z.string().optional(),
  error: z.string().optional(),
});

function signInErrorCodeFor(error: unknown): SignInErrorCode {
  if (error instanceof SignInError) return error.code;
  return toAppError(error).code === 'rate_limited' ? 'rate_limited' : 'server_error';
}

export const authRoutes: FastifyPluginAsync = async (app) => {
  const { config, database, sessionSecret } = app.deps;
  const sessionCookie = sessionCookieName(config);
  const signIn = createSignInService({ config, db: database.db, sessionSecret });

  app.get('/me', { config: { rateLimit: ME_RATE_LIMIT } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!request.user) {
      return reply.status(401).send({ success: false, user: null } satisfies MeResponse);
    }
    return { success: true, user: request.user } satisfies MeResponse;
  });

  // Cross-site posts never get here: plugins/cross-site.ts answers them with 403.
  app.post('/logout', { config: { rateLimit: LOGOUT_RATE_LIMIT } }, async (request, reply) => {
    const token = request.cookies[sessionCookie];
    if (token) await deleteSession(database.db, token);
    const { maxAge: _maxAge, ...cookieOptions } = sessionCookieOptions(config);
    reply.clearCookie(sessionCookie, cookieOptions);
    reply.header('cache-control', 'no-store');
    return { success: true } satisfies LogoutResponse;
  });

  // The browser navigates to these two itself, so every failure becomes a page it can show.
  await app.register(async (navigation: FastifyInstance) => {
    navigation.setErrorHandler((error, request, reply) => {
      const code = signInErrorCodeFor(error);
      if (code === 'server_error') {
        request.log.error({ err: error }, 'sign-in failed');
      } else {
        const cause = (error as { cause?: unknown }).cause;
        request.log.info({ code, reason: (error as Error).message, err: cause }, 'sign-in refused');
      }
      if (hasFlowCookie(request, config)) clearFlowCookie(reply, config);
      return reply
        .header('cache-control', 'no-store')
        .redirect(`/landing?error=${encodeURIComponent(code)}`, 302);
    });

    navigation.get(
      '/googleAuth',
      { config: { rateLimit: SIGN_IN_RATE_LIMIT } },
      async (request, reply) => {
        const query = googleAuthQuerySchema.safeParse(request.query);
        if (!query.success) {
          throw new SignInError('invalid_return_to', 'returnTo is not a single value');
        }
        const returnTo =
          query.data.returnTo === undefined ? '/' : parseReturnTo(query.data.returnTo);
        if (returnTo === null) {
          throw new SignInError('invalid_return_to', 'returnTo points off this site');
        }
        const { authorizationUrl, flow } = await signIn.startSignIn(returnTo);
        setFlowCookie(reply, config, flow);
        return reply.header('cache-control', 'no-store').redirect(authorizationUrl.href, 302);
      },
    );

    navigation.get(
      '/callback',
      { config: { rateLimit: SIGN_IN_RATE_LIMIT } },
      async (request, reply) => {
        const saved = readFlowCookie(request, config);
        if (saved.status === 'missing' || saved.status === 'expired') {
          throw new SignInError('flow_expired', `sign-in flow cookie ${saved.status}`);
        }
        if (saved.status === 'tampered') {
          throw new SignInError('state_mismatch', 'sign-in flow cookie failed its signature');
        }
        const { flow } = saved;
        const query = callbackQuerySchema.safeParse(request.query);
        if (!query.success || query.data.state !== flow.state) {
          throw new SignInError('state_mismatch', 'state is missing or not the one we sent');
        }
        if (query.data.error !== undefined) {
          throw new SignInError(
            query.data.error === 'access_denied' ? 'access_denied' : 'provider_error',
            `issuer answered ${query.data.error}`,
          );
        }

        const callbackUrl = new URL(signIn.issuer.redirectUri);
        callbackUrl.search = new URL(request.url, 'http://callback.invalid').search;
        const user = await signIn.finishSignIn(callbackUrl, flow);

        // A brand-new session every time: a token planted before sign-in is worthless after.
        const previousToken = request.cookies[sessionCookie];
        if (previousToken) await deleteSession(database.db, previousToken);
        const token = await createSession(database.db, user.id);
        clearFlowCookie(reply, config);
        reply.setCookie(sessionCookie, token, sessionCookieOptions(config));
        request.log.info({ userId: user.id }, 'signed in');
        return reply.header('cache-control', 'no-store').redirect(flow.returnTo, 302);
      },
    );
  });
};
