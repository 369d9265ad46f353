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

/** The catalog version as last announced; undefined while not listening. */
interface VersionWatch {
  version: number | undefined;
}

const watchByDatabase = new WeakMap<DatabaseHandle, VersionWatch>();
const versionChannel = 'sticky_catalog_version';

/**
 * Keeps catalog_version in memory from its notifications (migration 0007), so a cached page
 * costs no database round trip. Until the listener is connected, and whenever its connection
 * is lost (notifications may have been missed), the version is read from the table instead.
 * A notification arrives a moment after its commit: for that moment a cached page may still be
 * served, as any reader that started just before the commit would have seen it.
 */
function watchCatalogVersion(database: DatabaseHandle): VersionWatch {
  const existing = watchByDatabase.get(database);
  if (existing) return existing;
  const state: VersionWatch = { version: undefined };
  watchByDatabase.set(database, state);
  let isListening = false;
  // Versions only grow: the newest seen, kept even while not listening, because one announced
  // between LISTEN and the read below may be newer than what that read saw.
  let newestSeen: number | undefined;
  const see = (version: number) => {
    newestSeen = Math.max(version, newestSeen ?? version);
    if (isListening) state.version = newestSeen;
  };
  database.notifications.listen(versionChannel, {
    onListening: async (client) => {
      const { rows } = await client.query<{ version: string }>(
        'SELECT version FROM catalog_version',
      );
      isListening = true;
      if (rows[0] !== undefined) see(Number(rows[0].version));
    },
    onNotification: (payload) => {
      const announced = Number(payload);
      if (Number.isSafeInteger(announced)) see(announced);
    },
    onLost: () => {
      isListening = false;
      state.version = undefined;
    },
  });
  return state;
}

async function readCatalogVersion(deps: CatalogDeps): Promise<number | undefined> {
  const announced = watchCatalogVersion(deps.database).version;
  if (announced !== undefined) return announced;
  const [row] = await deps.database.db
    .select({ version: catalogVersion.version })
    .from(catalogVersion);
  return row?.version;
}

/**
 * A trending page, from memory while the catalog has not changed. Trending is the same for
 * everyone and the most requested list; serialising 25 items with their renditions costs far
 * more than knowing whether anything changed: catalog_version moves with every committed change
 * to items, renditions or creators, in any process, and is announced when it does (see
 * watchCatalogVersion). The version is taken before the page is read, so a page is never kept
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
