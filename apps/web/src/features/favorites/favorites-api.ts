import {
  favoriteWriteResponseFirstScreenSchema,
  favoritesResponseFirstScreenSchema,
  mergeFavoritesResponseFirstScreenSchema,
} from '@sticky/contracts/first-screen';
import { queryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from '@/lib/api-client.ts';
import {
  readLocalFavorites,
  readLocalFavoritesOwner,
  writeLocalFavorites,
} from './favorites-storage.ts';

export const favoritesQueryKey = (userId: string) => ['favorites', userId] as const;

/**
 * The account's favourite ids, newest first. The first time an account is seen on a browser
 * whose `favGifs` holds ids of its own (saved before favourites followed the account), those
 * are merged in (the server does it once per account); afterwards `favGifs` mirrors the list.
 */
export async function fetchFavoriteIds(userId: string, signal?: AbortSignal): Promise<string[]> {
  const local = readLocalFavorites();
  const isUnowned = readLocalFavoritesOwner() === null;
  const ids =
    isUnowned && local.length > 0
      ? (
          await apiPost(
            '/api/favorites/merge',
            { ids: local },
            mergeFavoritesResponseFirstScreenSchema,
            { signal },
          )
        ).ids
      : (await apiGet('/api/favorites', favoritesResponseFirstScreenSchema, { signal })).ids;
  // A toggle cancels this load and writes its own list: a late answer must not undo it.
  if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
  writeLocalFavorites(ids, userId);
  return ids;
}

export const favoritesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: favoritesQueryKey(userId),
    queryFn: ({ signal }) => fetchFavoriteIds(userId, signal),
    staleTime: 30_000,
  });

export function addFavorite(id: string) {
  return apiPut(
    `/api/favorites/${encodeURIComponent(id)}`,
    undefined,
    favoriteWriteResponseFirstScreenSchema,
  );
}

export function removeFavorite(id: string) {
  return apiDelete(
    `/api/favorites/${encodeURIComponent(id)}`,
    favoriteWriteResponseFirstScreenSchema,
  );
}
