import type { SessionUser } from '@sticky/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
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

/** Resolves `request.user` from the session cookie, for the API plugin that registers it. */
export const sessionUserPlugin = fp(async (app: FastifyInstance) => {
  const { config, database } = app.deps;
  const cookieName = sessionCookieName(config);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[cookieName];
    if (token) request.user = await findSessionUser(database.db, config, token);
  });
});

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
