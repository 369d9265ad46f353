import type { Rating } from '@sticky/contracts';
import type { CatalogDeps, ItemType } from './items.ts';
import { readCatalogVersion, VersionedCache } from './catalog-version.ts';
import { serializeItems } from './serialize.ts';
import type { SerializedItems } from './serialize.ts';
import { listTrendingItems } from './trending.ts';

/** One trending page as sent: its items already in GIPHY's JSON. */
export interface TrendingPage {
  data: SerializedItems;
  totalCount: number;
}

/** Enough for every page people scroll to in a few types and ratings. */
const pages = new VersionedCache<TrendingPage>(500);

/**
 * A trending page, from memory while the catalog has not changed. Trending is the same for
 * everyone and the most requested list; serialising 25 items with their renditions costs far
 * more than knowing whether anything changed: catalog_version moves with every committed change
 * to items, renditions or creators, in any process, and is announced when it does (see
 * catalog-version.ts). The version is taken before the page is read, so a page is never kept
 * under a version newer than its rows.
 */
export async function readTrendingPage(
  deps: CatalogDeps,
  options: { types: readonly ItemType[]; rating?: Rating; limit: number; offset: number },
): Promise<TrendingPage> {
  const key = [
    deps.config.publicUrl,
    options.types.join(','),
    options.rating ?? '',
    options.limit,
    options.offset,
  ].join('|');
  const version = await readCatalogVersion(deps);
  return pages.getOrMake(deps.database, key, version, async () => {
    const page = await listTrendingItems(deps, options);
    const data = await serializeItems(deps, page.rows);
    return {
      data: { json: JSON.stringify(data), count: data.length },
      totalCount: page.totalCount,
    };
  });
}
