import { pageViewRequestSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordPageView } from '../analytics/page-views.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';

/**
 * First-party page-view counts (the landing page's views). Only a daily count per path is
 * kept: no cookie is read, nothing about the visitor is stored. The address is used for
 * nothing but the rate limit, which lives in memory.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.post(
    '/pageview',
    {
      config: { rateLimit: { max: 30 } },
      schema: {
        summary: 'Count one view of a tracked page',
        body: pageViewRequestSchema,
        response: { 204: z.undefined().describe('Counted.'), ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      await recordPageView(db, request.body.path);
      return reply.header('cache-control', 'no-store').status(204).send();
    },
  );
};
