import { adminOverviewResponseSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createAdminOverview } from '../analytics/admin-overview.ts';
import { ensureAdmin } from '../auth/roles.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { signedInUser } from '../plugins/session.ts';

/** `GET /api/admin/overview` (docs/operations.md, "Admin overview"): admins only. */
export const adminOverviewRoutes: FastifyPluginAsyncZod = async (app) => {
  // Per app: it keeps the last storage sums a few minutes.
  const overview = createAdminOverview(app.deps);

  app.get(
    '/overview',
    {
      config: { tokenScope: 'admin' },
      schema: {
        summary: 'How the instance is doing: daily uploads and searches, storage, jobs (admins)',
        description:
          'Uploads and searches per UTC day over the last 30 days (every day, 0 when none), the most searched phrases and those that found nothing, storage of originals and renditions, job queues and the health of the database and storage.',
        response: { 200: adminOverviewResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      ensureAdmin(signedInUser(request), 'see the overview');
      reply.header('cache-control', 'no-store');
      return overview.read();
    },
  );
};
