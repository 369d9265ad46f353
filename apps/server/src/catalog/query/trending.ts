import type { Rating } from '@sticky/contracts';
import { ratingsUpTo } from '@sticky/contracts';
import { and, asc, inArray, sql } from 'drizzle-orm';
import { catalogCounts, items } from '../../db/schema.ts';
import { catalogItemColumns, listableItems, listableItemsSql } from './items.ts';
import type { CatalogDeps, CatalogItemRow, ItemType, Page } from './items.ts';

/**
 * Trending is a time-decayed sum of events: each event adds weight × 2^(−age / half-life).
 * Decaying every row as time passes would mean rewriting the table; instead each increment is
 * scaled by 2^((t − epoch) / half-life) when it is recorded, which orders items exactly as the
 * decayed sums would at any moment. The sums grow without bound, so `trend_score` stores their
 * natural logarithm: ln(Σ wᵢ·e^{(tᵢ − epoch)/τ}), updated with a log-sum-exp, and 0 when the item
 * has no event (every event since the epoch scores above 0).
 */
export const trendHalfLifeDays = 3;
const trendEpochSeconds = Date.UTC(2025, 0, 1) / 1000;
const tauSeconds = (trendHalfLifeDays * 86_400) / Math.LN2;

/** The trend_score of an item with `weight` worth of events at `at` (the starter catalog's). */
export function trendScoreFor(weight: number, at: Date = new Date()): number {
  return Math.log(weight) + (at.getTime() / 1000 - trendEpochSeconds) / tauSeconds;
}

export type ItemEventKind = 'view' | 'copy' | 'download' | 'favorite';

/** How much one event of each kind counts towards trending. */
export const trendWeights: Record<ItemEventKind, number> = {
  view: 1,
  copy: 3,
  download: 3,
  favorite: 5,
};

/**
 * ln(weight) + (t − epoch)/τ: one event's contribution, in trend_score's log scale, for an event
 * at `at` (the database's now() when absent).
 */
export function eventLogScoreSql(kind: ItemEventKind, at?: Date) {
  const time = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql`(${Math.log(trendWeights[kind])}::float8 + (extract(epoch FROM ${time}) - ${trendEpochSeconds}) / ${tauSeconds}::float8)`;
}

/** Trending items of these types, most popular first (then by id, so pages never overlap). */
export async function listTrendingItems(
  deps: CatalogDeps,
  options: { types: readonly ItemType[]; rating?: Rating; limit: number; offset: number },
): Promise<Page<CatalogItemRow>> {
  const { db } = deps.database;
  const where = listableItems(options);
  const [rows, counted] = await Promise.all([
    db
      .select(catalogItemColumns)
      .from(items)
      .where(where)
      // NULLS LAST as in items_type_trend_idx, so the index gives the order.
      .orderBy(sql`${items.trendScore} DESC NULLS LAST`, asc(items.id))
      .limit(options.limit)
      .offset(options.offset),
    // Kept per type and rating by triggers on items: exact, without counting the rows.
    db
      .select({ total: sql<string>`coalesce(sum(${catalogCounts.count}), 0)` })
      .from(catalogCounts)
      .where(
        and(
          inArray(catalogCounts.type, [...options.types]),
          inArray(catalogCounts.rating, ratingsUpTo(options.rating)),
        ),
      ),
  ]);
  return { rows, totalCount: Number(counted[0]?.total ?? 0) };
}

const maxTrendingSearches = 20;
/**
 * People who must have searched a query on one day (and found GIFs or stickers) before others
 * see it suggested: more than a few accounts one person holds (docs/catalog.md, "Trending").
 */
const minPeopleToTrend = 5;

/**
 * `trending/searches`: the queries most people searched in the last 7 days (each person counts
 * once per query and day: catalog/activity/search-queries.ts), then (so a young
 * instance still suggests something) the titles of the most popular items.
 */
export async function listTrendingSearches(deps: CatalogDeps): Promise<string[]> {
  const { db } = deps.database;
  const searched = await db.execute<{ query: string }>(sql`
    SELECT query FROM search_queries
    WHERE day >= (now() AT TIME ZONE 'utc')::date - 6
    GROUP BY query HAVING max(count) >= ${minPeopleToTrend}
    ORDER BY sum(count) DESC, query
    LIMIT ${maxTrendingSearches}`);
  const terms = searched.rows.map((row) => row.query);
  if (terms.length < maxTrendingSearches) {
    const popular = await db.execute<{ title: string }>(sql`
      SELECT lower(i.title) AS title FROM items i
      WHERE ${listableItemsSql('i', { rating: 'g' })} AND length(i.title) BETWEEN 1 AND 50
      ORDER BY i.trend_score DESC, i.id
      LIMIT ${maxTrendingSearches * 2}`);
    for (const { title } of popular.rows) {
      if (terms.length >= maxTrendingSearches) break;
      if (!terms.includes(title)) terms.push(title);
    }
  }
  return terms;
}
