import type { SignInErrorCode } from '@sticky/contracts';
import {
  apiErrorSchema,
  googleAuthQuerySchema,
  logoutResponseSchema,
  meResponseSchema,
  signInCallbackQuerySchema,
} from '@sticky/contracts';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseReturnTo } from '../auth/return-to.ts';
import {
  createSession,
  deleteSession,
  deleteUserSessions,
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
import { maskEmails } from '../lib/log-redaction.ts';
import { apiErrorResponses, toAppError } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The sign-in error a bad query on this sign-in route is shown as. */
    signInErrorOnBadRequest?: SignInErrorCode;
  }
}

const redirectResponse = (description: string) => ({
  302: z.undefined().describe(description),
});

/** Where a failed sign-in sends the browser: `/landing?error=<code>`. */
function signInErrorCodeFor(error: unknown, request: FastifyRequest): SignInErrorCode {
  if (error instanceof SignInError) return error.code;
  const appError = toAppError(error);
  if (appError.code === 'rate_limited') return 'rate_limited';
  const isBadRequest = appError.status === 400 || (error as FastifyError).validation !== undefined;
  return (isBadRequest && request.routeOptions.config.signInErrorOnBadRequest) || 'server_error';
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, database, sessionSecret } = app.deps;
  const sessionCookie = sessionCookieName(config);
  const signIn = createSignInService({ config, db: database.db, sessionSecret });

  app.get(
    '/me',
    {
      // Generous enough for a busy household behind one address, tight enough to stop hammering.
      config: { rateLimit: { max: 600 } },
      schema: {
        summary: 'Who is signed in',
        response: {
          200: meResponseSchema,
          // Signed out, or an API token refused before this handler (plugins/session.ts).
          401: z.union([meResponseSchema, apiErrorSchema]),
          ...apiErrorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.user) {
        return reply.status(401).send({ success: false as const, user: null });
      }
      return { success: true as const, user: request.user };
    },
  );

  // Cross-site posts never get here: plugins/cross-site.ts answers them with 403.
  app.post(
    '/logout',
    {
      config: { rateLimit: { max: 60 } },
      schema: {
        summary: 'Sign out: the session ends and its cookie is cleared',
        response: { 200: logoutResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const token = request.cookies[sessionCookie];
      if (token) await deleteSession(database.db, token);
      const { maxAge: _maxAge, ...cookieOptions } = sessionCookieOptions(config);
      reply.clearCookie(sessionCookie, cookieOptions);
      reply.header('cache-control', 'no-store');
      return { success: true };
    },
  );

  // Ends every session of the person, this one included; cross-site posts never get here.
  app.post(
    '/logout-all',
    {
      config: { rateLimit: { max: 60 } },
      onRequest: requireSignedIn,
      schema: {
        summary: 'Sign out everywhere: every session of the signed-in person ends',
        response: { 200: logoutResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteUserSessions(database.db, signedInUser(request).id);
      const { maxAge: _maxAge, ...cookieOptions } = sessionCookieOptions(config);
      reply.clearCookie(sessionCookie, cookieOptions);
      reply.header('cache-control', 'no-store');
      return { success: true };
    },
  );

  // The browser navigates to these two itself, so every failure becomes a page it can show.
  const navigationRoutes: FastifyPluginAsyncZod = async (navigation) => {
    navigation.setErrorHandler((error, request, reply) => {
      const code = signInErrorCodeFor(error, request);
      if (code === 'server_error') {
        request.log.error({ err: error }, 'sign-in failed');
      } else {
        const cause = (error as { cause?: unknown }).cause;
        // Refusals name the email they refused: logged masked (docs/security.md, "Logs").
        request.log.info(
          { code, reason: maskEmails((error as Error).message), err: cause },
          'sign-in refused',
        );
      }
      if (hasFlowCookie(request, config)) clearFlowCookie(reply, config);
      return reply
        .header('cache-control', 'no-store')
        .redirect(`/landing?error=${encodeURIComponent(code)}`, 302);
    });

    navigation.get(
      '/googleAuth',
      {
        config: {
          rateLimit: { max: 60 },
          isNavigation: true,
          signInErrorOnBadRequest: 'invalid_return_to',
        },
        schema: {
          summary: 'Start signing in: off to the sign-in provider',
          description:
            'A browser navigation: every answer is a redirect, failures to `/landing?error=<code>`.',
          querystring: googleAuthQuerySchema,
          response: redirectResponse('To the sign-in provider, or to /landing?error=<code>.'),
        },
      },
      async (request, reply) => {
        const { returnTo: asked } = request.query;
        const returnTo = asked === undefined ? '/' : parseReturnTo(asked);
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
      {
        config: {
          rateLimit: { max: 60 },
          isNavigation: true,
          signInErrorOnBadRequest: 'state_mismatch',
        },
        schema: {
          summary: "The sign-in provider's answer",
          description:
            'A browser navigation: signed in, back to where sign-in started; failures to `/landing?error=<code>`.',
          querystring: signInCallbackQuerySchema,
          response: redirectResponse('To the returnTo path, or to /landing?error=<code>.'),
        },
      },
      async (request, reply) => {
        const saved = readFlowCookie(request, config);
        if (saved.status === 'missing' || saved.status === 'expired') {
          throw new SignInError('flow_expired', `sign-in flow cookie ${saved.status}`);
        }
        if (saved.status === 'tampered') {
          throw new SignInError('state_mismatch', 'sign-in flow cookie failed its signature');
        }
        const { flow } = saved;
        if (request.query.state !== flow.state) {
          throw new SignInError('state_mismatch', 'state is missing or not the one we sent');
        }
        if (request.query.error !== undefined) {
          throw new SignInError(
            request.query.error === 'access_denied' ? 'access_denied' : 'provider_error',
            `issuer answered ${request.query.error}`,
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
  };
  await app.register(navigationRoutes);
};
