// Placeholder lazy route module (`/:category`); the web-app issue replaces it.
export function Component() {
  return <h1>Category</h1>;
}
