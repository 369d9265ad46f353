// Placeholder so the router builds; the web-app issue replaces it.
export function HomePage() {
  return <h1>Trending</h1>;
}
