import type { Rating, SearchSort } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { searchQueries } from '../../db/schema.ts';
import { appendAnimatedQuery } from '../text/text-search.ts';
import { listableItemsSql, loadItemsByIds } from './items.ts';
import type { CatalogDeps, CatalogItemRow, ItemType, Page } from './items.ts';

export interface SearchOptions {
  q: string;
  /** Undefined searches every type (used by the search-quality benchmark). */
  types?: readonly ItemType[];
  rating?: Rating;
  sort?: SearchSort;
  limit: number;
  offset: number;
}

/** How a query is matched; see `buildSearchQuery`. */
export interface PreparedQuery {
  /** Lower case, spaces collapsed: what tags and titles are compared with. */
  normalized: string;
  /** The query without its last word when that word is still being typed, else the query. */
  head: string;
  /** The last word, matched as a prefix (`danc` → dance, dancing), or '' when complete. */
  partial: string;
}

/**
 * Splits off the word being typed: a query that does not end in a space, a closing quote or
 * punctuation has its last word matched as a prefix too.
 */
export function prepareQuery(q: string): PreparedQuery {
  const normalized = q.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const quoteCount = (normalized.match(/"/g) ?? []).length;
  const last = /([\p{L}\p{N}]+)$/u.exec(normalized);
  const isTyping = last !== null && quoteCount % 2 === 0 && !/\s$/.test(q);
  if (!isTyping) return { normalized, head: normalized, partial: '' };
  return { normalized, head: normalized.slice(0, last.index), partial: last[1]! };
}

/**
 * Relevance, as one statement. Matching (any of):
 * - `exact`: websearch_to_tsquery over exact words (title A > tags B > alt text C);
 * - `prefix`: the same with the last word as a prefix while it is being typed;
 * - `stem`: English stems, so "cats dancing" finds "dancing cat";
 * - `fuzzy`: each query word missing from the catalog's words replaced by up to three words
 *   one edit away (search_term_variants: swaps, missing, extra or wrong letters) or close by
 *   trigrams (pg_trgm), so "dacning cat" finds dancing cats.
 * Score: weighted ts_rank of each (exact highest), plus a bonus when the title or a tag is the
 * whole query (as typed or corrected), the tag's small enough that a title match still wins;
 * ties by popularity (trend_score), then id.
 */
function rankedMatchesSql(query: PreparedQuery, filter: ReturnType<typeof listableItemsSql>) {
  const { normalized, head, partial } = query;
  const exact = sql`websearch_to_tsquery('sticky_simple', ${normalized})`;
  // Spelled out (not read from a CTE) so the planner sees constants and uses the GIN indexes.
  const prefix = partial
    ? sql`(websearch_to_tsquery('sticky_simple', ${head}) && to_tsquery('sticky_simple', quote_literal(${partial}) || ':*'))`
    : exact;
  const stem = partial
    ? sql`(websearch_to_tsquery('sticky_english', ${head}) && to_tsquery('sticky_english', quote_literal(${partial}) || ':*'))`
    : sql`websearch_to_tsquery('sticky_english', ${normalized})`;
  return sql`
    WITH words AS (
      SELECT lexeme AS word, positions[1] AS position
      FROM unnest(to_tsvector('sticky_simple', ${normalized}))
    ), corrections AS (
      SELECT word, position,
        CASE WHEN length(word) < 4 OR known.term IS NOT NULL THEN ARRAY[]::text[]
          ELSE ARRAY(
            SELECT term FROM (
              SELECT term, true AS is_one_edit FROM search_term_variants
              WHERE variant = ANY (ARRAY(
                SELECT word UNION ALL
                SELECT overlay(word PLACING '' FROM k FOR 1) FROM generate_series(1, length(word)) k))
              UNION ALL
              SELECT term, false FROM search_terms WHERE term % word
            ) candidates
            GROUP BY term
            ORDER BY bool_or(is_one_edit) DESC,
              (length(term) = length(word) AND
                array(SELECT unnest(string_to_array(term, NULL)) ORDER BY 1)
                = array(SELECT unnest(string_to_array(word, NULL)) ORDER BY 1)) DESC,
              similarity(term, word) DESC, term
            LIMIT 3)
        END AS alternatives
      FROM words LEFT JOIN search_terms known ON known.term = words.word
    ), q AS (
      SELECT
        (SELECT string_agg(quote_literal(coalesce(alternatives[1], word)), ' & ')::tsquery
          FROM corrections HAVING bool_or(cardinality(alternatives) > 0)) AS best,
        (SELECT string_agg('(' || array_to_string(ARRAY(
            SELECT quote_literal(t) FROM unnest(word || alternatives) t), ' | ') || ')', ' & ')::tsquery
          FROM corrections HAVING bool_or(cardinality(alternatives) > 0)) AS fuzzy,
        (SELECT string_agg(coalesce(alternatives[1], word), ' ' ORDER BY position)
          FROM corrections HAVING bool_or(cardinality(alternatives) > 0)) AS corrected
    ), candidates AS (
      -- One index scan each: the planner will not combine these ORs through the GIN indexes.
      SELECT id FROM items WHERE search_vector @@ ${exact}
      UNION SELECT id FROM items WHERE search_vector @@ ${prefix}
      UNION SELECT id FROM items WHERE search_vector_stem @@ ${stem}
      UNION SELECT id FROM items WHERE search_vector @@ (SELECT fuzzy FROM q)
    )
    SELECT i.id, i.trend_score, i.created_at,
      ts_rank(i.search_vector, ${exact})
      + ts_rank(i.search_vector, ${prefix}) * 0.6
      + ts_rank(i.search_vector_stem, ${stem}) * 0.4
      + coalesce(ts_rank(i.search_vector, q.best), 0) * 0.5
      + coalesce(ts_rank(i.search_vector, q.fuzzy), 0) * 0.2
      + CASE WHEN i.tags && ARRAY[${normalized}, q.corrected] THEN 0.05 ELSE 0 END
      + CASE WHEN lower(i.title) IN (${normalized}, q.corrected) THEN 0.3 ELSE 0 END AS score
    FROM candidates JOIN items i ON i.id = candidates.id, q
    WHERE ${filter}`;
}

/** Matching ids for one page, best first, with the exact number of matches. */
export async function searchItemIds(
  deps: CatalogDeps,
  options: SearchOptions,
): Promise<Page<string>> {
  const query = prepareQuery(options.q);
  if (query.normalized === '') return { rows: [], totalCount: 0 };
  const filter = listableItemsSql('i', { types: options.types, rating: options.rating });
  const order =
    options.sort === 'recent' ? sql`created_at DESC, id` : sql`score DESC, trend_score DESC, id`;
  const result = await deps.database.db.execute<{ id: string; total: string }>(sql`
    SELECT id, count(*) OVER () AS total
    FROM (${rankedMatchesSql(query, filter)}) matches
    ORDER BY ${order}
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  const ids = result.rows.map((row) => row.id);
  if (ids.length > 0) return { rows: ids, totalCount: Number(result.rows[0]!.total) };
  if (options.offset === 0) return { rows: [], totalCount: 0 };
  // Past the last page: the window count has no row to ride on, so count on its own.
  const counted = await deps.database.db.execute<{ total: string }>(sql`
    SELECT count(*) AS total FROM (${rankedMatchesSql(query, filter)}) matches`);
  return { rows: [], totalCount: Number(counted.rows[0]?.total ?? 0) };
}

/** A page of search results (item rows in rank order) for one set of types. */
export async function searchItems(
  deps: CatalogDeps,
  options: SearchOptions,
): Promise<Page<CatalogItemRow>> {
  const page = await searchItemIds(deps, options);
  return { rows: await loadItemsByIds(deps, page.rows), totalCount: page.totalCount };
}

/**
 * `text/search`: animated-text items of the catalog. Kept apart from the other types so
 * on-the-fly renderings of the query can be added to this branch alone.
 */
export async function searchTextItems(
  deps: CatalogDeps,
  options: Omit<SearchOptions, 'types'>,
): Promise<Page<CatalogItemRow>> {
  return appendAnimatedQuery(
    deps,
    options,
    await searchItems(deps, { ...options, types: ['text'] }),
  );
}

/**
 * Counts a search for `trending/searches`: once per normalised query and day, and only the
 * first page of a search that found something (typos and later pages are not interest).
 */
export async function recordSearchQuery(deps: CatalogDeps, q: string): Promise<void> {
  const normalized = prepareQuery(q).normalized;
  if (normalized === '') return;
  await deps.database.db
    .insert(searchQueries)
    .values({ query: normalized, day: sql`(now() AT TIME ZONE 'utc')::date`, count: 1 })
    .onConflictDoUpdate({
      target: [searchQueries.query, searchQueries.day],
      set: { count: sql`${searchQueries.count} + 1` },
    });
}
