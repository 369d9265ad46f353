// Placeholder so the router builds; the web-app issue replaces it.
export function SearchPage() {
  return <h1>Search</h1>;
}
