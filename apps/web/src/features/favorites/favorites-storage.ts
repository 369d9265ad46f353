/**
 * The browser's copy of the favorites (docs/web.md, "State"), ids oldest first, under `favGifs`.
 */
export const favoritesStorageKey = 'favGifs';
/**
 * Which account the copy was last synced from. A copy with no owner holds ids saved before
 * the account kept favourites: those are merged into the account once. An owned copy is only
 * a mirror and never merged into another account that signs in on this browser.
 */
export const favoritesOwnerKey = 'favGifsOwner';

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (privacy mode): favourites still work from the server
  }
}

function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage full or disabled: the server copy is the one that matters
  }
}

export function readLocalFavorites(): string[] {
  const raw = readStorage(favoritesStorageKey);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const ids = parsed.filter((id): id is string => typeof id === 'string' && id.length > 0);
    return [...new Set(ids)];
  } catch {
    return [];
  }
}

/** Saves the account's list (newest first) as the local copy (oldest first, as appended). */
export function writeLocalFavorites(newestFirst: readonly string[], ownerId: string): void {
  writeStorage(favoritesStorageKey, JSON.stringify([...newestFirst].reverse()));
  writeStorage(favoritesOwnerKey, ownerId);
}

export function readLocalFavoritesOwner(): string | null {
  return readStorage(favoritesOwnerKey);
}
