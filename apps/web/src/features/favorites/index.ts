export { FavoritesPage } from './favorites-page.tsx';
export { useFavorites } from './use-favorites.ts';
export type { FavoritesState } from './use-favorites.ts';
