export { FavoritesPage } from './favorites-page.tsx';
