import { listIntegrationsResponseSchema } from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAdmin } from '../auth/roles.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

/**
 * `GET /api/admin/integrations` (docs/integrations.md, "What the admin page shows"): each chat
 * platform a module registered, whether it is configured, its endpoints, its last request and
 * its setup. Admins only; never a setting's value.
 */
export const integrationsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onRequest', async (request) => {
    ensureAdmin(signedInUser(request), 'see the integrations');
  });

  app.get(
    '/',
    {
      schema: {
        summary: 'Chat platforms: configured or not, endpoints, last request, setup (admins)',
        response: { 200: listIntegrationsResponseSchema, ...apiErrorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const { config, integrations } = app.deps;
      return {
        success: true as const,
        publicUrl: config.publicUrl,
        rating: config.integrations.rating,
        platforms: await integrations.registry.list(),
      };
    },
  );
};
