import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { notify } from '@/lib/notify.ts';
import { useAuth } from '@/features/auth';
import {
  addFavorite,
  favoritesQueryKey,
  favoritesQueryOptions,
  removeFavorite,
} from './favorites-api.ts';
import { writeLocalFavorites } from './favorites-storage.ts';

export interface FavoritesState {
  /** Newest first; empty while loading. */
  ids: string[];
  isLoading: boolean;
  error: Error | null;
  retry: () => void;
  isFavorite: (id: string) => boolean;
  toggleFavorite: (id: string) => void;
}

/**
 * The signed-in user's favourites. A toggle shows at once (optimistic), is saved to the
 * server and to `favGifs`, and toasts 'Added to Favorites' / 'Removed from Favorites'; if
 * the server refuses, the list goes back and the reason is shown.
 */
export function useFavorites(): FavoritesState {
  const { user } = useAuth();
  const userId = user?.id ?? '';
  const queryClient = useQueryClient();
  const query = useQuery({ ...favoritesQueryOptions(userId), enabled: userId !== '' });
  const ids = useMemo(() => query.data ?? [], [query.data]);

  const mutation = useMutation({
    mutationFn: ({ id, add }: { id: string; add: boolean }) =>
      add ? addFavorite(id) : removeFavorite(id),
    onMutate: async ({ id, add }) => {
      const key = favoritesQueryKey(userId);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<string[]>(key) ?? [];
      const next = add
        ? [id, ...previous.filter((other) => other !== id)]
        : previous.filter((other) => other !== id);
      queryClient.setQueryData(key, next);
      writeLocalFavorites(next, userId);
      return { previous };
    },
    onSuccess: (_result, { add }) => {
      void notify('success', add ? 'Added to Favorites' : 'Removed from Favorites');
    },
    onError: (error, _variables, context) => {
      if (context) {
        queryClient.setQueryData(favoritesQueryKey(userId), context.previous);
        writeLocalFavorites(context.previous, userId);
      }
      void notify('error', error.message);
    },
  });

  const isFavorite = useCallback((id: string) => ids.includes(id), [ids]);
  const { mutate } = mutation;
  const toggleFavorite = useCallback(
    (id: string) => {
      if (!userId) return;
      const current = queryClient.getQueryData<string[]>(favoritesQueryKey(userId)) ?? [];
      mutate({ id, add: !current.includes(id) });
    },
    [mutate, queryClient, userId],
  );

  return {
    ids,
    isLoading: query.isPending && userId !== '',
    error: query.error,
    retry: () => void query.refetch(),
    isFavorite,
    toggleFavorite,
  };
}
