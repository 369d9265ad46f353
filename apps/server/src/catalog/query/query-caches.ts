import type { DatabaseHandle } from '../../db/client.ts';
import { watchCatalogVersions } from './catalog-versions.ts';
import type { VersionWatch } from './catalog-versions.ts';
import { createDeepPageGate } from './deep-pages.ts';
import { ItemChanges } from './item-changes.ts';
import { createPopularityScales } from './popularity-slices.ts';
import type { PopularityScales } from './popularity-slices.ts';
import type { DeepPageGate } from './deep-pages.ts';
import type { CatalogDeps, Page, Ranking } from './items.ts';
import type { ItemDocumentWriter } from './item-documents.ts';
import { VersionedCache } from './versioned-cache.ts';

/** `data` already serialized: an array's JSON holding `count` items. */
export interface SerializedItems {
  json: string;
  count: number;
}

/** One trending page as sent: its items already in GIPHY's JSON. */
export interface TrendingPage {
  data: SerializedItems;
  totalCount: number;
  /** Its items: an edit of one of them drops the page (docs/catalog.md, "Caches and versions"). */
  itemIds: readonly string[];
}

/**
 * What the catalog's reads keep in memory, per app (docs/catalog.md, "Caches and versions"):
 * created with the app, emptied and unsubscribed when it closes.
 */
export interface QueryCaches {
  versions: VersionWatch;
  /** Edits of items' text heard (item-changes.ts): each kept answer drops what they touch. */
  itemChanges: ItemChanges;
  /** Items as sent, about 4 KB each: about 20 MB. */
  itemJson: VersionedCache<string>;
  /** A query's first blocks, at least `rankedIdsKept` ids (search.ts), and how many match. */
  searchRankings: VersionedCache<Ranking>;
  /** An item's first related ids (related.ts). */
  relatedRankings: VersionedCache<Ranking>;
  /** Enough for every page people scroll to in a few types and ratings. */
  trendingPages: VersionedCache<TrendingPage>;
  /** Pages past the kept rankings: a few at once, each made once however many ask. */
  deepPages: DeepPageGate;
  deepRankings: VersionedCache<Page<string>>;
  /** Where items stand by popularity and age: how rankings slice the catalog (search.ts). */
  popularityScales: PopularityScales;
}

/** A catalog read that may serve kept answers. */
export interface QueryDeps extends CatalogDeps {
  /** With the writer of items' documents kept in the database (item-documents.ts). */
  services: QueryCaches & { itemDocuments: ItemDocumentWriter };
}

export interface QueryCacheOptions {
  /** How long a trending page is served after popularity moved (0: follows at once). */
  trendingMaxAgeMs: number;
  now?: () => number;
  /** A counter of each cache's hits and misses, by its name (docs/operations.md, "Metrics"). */
  countLookupsOf?: (cache: string) => (isHit: boolean) => void;
}

/**
 * Search and related rankings break ties by popularity, and item JSON shows when an item
 * started trending: they follow popularity too, but slowly, so counting views and favorites
 * never keeps them cold.
 */
export const slowPopularityMaxAgeMs = 10 * 60_000;

export function createQueryCaches(
  database: DatabaseHandle,
  options: QueryCacheOptions,
): QueryCaches & { close: () => void } {
  const itemChanges = new ItemChanges();
  const slow = { popularityMaxAgeMs: slowPopularityMaxAgeMs, now: options.now, itemChanges };
  const counted = (cache: string) => ({ onLookup: options.countLookupsOf?.(cache) });
  const caches: QueryCaches = {
    versions: watchCatalogVersions(database, itemChanges),
    itemChanges,
    itemJson: new VersionedCache<string>({
      maxEntries: 5_000,
      ...slow,
      ...counted('item_json'),
      itemIdsOf: (_json, id) => [id],
    }),
    searchRankings: new VersionedCache<Ranking>({
      maxEntries: 1_000,
      ...slow,
      ...counted('search_rankings'),
    }),
    relatedRankings: new VersionedCache<Ranking>({
      maxEntries: 2_000,
      ...slow,
      ...counted('related_rankings'),
    }),
    trendingPages: new VersionedCache<TrendingPage>({
      maxEntries: 500,
      popularityMaxAgeMs: options.trendingMaxAgeMs,
      now: options.now,
      ...counted('trending_pages'),
      itemChanges,
      itemIdsOf: (page) => page.itemIds,
    }),
    deepPages: createDeepPageGate({ concurrency: 2, maxWaiting: 64 }),
    deepRankings: new VersionedCache<Page<string>>({
      maxEntries: 200,
      ...slow,
      ...counted('deep_rankings'),
    }),
    popularityScales: createPopularityScales({ now: options.now }),
  };
  return {
    ...caches,
    close: () => {
      caches.versions.close();
      caches.popularityScales.clear();
      for (const cache of [
        caches.itemJson,
        caches.searchRankings,
        caches.relatedRankings,
        caches.trendingPages,
        caches.deepRankings,
      ]) {
        cache.clear();
      }
    },
  };
}
