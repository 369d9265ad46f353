import type { Rating } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps, ItemType, Page } from './items.ts';
import type { QueryDeps } from './query-caches.ts';

/**
 * Ids of the items related to one item: those sharing the most tags with it, then the most title words
 * (English stems, so "dancing" meets "dance"), then the most popular; never the item itself.
 * Candidates share at least one tag, or a title word anywhere in their search text.
 * Per candidate (tens of thousands in a large catalog) only cheap work: the source item is
 * read once (MATERIALIZED, not re-derived per row), a candidate's title words are the
 * title-weighted (A) lexemes its search_vector_stem already holds (no re-parsing of titles),
 * and shared tags and words are counted rather than intersected: the same ranking, 2–3×
 * faster at 100k items. Still, every candidate is read, so an item's first ids are kept while
 * the catalog is unchanged: a popular item's page is seen by many.
 */
export async function listRelatedItemIds(
  deps: QueryDeps,
  options: RelatedOptions,
): Promise<Page<string>> {
  const end = options.offset + options.limit;
  const key = JSON.stringify([options.itemId, options.types, options.rating ?? null]);
  const versions = await deps.services.versions.read();
  if (end > relatedIdsKept) {
    // Past the kept ids: through the app's deep-page gate (deep-pages.ts), each page once.
    const kept = deps.services.relatedRankings.get(key, versions);
    if (kept && (kept.totalCount <= relatedIdsKept || options.offset >= kept.totalCount)) {
      return { rows: kept.rows.slice(options.offset, end), totalCount: kept.totalCount };
    }
    return deps.services.deepRankings.getOrMake(
      JSON.stringify(['related', key, options.offset, options.limit]),
      versions,
      () => deps.services.deepPages.run(() => rankRelatedIds(deps, options)),
    );
  }
  const ranking = await deps.services.relatedRankings.getOrMake(key, versions, () =>
    rankRelatedIds(deps, { ...options, limit: relatedIdsKept, offset: 0 }),
  );
  return { rows: ranking.rows.slice(options.offset, end), totalCount: ranking.totalCount };
}

interface RelatedOptions {
  itemId: string;
  types: readonly ItemType[];
  rating?: Rating;
  limit: number;
  offset: number;
}

/** The first four pages of 15 (the item page's related row) are ranked at once and kept. */
export const relatedIdsKept = 60;

async function rankRelatedIds(deps: CatalogDeps, options: RelatedOptions): Promise<Page<string>> {
  const { db } = deps.database;
  const source = await db.execute<{ id: string }>(
    sql`SELECT id FROM items WHERE id = ${options.itemId}`,
  );
  if (source.rows.length === 0) {
    throw new AppError('not_found', `No item with gif_id ${options.itemId}`);
  }
  const filter = listableItemsSql('i', options);
  const ranked = sql`
    WITH source AS MATERIALIZED (
      SELECT id, tags,
        tsvector_to_array(to_tsvector('sticky_english', title)) AS title_words,
        replace(plainto_tsquery('sticky_english', title)::text, ' & ', ' | ') AS title_query
      FROM items WHERE id = ${options.itemId}
    )
    SELECT i.id, i.trend_score,
      (SELECT count(DISTINCT t) FROM unnest(i.tags) t WHERE t = ANY (source.tags)) AS shared_tags,
      (SELECT count(*) FROM unnest(tsvector_to_array(ts_filter(i.search_vector_stem, '{a}'))) w
        WHERE w = ANY (source.title_words)) AS shared_words
    FROM items i, source
    WHERE i.id <> source.id AND ${filter}
      AND (i.tags && source.tags
        OR (source.title_query <> '' AND i.search_vector_stem @@ source.title_query::tsquery))`;
  const result = await db.execute<{ id: string; total: string }>(sql`
    SELECT id, count(*) OVER () AS total FROM (${ranked}) related
    ORDER BY shared_tags DESC, shared_words DESC, trend_score DESC, id
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  let totalCount = Number(result.rows[0]?.total ?? 0);
  if (result.rows.length === 0 && options.offset > 0) {
    const counted = await db.execute<{ total: string }>(
      sql`SELECT count(*) AS total FROM (${ranked}) related`,
    );
    totalCount = Number(counted.rows[0]?.total ?? 0);
  }
  return { rows: result.rows.map((row) => row.id), totalCount };
}
