import { z } from 'zod';
import { favoriteIdPattern } from './item-id.ts';

/**
 * An item id as GIPHY and our catalog make them (base62, sometimes with `-`/`_`). Favorites
 * store GIPHY ids in giphy mode and ours in local mode, so only the shape is checked.
 */
export const favoriteIdSchema = z
  .string()
  .regex(favoriteIdPattern, 'An item id is 1 to 64 letters, digits, "-" or "_".');
export type FavoriteId = z.infer<typeof favoriteIdSchema>;

/** `PUT` / `DELETE /api/favorites/{id}` */
export const favoriteParamsSchema = z.object({ id: favoriteIdSchema });
export type FavoriteParams = z.infer<typeof favoriteParamsSchema>;

/** How many favorites one account keeps; more is refused, not silently dropped. */
export const maxFavoritesPerUser = 2000;

/** `GET /api/favorites` and every write: the account's ids, newest first. */
export const favoritesResponseSchema = z.object({
  success: z.literal(true),
  ids: z.array(favoriteIdSchema),
});
export type FavoritesResponse = z.infer<typeof favoritesResponseSchema>;

/** `POST /api/favorites/merge`: the ids kept in this browser before the account had any. */
export const mergeFavoritesRequestSchema = z.object({
  ids: z.array(favoriteIdSchema).max(maxFavoritesPerUser),
});
export type MergeFavoritesRequest = z.infer<typeof mergeFavoritesRequestSchema>;

export const mergeFavoritesResponseSchema = favoritesResponseSchema.extend({
  /** False when this account had already merged once: the ids sent were ignored. */
  merged: z.boolean(),
});
export type MergeFavoritesResponse = z.infer<typeof mergeFavoritesResponseSchema>;

/** `PUT` / `DELETE /api/favorites/{id}`: the state after the (idempotent) write. */
export const favoriteWriteResponseSchema = z.object({
  success: z.literal(true),
  id: favoriteIdSchema,
  isFavorite: z.boolean(),
});
export type FavoriteWriteResponse = z.infer<typeof favoriteWriteResponseSchema>;
