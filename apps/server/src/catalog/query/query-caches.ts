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
import type { VersionedCacheOptions } from './versioned-cache.ts';

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

/**
 * How long a ranking, or a page made of one, that does not hold an edited item is still served
 * after the edit (docs/catalog.md, "Caches and versions"): the new text may make the item
 * belong to it. Those holding the item go at once.
 */
export const unheldRankingMaxAgeMs = 10_000;

/**
 * The ids of a ranking its cache looks up by: its first four pages of 25, which people see.
 * An edit of an item further down leaves the ranking as unheld ones are (at its old place for
 * at most `unheldRankingMaxAgeMs`), and the ids looked up by stay a few hundred thousand.
 */
export const rankingIdsIndexed = 100;

/** The ids a ranking (or a page of one) is dropped by: its first ones, and whose related it is. */
export function rankingItemIdsOf(page: Page<string>, relatedTo?: string): readonly string[] {
  const ids = page.rows.slice(0, rankingIdsIndexed);
  return relatedTo === undefined ? ids : [...ids, relatedTo];
}

/** The item a related ranking's key names (related.ts: its first part). */
function relatedItemOfKey(key: string): string {
  return String((JSON.parse(key) as unknown[])[0]);
}

/** The item a deep page's key names, if it is a related one (search.ts, related.ts). */
function relatedItemOfDeepKey(key: string): string | undefined {
  const [kind, rankingKey] = JSON.parse(key) as unknown[];
  return kind === 'related' ? relatedItemOfKey(String(rankingKey)) : undefined;
}

/** Options of a cache of rankings, or of pages made of them (routes/v1, routes/v2). */
export function rankingCacheOptions<V extends { itemChanges?: number }>(
  itemChanges: ItemChanges,
): Pick<VersionedCacheOptions<V>, 'itemChanges' | 'unheldMaxAgeMs' | 'itemChangesOf'> {
  return {
    itemChanges,
    unheldMaxAgeMs: unheldRankingMaxAgeMs,
    itemChangesOf: (page) => page.itemChanges,
  };
}

export function createQueryCaches(
  database: DatabaseHandle,
  options: QueryCacheOptions,
): QueryCaches & { close: () => void } {
  const itemChanges = new ItemChanges(options.now);
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
      ...rankingCacheOptions(itemChanges),
      itemIdsOf: (ranking) => rankingItemIdsOf(ranking),
    }),
    relatedRankings: new VersionedCache<Ranking>({
      maxEntries: 2_000,
      ...slow,
      ...counted('related_rankings'),
      ...rankingCacheOptions(itemChanges),
      itemIdsOf: (ranking, key) => rankingItemIdsOf(ranking, relatedItemOfKey(key)),
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
      ...rankingCacheOptions(itemChanges),
      itemIdsOf: (page, key) => rankingItemIdsOf(page, relatedItemOfDeepKey(key)),
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
