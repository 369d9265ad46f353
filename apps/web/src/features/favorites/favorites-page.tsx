// Placeholder so the router builds; the web-app issue replaces it.
export function FavoritesPage() {
  return <h1>My Favorites</h1>;
}
