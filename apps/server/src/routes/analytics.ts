import { pageViewRequestSchema } from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { recordPageView } from '../analytics/page-views.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * First-party page-view counts (spec §1: landing page views). Only a daily count per path is
 * kept: no cookie is read, nothing about the visitor is stored. The address is used for
 * nothing but the rate limit, which lives in memory.
 */
export const analyticsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps.database;

  app.post(
    '/pageview',
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const parsed = pageViewRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          'bad_request',
          `Invalid page view: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
        );
      }
      await recordPageView(db, parsed.data.path);
      return reply.header('cache-control', 'no-store').status(204).send();
    },
  );
};
