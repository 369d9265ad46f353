import type { SessionUser } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { VersionWatch } from '../catalog/query/catalog-versions.ts';
import { VersionedCache } from '../catalog/query/versioned-cache.ts';
import type { DatabaseHandle } from '../db/client.ts';

export interface HiddenMediaDeps {
  database: DatabaseHandle;
  /** The app's catalog versions: hiding, unhiding and deleting move the catalog version. */
  services: { versions: Pick<VersionWatch, 'read'> };
}

/**
 * A media file that only hidden or private items use: who besides admins may still fetch it
 * (docs/uploads.md, "Visibility").
 */
export interface HiddenFile {
  /** The owners of the hidden and private items that use it. */
  ownerIds: readonly string[];
}

/**
 * Which media files belong only to hidden items (docs/uploads.md, "Editing, hiding,
 * deleting"), for /media. Answered from memory: the set is read once per catalog version and
 * kept until the version moves, so a media request costs no query while nothing changes.
 */
export interface HiddenMedia {
  /** The file's hidden items' owners, or undefined for a file anyone may fetch. */
  findHiddenFile(path: string): Promise<HiddenFile | undefined>;
}

/** Whether a person may fetch a file only hidden items use: an admin, or an owner of one. */
export function canSeeHiddenFile(user: SessionUser | null, file: HiddenFile): boolean {
  return user !== null && (user.isAdmin || file.ownerIds.includes(user.id));
}

/**
 * Every file of a hidden or private item that no item others may open shares (an unlisted
 * item's files are open to whoever has its link), with those items' owners. Such items are
 * few; the rest of the catalog is only probed by path (renditions_path_idx).
 */
async function loadHiddenFiles(database: DatabaseHandle): Promise<ReadonlyMap<string, HiddenFile>> {
  const result = await database.db.execute<{ path: string; owner_ids: string[] }>(sql`
    SELECT r.path, array_remove(array_agg(DISTINCT i.owner_id), NULL) AS owner_ids
    FROM items i JOIN renditions r ON r.item_id = i.id
    WHERE (i.hidden_at IS NOT NULL OR i.visibility = 'private')
      AND NOT EXISTS (
        SELECT 1 FROM renditions shared JOIN items visible ON visible.id = shared.item_id
        WHERE shared.path = r.path AND visible.hidden_at IS NULL
          AND visible.visibility <> 'private')
    GROUP BY r.path`);
  return new Map(result.rows.map((row) => [row.path, { ownerIds: row.owner_ids }]));
}

/**
 * One per app (made by the media routes, emptied with them), following the catalog version
 * like the app's other kept answers (docs/catalog.md, "Caches and versions"): an edit in this
 * process is seen at once (read your writes), one in another process once its notification
 * arrives.
 */
export function createHiddenMedia(deps: HiddenMediaDeps): HiddenMedia {
  const kept = new VersionedCache<ReadonlyMap<string, HiddenFile>>({ maxEntries: 1 });
  return {
    async findHiddenFile(path) {
      const versions = await deps.services.versions.read();
      const files = await kept.getOrMake('hidden files', versions, () =>
        loadHiddenFiles(deps.database),
      );
      return files.get(path);
    },
  };
}
