import type { ItemDetails } from '@sticky/contracts';

/** The item page of an item (`/:type/:slug`; a slug ending with the id is enough). */
export function getItemPagePath(itemId: string, type: ItemDetails['type']): string {
  return `/${type}/${encodeURIComponent(itemId)}`;
}

export function getItemPageUrl(itemId: string, type: ItemDetails['type']): string {
  return new URL(getItemPagePath(itemId, type), window.location.origin).href;
}
