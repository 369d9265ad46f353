// Placeholder so the router builds; the web-app issue replaces it.
export function ItemPage() {
  return <h1>Item</h1>;
}
