import {
  favoriteIdSchema,
  mergeFavoritesRequestSchema,
  type FavoriteWriteResponse,
  type FavoritesResponse,
  type MergeFavoritesResponse,
} from '@sticky/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  addFavorite,
  listFavoriteIds,
  mergeFavorites,
  removeFavorite,
} from '../favorites/favorites-service.ts';
import { recordItemEvent } from '../catalog/query/trending.ts';
import { AppError } from '../lib/app-error.ts';
import { requireSignedIn } from '../plugins/session.ts';

// Per account, not per address: many people can share one address.
const keyByUser = (request: FastifyRequest) => request.user?.id ?? request.ip;
const writeRateLimit = { rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: keyByUser } };
const mergeRateLimit = { rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: keyByUser } };

function parseItemId(params: unknown): string {
  const parsed = favoriteIdSchema.safeParse((params as { id?: unknown } | undefined)?.id);
  if (!parsed.success) {
    throw new AppError('bad_request', parsed.error.issues[0]?.message ?? 'Invalid item id.');
  }
  return parsed.data;
}

/** Favourites that follow the user across devices: ids only, newest first. */
export const favoritesRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps.database;
  app.addHook('preHandler', requireSignedIn);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/', async (request): Promise<FavoritesResponse> => {
    return { success: true, ids: await listFavoriteIds(db, request.user!.id) };
  });

  app.put('/:id', { config: writeRateLimit }, async (request): Promise<FavoriteWriteResponse> => {
    const id = parseItemId(request.params);
    const isNew = await addFavorite(db, request.user!.id, id);
    if (isNew) {
      // A favourite counts towards trending (our catalog's ids only; GIPHY ids are ignored).
      // The favourite is saved either way: a failure here is only logged.
      await recordItemEvent(app.deps, {
        userId: request.user!.id,
        itemId: id,
        kind: 'favorite',
      }).catch((error: unknown) => request.log.warn({ err: error }, 'could not count a favourite'));
    }
    return { success: true, id, isFavorite: true };
  });

  app.delete(
    '/:id',
    { config: writeRateLimit },
    async (request): Promise<FavoriteWriteResponse> => {
      const id = parseItemId(request.params);
      await removeFavorite(db, request.user!.id, id);
      return { success: true, id, isFavorite: false };
    },
  );

  app.post(
    '/merge',
    { config: mergeRateLimit },
    async (request): Promise<MergeFavoritesResponse> => {
      const parsed = mergeFavoritesRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          'bad_request',
          `Invalid favourites to merge: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
        );
      }
      const result = await mergeFavorites(db, request.user!.id, parsed.data.ids);
      return { success: true, ...result };
    },
  );
};
