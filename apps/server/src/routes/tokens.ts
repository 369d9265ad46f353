import {
  createTokenRequestSchema,
  createTokenResponseSchema,
  deleteTokenResponseSchema,
  listTokensResponseSchema,
  tokenParamsSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createApiToken, deleteApiToken, listApiTokens } from '../auth/api-tokens.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSession, signedInUser } from '../plugins/session.ts';

/**
 * `/api/tokens`: personal API tokens for scripts and tools (docs/security.md, "API tokens").
 * Managed from a signed-in browser only: a token cannot make or revoke tokens.
 */
export const tokensRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.addHook('onRequest', requireSession);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/',
    {
      schema: {
        summary: 'My API tokens, newest first',
        response: { 200: listTokensResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      tokens: await listApiTokens(db, signedInUser(request).id),
    }),
  );

  app.post(
    '/',
    {
      config: { rateLimit: { max: 20 } },
      schema: {
        summary: 'Make an API token (its secret is answered once)',
        body: createTokenRequestSchema,
        response: { 201: createTokenResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const { name, visibility } = request.body;
      const made = await createApiToken(db, signedInUser(request).id, name, visibility);
      return reply.code(201).send({ success: true as const, ...made });
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Revoke one of my API tokens',
        params: tokenParamsSchema,
        response: { 200: deleteTokenResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await deleteApiToken(db, signedInUser(request).id, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );
};
