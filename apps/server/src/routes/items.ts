import {
  deleteItemResponseSchema,
  ownedItemParamsSchema,
  ownedItemResponseSchema,
  updateItemRequestSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteOwnedItem, getOwnedItem, updateOwnedItem } from '../items/owned-items.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

/** `/api/items/{id}`: an item as its owner and admins manage it (docs/uploads.md). */
export const itemsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/:id',
    {
      config: { tokenScope: 'read' },
      schema: {
        summary: 'An item with what I may do with it',
        description: 'A hidden item exists only for its owner and admins (404 for others).',
        params: ownedItemParamsSchema,
        response: { 200: ownedItemResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      item: await getOwnedItem(app.deps, signedInUser(request), request.params.id),
    }),
  );

  app.patch(
    '/:id',
    {
      config: { rateLimit: { max: 120 }, tokenScope: 'items' },
      schema: {
        summary: 'Edit an item (its owner or an admin; hide and unhide: admins)',
        description:
          'Only the fields sent change. Search, trending, related and /v1 show the change at once. At most 30 edits and deletions a minute per person (admins: no limit); 429 past it.',
        params: ownedItemParamsSchema,
        body: updateItemRequestSchema,
        response: { 200: ownedItemResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await app.catalogWriteLimit.charge(request);
      return {
        success: true as const,
        item: await updateOwnedItem(
          app.deps,
          signedInUser(request),
          request.params.id,
          request.body,
        ),
      };
    },
  );

  app.delete(
    '/:id',
    {
      config: { rateLimit: { max: 120 }, tokenScope: 'items' },
      schema: {
        summary: 'Delete an item (its owner or an admin)',
        params: ownedItemParamsSchema,
        response: { 200: deleteItemResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await app.catalogWriteLimit.charge(request);
      await deleteOwnedItem(app.deps, signedInUser(request), request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );
};
