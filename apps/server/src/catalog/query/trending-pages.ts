import type { Rating } from '@sticky/contracts';
import { catalogVersion } from '../../db/schema.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { CatalogDeps, ItemType } from './items.ts';
import { serializeItems } from './serialize.ts';
import { listTrendingItems } from './trending.ts';

/** One trending page as sent: its items already in GIPHY's JSON. */
export interface TrendingPage {
  /** `data`, serialised. */
  dataJson: string;
  count: number;
  totalCount: number;
}

interface CachedPage extends TrendingPage {
  version: number;
}

/** Pages kept per database (tests run many apps in one process). */
const cacheByDatabase = new WeakMap<DatabaseHandle, Map<string, CachedPage>>();
/** Enough for every page people scroll to in a few types and ratings; oldest dropped first. */
const maxPages = 500;

async function readCatalogVersion(deps: CatalogDeps): Promise<number | undefined> {
  const [row] = await deps.database.db
    .select({ version: catalogVersion.version })
    .from(catalogVersion);
  return row?.version;
}

/**
 * A trending page, from memory while the catalog has not changed. Trending is the same for
 * everyone and the most requested list; serialising 25 items with their renditions costs far
 * more than the one-row read that tells whether anything changed (catalog_version moves with
 * every committed change to items, renditions or creators, in any process). The version is
 * read before the page, so a page is never kept under a version newer than its rows.
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
  let pages = cacheByDatabase.get(deps.database);
  if (!pages) {
    pages = new Map();
    cacheByDatabase.set(deps.database, pages);
  }
  const version = await readCatalogVersion(deps);
  const cached = pages.get(key);
  if (cached && version !== undefined && cached.version === version) return cached;

  const page = await listTrendingItems(deps, options);
  const data = await serializeItems(deps, page.rows);
  const fresh: TrendingPage = {
    dataJson: JSON.stringify(data),
    count: data.length,
    totalCount: page.totalCount,
  };
  if (version !== undefined) {
    pages.delete(key);
    pages.set(key, { ...fresh, version });
    if (pages.size > maxPages) pages.delete(pages.keys().next().value!);
  }
  return fresh;
}
