import { and, inArray } from 'drizzle-orm';
import { renditions } from '../../db/schema.ts';
import type { CatalogDeps } from './items.ts';
import { mediaUrl } from './serialize.ts';

/** One stored file of Tenor's own sizes. */
export interface StoredFile {
  url: string;
  width: number;
  height: number;
  bytes: number;
}

export type TenorSizeName = 'tiny' | 'nano';
export type TenorSizeFormat = 'gif' | 'webp' | 'mp4' | 'webm';

/** Per item: its `tiny` (220 px wide) and `nano` (90 px high) files, by format. */
export type TenorSizes = Map<
  string,
  Partial<Record<TenorSizeName, Partial<Record<TenorSizeFormat, StoredFile>>>>
>;

/**
 * The renditions made for Tenor's tiny and nano sizes (docs/catalog.md, "Renditions"), which
 * GIPHY's shape has no slot for: one indexed read for a page of items. An item whose later
 * renditions are not made yet has none; /v2 then takes the nearest GIPHY size.
 */
export async function loadTenorSizes(
  deps: CatalogDeps,
  itemIds: readonly string[],
): Promise<TenorSizes> {
  const sizes: TenorSizes = new Map();
  if (itemIds.length === 0) return sizes;
  const rows = await deps.database.db
    .select({
      itemId: renditions.itemId,
      name: renditions.name,
      format: renditions.format,
      width: renditions.width,
      height: renditions.height,
      bytes: renditions.bytes,
      path: renditions.path,
    })
    .from(renditions)
    .where(
      and(inArray(renditions.itemId, [...itemIds]), inArray(renditions.name, ['tiny', 'nano'])),
    );
  for (const row of rows) {
    if (!['gif', 'webp', 'mp4', 'webm'].includes(row.format)) continue;
    const forItem = sizes.get(row.itemId) ?? {};
    const name = row.name as TenorSizeName;
    forItem[name] = {
      ...forItem[name],
      [row.format]: {
        url: mediaUrl(deps.config, row.path),
        width: row.width,
        height: row.height,
        bytes: row.bytes,
      },
    };
    sizes.set(row.itemId, forItem);
  }
  return sizes;
}
