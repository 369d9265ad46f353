import {
  ContentGrid,
  ErrorState,
  LoadingIndicator,
  itemsByIdsQueryOptions,
} from '@/features/content';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import noFavoritesUrl from './no-favorites.svg';
import { useFavorites } from './use-favorites.ts';

const favoriteColumns = { small: 2, medium: 3, large: 4 };

function NoFavorites() {
  return (
    <div className="flex flex-col items-center gap-4 py-10 text-center">
      <img src={noFavoritesUrl} alt="An empty board with a dashed heart" width={240} height={200} />
      <p className="text-xl font-semibold">No favourites</p>
    </div>
  );
}

/**
 * My Favorites (docs/web.md, "Screens and routes"): the favorited items, newest first, or 'No
 * favourites'.
 */
export function FavoritesPage() {
  const { ids, isLoading, error, retry } = useFavorites();
  useDocumentTitle('My Favorites');
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-3xl font-extrabold">My Favorites</h1>
      {isLoading ? (
        <LoadingIndicator label="Loading favourites…" />
      ) : error ? (
        <ErrorState message={error.message} onRetry={retry} />
      ) : ids.length === 0 ? (
        <NoFavorites />
      ) : (
        <ContentGrid
          query={itemsByIdsQueryOptions(ids)}
          columns={favoriteColumns}
          label="My Favorites"
          emptyState={<NoFavorites />}
        />
      )}
    </div>
  );
}
