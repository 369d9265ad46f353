import type { Rating } from '@sticky/contracts';
import type { ItemType } from './items.ts';
import type { QueryDeps, TrendingPage } from './query-caches.ts';
import { serializeItems } from './serialize.ts';
import { listTrendingItems } from './trending.ts';

export type { TrendingPage } from './query-caches.ts';

/**
 * A trending page, from memory while nothing it shows has changed. Trending is the same for
 * everyone and the most requested list; serializing 25 items with their renditions costs far
 * more than knowing whether anything changed: catalog_version moves with every committed change
 * to items, renditions or creators, in any process, and is announced when it does
 * (catalog-versions.ts). Popularity has its own version: a page outlives a move of it by at
 * most TRENDING_MAX_AGE_SECONDS, so counting views re-ranks trending that often at most
 * (docs/catalog.md, "Caches and versions"). An edit of one item's text moves neither: it drops
 * the pages that show that item, and no other. The versions are read before the page is, so a
 * page is never kept under versions newer than its rows.
 */
export async function readTrendingPage(
  deps: QueryDeps,
  options: { types: readonly ItemType[]; rating?: Rating; limit: number; offset: number },
): Promise<TrendingPage> {
  const key = [options.types.join(','), options.rating ?? '', options.limit, options.offset].join(
    '|',
  );
  const versions = await deps.services.versions.read();
  return deps.services.trendingPages.getOrMake(key, versions, async () => {
    const page = await listTrendingItems(deps, options);
    const data = await serializeItems(deps, page.rows);
    return {
      data: { json: JSON.stringify(data), count: data.length },
      totalCount: page.totalCount,
      itemIds: page.rows.map((row) => row.id),
    };
  });
}
