import { itemTypeSchema } from '@sticky/contracts';
import type pg from 'pg';
import { bindDatabase } from '../db/client.ts';
import { readItemDocuments } from './query/item-documents.ts';
import type { ItemType, Ranking } from './query/items.ts';
import type { QueryDeps } from './query/query-caches.ts';
import { readSourceLists } from './query/related-lists.ts';
import { searchItemIds } from './query/search.ts';
import { VersionedCache } from './query/versioned-cache.ts';

/** A common word: the warm-up search takes a usual search's path (a slice by its stem). */
const warmUpQuery = 'happy';

/**
 * Opens `count` of the pool's connections at once and runs on each what a cold search and a
 * cold related page run, of one type each (docs/scaling.md, "Connections"): a new connection's
 * first statements take about 8 ms more at a million items while PostgreSQL loads the
 * catalog's tables, indexes and text search dictionaries into that backend's caches, and the
 * catalog's fixed statements are prepared on it (db/prepared.ts). With the pool keeping that
 * many (`keptConnections`), the first requests after a start, or after a quiet hour, find
 * them ready. The popularity scales of the types searched are made on the way. Nothing it ranks is
 * kept: its searches have caches of their own.
 */
export async function warmCatalogConnections(deps: QueryDeps, count: number): Promise<void> {
  const connecting = await Promise.allSettled(
    Array.from({ length: count }, () => deps.database.pool.connect()),
  );
  const clients = connecting.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  try {
    // The ones that did connect go back to the pool whatever failed.
    const failed = connecting.find(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    if (failed) throw failed.reason;
    // One type each, in turn: any search loads the items' tables and every index of theirs
    // into a backend's caches, and a type's popularity scale is made once for all.
    const types = itemTypeSchema.options;
    await Promise.all(
      clients.map((client, index) => warmConnection(deps, client, types[index % types.length]!)),
    );
  } finally {
    for (const client of clients) client.release();
  }
}

async function warmConnection(
  deps: QueryDeps,
  client: pg.PoolClient,
  type: ItemType,
): Promise<void> {
  const database = bindDatabase(deps.database, client);
  const bound: QueryDeps = {
    ...deps,
    database,
    services: {
      ...deps.services,
      searchRankings: new VersionedCache<Ranking>({ maxEntries: 1 }),
    },
  };
  const page = await searchItemIds(bound, { q: warmUpQuery, types: [type], limit: 25, offset: 0 });
  // Run even when nothing matched (an empty catalog): a statement is planned and prepared
  // whatever it finds.
  const ids = page.rows.length > 0 ? page.rows : [''];
  await readItemDocuments(database, deps.config, deps.services.itemDocuments.format, ids);
  await readSourceLists(bound, ids[0]!, [type]);
}
