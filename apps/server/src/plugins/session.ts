import type { SessionUser, TokenScope } from '@sticky/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findTokenUser } from '../auth/api-tokens.ts';
import { findSessionUser, purgeExpiredSessions, sessionCookieName } from '../auth/sessions.ts';
import { AppError } from '../lib/app-error.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Once per app: `request.user` exists on every request (null until an API resolves it), and
 * expired sessions are purged now and then, the timer ending with the app.
 */
export const sessionsPlugin = fp(async (app: FastifyInstance) => {
  const { database } = app.deps;
  app.decorateRequest('user', null);

  const purge = () =>
    purgeExpiredSessions(database.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge expired sessions'),
    );
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onReady', async () => {
    void purge();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * How `request.user` was found: a session cookie (ambient, so cross-site rules apply) or
     * a personal API token in `Authorization: Bearer` (explicit, sent only by its holder).
     */
    authMethod: 'session' | 'token' | null;
    /** What the API token of the request may do; null without a token. */
    tokenScopes: readonly TokenScope[] | null;
  }
  interface FastifyContextConfig {
    /**
     * The scope an API token needs to call this route (docs/security.md, "API tokens"). A route
     * of /api that names none is for sessions only: sign-in and token management among them.
     */
    tokenScope?: TokenScope;
  }
}

/** Options of `sessionUserPlugin`. */
export interface SessionUserOptions {
  /** The scope tokens need on the API's routes that name none (the read-only APIs: `read`). */
  defaultTokenScope?: TokenScope;
}

/**
 * Whether the token may call the route: its scope, named by the route's config (or the API's
 * default); a route that names none is refused to every token.
 */
function checkTokenScope(request: FastifyRequest, options: SessionUserOptions): void {
  // An unknown path answers 404 as it would to anyone.
  if (request.is404) return;
  const needed = request.routeOptions.config.tokenScope ?? options.defaultTokenScope;
  if (!needed) {
    throw new AppError(
      'forbidden',
      'API tokens cannot call this (sign-in, sign-out and token management): use the web app, signed in.',
    );
  }
  if (!request.tokenScopes?.includes(needed)) {
    throw new AppError(
      'insufficient_scope',
      `This API token lacks the "${needed}" scope, which this call needs: make a token with it on /settings.`,
    );
  }
}

/**
 * The secret of `Authorization: Bearer <secret>`, if the request has one. Other schemes are not
 * ours to judge: a proxy in front may guard the whole site with Basic auth and pass it on.
 */
export function readBearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * Resolves `request.user` from a Bearer API token or the session cookie, for the API plugin
 * that registers it (docs/security.md, "API tokens"). A token that is not valid is refused
 * outright rather than treated as signed out: a script should learn its token is wrong.
 */
export const sessionUserPlugin = fp(async (app: FastifyInstance, options: SessionUserOptions) => {
  const { config, database } = app.deps;
  const cookieName = sessionCookieName(config);
  app.decorateRequest('authMethod', null);
  app.decorateRequest('tokenScopes', null);
  app.addHook('onRequest', async (request) => {
    const bearer = readBearer(request);
    if (bearer !== undefined) {
      const holder = await findTokenUser(database.db, config, bearer);
      if (!holder) {
        // Wrong tokens count with wrong api_keys, per address: none is guessed at leisure.
        await app.apiLimits.chargeFailedKey(request);
        throw new AppError(
          'unauthorized',
          'This API token is not valid: it was revoked or mistyped.',
        );
      }
      request.user = holder.user;
      request.tokenScopes = holder.scopes;
      request.authMethod = 'token';
      checkTokenScope(request, options);
      return;
    }
    const token = request.cookies[cookieName];
    if (token) request.user = await findSessionUser(database.db, config, token);
    if (request.user) request.authMethod = 'session';
  });
});

/** Routes a token must not reach (making and revoking tokens): a signed-in browser only. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  signedInUser(request);
  if (request.authMethod !== 'session') {
    throw new AppError(
      'forbidden',
      'Manage API tokens from the web app, signed in, not with a token.',
    );
  }
}

/**
 * onRequest hook of routes that need a signed-in user: answered 401 before the request is
 * even validated, so a signed-out caller learns nothing about its parameters.
 */
export async function requireSignedIn(request: FastifyRequest): Promise<void> {
  signedInUser(request);
}

/** The signed-in user of a request, typed; throws 401 when there is none. */
export function signedInUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('unauthorized', 'Sign in to continue.');
  return request.user;
}
