import {
  healthResponseSchema,
  notReadyResponseSchema,
  readyResponseSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorResponses } from '../plugins/error-handler.ts';

/** Liveness and readiness probes (docs/architecture.md, "Runtime"). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      // Load balancers probe by address, not by PUBLIC_URL's name.
      config: { isAnyHost: true },
      schema: {
        summary: 'The process answers',
        tags: ['health'],
        response: { 200: healthResponseSchema, ...apiErrorResponses },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { isAnyHost: true },
      schema: {
        summary: 'The database answers',
        description:
          'Ready to serve even while the starter catalog is still being made; `catalog` says how far it is.',
        tags: ['health'],
        response: { 200: readyResponseSchema, 503: notReadyResponseSchema, ...apiErrorResponses },
      },
    },
    async (_request, reply) => {
      try {
        await app.deps.database.pool.query('SELECT 1');
        return {
          status: 'ok' as const,
          database: 'ok' as const,
          catalog: app.deps.catalog?.starter ?? 'off',
        };
      } catch {
        reply.header('retry-after', '5');
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, database: 'unreachable' as const });
      }
    },
  );
};
