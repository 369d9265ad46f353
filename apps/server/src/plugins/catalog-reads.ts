import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

/** The catalog's APIs: what they read may come from the read replica. */
const catalogPrefixes = ['/v1/', '/v2/'];

/**
 * With DATABASE_READ_URL, the handlers of /v1 and /v2 GET routes run inside the replica's
 * catalog-read scope (docs/scaling.md, "A read replica"): their plain reads go to the replica
 * while it is caught up, their writes (counted views, search statistics, drawn text) and
 * whatever follows them to the primary. Hooks (session, API key, rate limits) run outside it,
 * on the primary, and so does /api. Registered before the routes, which it wraps as they are
 * added.
 */
export const catalogReadsPlugin = fp(async (app: FastifyInstance) => {
  const { replica } = app.deps.database;
  if (!replica) return;
  app.addHook('onRoute', (route) => {
    const isGet = [route.method].flat().includes('GET');
    if (!isGet || !catalogPrefixes.some((prefix) => route.url.startsWith(prefix))) return;
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return replica.runCatalogReads(() => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
});
