import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

/**
 * With DATABASE_READ_URL, the handlers of the GET routes of the API that registers this plugin
 * (the catalog's: /v1 and /v2) run inside the replica's catalog-read scope (docs/scaling.md,
 * "A read replica"): their plain reads go to the replica while it is caught up, their writes
 * (counted views, search statistics, drawn text) and whatever follows them to the primary.
 * Hooks (session, API key, rate limits) run outside it, on the primary, and so does /api,
 * which does not register it. Registered before the API's routes, which it wraps as they are
 * added.
 */
export const catalogReadsPlugin = fp(async (app: FastifyInstance) => {
  const { replica } = app.deps.database;
  if (!replica) return;
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('GET')) return;
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return replica.runCatalogReads(() => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
});
