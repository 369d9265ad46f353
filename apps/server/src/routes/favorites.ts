import {
  favoriteParamsSchema,
  favoritesResponseSchema,
  favoriteWriteResponseSchema,
  mergeFavoritesRequestSchema,
  mergeFavoritesResponseSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addFavorite,
  listFavoriteIds,
  mergeFavorites,
  removeFavorite,
} from '../favorites/favorites-service.ts';
import { recordItemEvent } from '../catalog/activity/item-events.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

/** Favorites that follow the user across devices: ids only, newest first. */
export const favoritesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/',
    {
      config: { tokenScope: 'read' },
      schema: {
        summary: "The account's favorite ids, newest first",
        response: { 200: favoritesResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ids: await listFavoriteIds(db, signedInUser(request).id),
    }),
  );

  app.put(
    '/:id',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Add a favorite (idempotent)',
        params: favoriteParamsSchema,
        response: { 200: favoriteWriteResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const user = signedInUser(request);
      const isNew = await addFavorite(db, user.id, id);
      if (isNew) {
        // A favorite counts towards trending (our catalog's ids only; GIPHY ids are ignored).
        // The favorite is saved either way: a failure here is only logged.
        await recordItemEvent(app.deps, { userId: user.id, itemId: id, kind: 'favorite' }).catch(
          (error: unknown) => request.log.warn({ err: error }, 'could not count a favorite'),
        );
      }
      return { success: true as const, id, isFavorite: true };
    },
  );

  app.delete(
    '/:id',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Remove a favorite (idempotent)',
        params: favoriteParamsSchema,
        response: { 200: favoriteWriteResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      await removeFavorite(db, signedInUser(request).id, id);
      return { success: true as const, id, isFavorite: false };
    },
  );

  app.post(
    '/merge',
    {
      config: { rateLimit: { max: 20 } },
      schema: {
        summary: "Merge this browser's favorites into the account, once per account",
        body: mergeFavoritesRequestSchema,
        response: { 200: mergeFavoritesResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      const result = await mergeFavorites(db, signedInUser(request).id, request.body.ids);
      return { success: true as const, ...result };
    },
  );
};
