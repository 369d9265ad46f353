import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findSessionUser, purgeExpiredSessions, sessionCookieName } from '../auth/sessions.ts';
import { AppError } from '../lib/app-error.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Resolves `request.user` from the session cookie for every API request, and purges expired
 * sessions now and then.
 */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  const { config, database } = app.deps;
  const cookieName = sessionCookieName(config);
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const isApi = request.url.startsWith('/api/') || request.url.startsWith('/v1/');
    const token = request.cookies[cookieName];
    if (!isApi || !token) return;
    request.user = await findSessionUser(database.db, token);
  });

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

/** preHandler for routes that need a signed-in user. */
export async function requireSignedIn(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError('unauthorized', 'Sign in to continue.');
}
