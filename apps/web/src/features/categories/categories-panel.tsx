// Placeholder so the header builds; the web-app issue replaces it.
export function CategoriesPanel(_props: { onNavigate?: () => void }) {
  return null;
}
