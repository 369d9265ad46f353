/**
 * GIPHY's `name_encoded` for a category (docs/catalog.md, "Categories"): lower case, and every
 * run of spaces, `&` and other punctuation collapsed to one dash (`news & politics` →
 * `news-politics`).
 * Apostrophes vanish rather than split a word (`valentine's day` → `valentines-day`).
 */
export function encodeCategoryName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
