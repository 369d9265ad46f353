import type { FastifyPluginAsync } from 'fastify';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    try {
      await app.deps.database.pool.query('SELECT 1');
      // Ready to serve even while the starter catalog is still being made; `catalog` says how far.
      return { status: 'ok', database: 'ok', catalog: app.deps.catalog?.starter ?? 'off' };
    } catch {
      reply.header('retry-after', '5');
      return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
};
