import type { Rating, SearchSort } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps, ItemType, Page } from './items.ts';
import type { QueryDeps } from './query-caches.ts';

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

/** Query words missing from the catalog, replaced by catalog words close to them. */
interface Corrections {
  /** Each unknown word replaced by its best candidate (tsquery text). */
  best: string;
  /** Each unknown word OR'ed with up to three candidates (tsquery text). */
  fuzzy: string;
  /** The query with each unknown word replaced by its best candidate. */
  corrected: string;
}

/**
 * Typo tolerance: every query word of 4+ letters that no item contains is matched to up to
 * three words of the catalog (search_terms): first those one edit away (a swap, a missing,
 * extra or wrong letter, found through search_term_variants), swaps first, then those close by
 * trigrams (pg_trgm). Undefined when every word is known or nothing is close.
 */
async function correctQuery(
  deps: CatalogDeps,
  normalized: string,
): Promise<Corrections | undefined> {
  const { db } = deps.database;
  const words = await db.execute<{ word: string; is_known: boolean }>(sql`
    SELECT lexeme AS word, EXISTS (SELECT 1 FROM search_terms WHERE term = lexeme) AS is_known
    FROM unnest(to_tsvector('sticky_simple', ${normalized}))
    ORDER BY positions[1]`);
  const unknown = words.rows.filter((row) => !row.is_known && [...row.word].length >= 4);
  // Most queries are spelt right: nothing more to do.
  if (unknown.length === 0) return undefined;
  const alternatives = new Map(
    await Promise.all(
      unknown.map(async ({ word }) => [word, await findCloseTerms(deps, word)] as const),
    ),
  );
  if ([...alternatives.values()].every((terms) => terms.length === 0)) return undefined;
  const lexeme = (term: string) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const parts = words.rows.map(({ word }) => ({ word, close: alternatives.get(word) ?? [] }));
  return {
    best: parts.map(({ word, close }) => lexeme(close[0] ?? word)).join(' & '),
    fuzzy: parts
      .map(({ word, close }) => `(${[word, ...close].map(lexeme).join(' | ')})`)
      .join(' & '),
    corrected: parts.map(({ word, close }) => close[0] ?? word).join(' '),
  };
}

/**
 * Up to three catalog words close to `word`: one edit away first (they share a variant), a
 * swap of two letters before other edits, then by trigram similarity. `word` is a constant of
 * the statement so the trigram search can use its GIN index.
 */
async function findCloseTerms(deps: CatalogDeps, word: string): Promise<string[]> {
  const letters = [...word];
  const variants = [
    word,
    ...letters.map((_, index) =>
      [...letters.slice(0, index), ...letters.slice(index + 1)].join(''),
    ),
  ];
  const result = await deps.database.db.execute<{ term: string }>(sql`
    SELECT term FROM (
      SELECT term, true AS is_one_edit FROM search_term_variants
      WHERE variant IN (${sql.join(
        variants.map((variant) => sql`${variant}`),
        sql`, `,
      )})
      UNION ALL
      SELECT term, false FROM search_terms WHERE term % ${word}
    ) candidates
    GROUP BY term
    ORDER BY bool_or(is_one_edit) DESC,
      (length(term) = length(${word}) AND
        array(SELECT unnest(string_to_array(term, NULL)) ORDER BY 1)
        = array(SELECT unnest(string_to_array(${word}, NULL)) ORDER BY 1)) DESC,
      similarity(term, ${word}) DESC, term
    LIMIT 3`);
  return result.rows.map((row) => row.term);
}

/**
 * Relevance. Matching (any of):
 * - `exact`: websearch_to_tsquery over exact words (title A > tags B > alt text C);
 * - `prefix`: the same with the last word as a prefix while it is being typed;
 * - `stem`: English stems, so "cats dancing" finds "dancing cat";
 * - `fuzzy`: unknown words replaced by close catalog words (see correctQuery), so
 *   "dacning cat" finds dancing cats.
 * Score: weighted ts_rank of each (exact highest), plus a bonus when the title or a tag is the
 * whole query (as typed or corrected), the tag's small enough that a title match still wins;
 * ties by popularity (trend_score), then id. Every tsquery is a constant of the statement, so
 * the planner ORs one GIN index scan per kind of match into one bitmap and reads each matching
 * row once, scoring it in the same pass (a UNION of ids joined back to items read the matches
 * twice and, past a few thousand matches, the whole table: 10× slower at 100k items).
 */
function rankedMatchesSql(
  query: PreparedQuery,
  corrections: Corrections | undefined,
  filter: ReturnType<typeof listableItemsSql>,
) {
  const { normalized, head, partial } = query;
  const exact = sql`websearch_to_tsquery('sticky_simple', ${normalized})`;
  const prefix = partial
    ? sql`(websearch_to_tsquery('sticky_simple', ${head}) && to_tsquery('sticky_simple', quote_literal(${partial}) || ':*'))`
    : exact;
  const stem = partial
    ? sql`(websearch_to_tsquery('sticky_english', ${head}) && to_tsquery('sticky_english', quote_literal(${partial}) || ':*'))`
    : sql`websearch_to_tsquery('sticky_english', ${normalized})`;
  const fuzzy = corrections ? sql`${corrections.fuzzy}::tsquery` : undefined;
  const best = corrections ? sql`${corrections.best}::tsquery` : undefined;
  const wholeQuery = sql`ARRAY[${sql.join(
    (corrections ? [normalized, corrections.corrected] : [normalized]).map((text) => sql`${text}`),
    sql`, `,
  )}]::text[]`;
  const matchers = [
    sql`i.search_vector @@ ${exact}`,
    ...(partial ? [sql`i.search_vector @@ ${prefix}`] : []),
    sql`i.search_vector_stem @@ ${stem}`,
    ...(fuzzy ? [sql`i.search_vector @@ ${fuzzy}`] : []),
  ];
  return sql`
    SELECT i.id, i.trend_score, i.created_at,
      ts_rank(i.search_vector, ${exact})
      + ts_rank(i.search_vector, ${prefix}) * 0.6
      + ts_rank(i.search_vector_stem, ${stem}) * 0.4
      ${best && fuzzy ? sql`+ ts_rank(i.search_vector, ${best}) * 0.5 + ts_rank(i.search_vector, ${fuzzy}) * 0.2` : sql``}
      + CASE WHEN i.tags && ${wholeQuery} THEN 0.05 ELSE 0 END
      + CASE WHEN lower(i.title) = ANY (${wholeQuery}) THEN 0.3 ELSE 0 END AS score
    FROM items i
    WHERE (${sql.join(matchers, sql` OR `)}) AND ${filter}`;
}

/** How many of a query's best matches are kept: the first ten pages of 25. */
export const rankedIdsKept = 250;

/**
 * Matching ids for one page, best first, with the exact number of matches. A query's first
 * `rankedIdsKept` ids are ranked at once and kept while the catalog is unchanged: ranking reads
 * every match (a broad word matches thousands of items), so the next pages of an infinite
 * scroll, and everyone else searching the same words, are served from memory. Deeper pages
 * are ranked through the app's deep-page gate (deep-pages.ts): a few at once, each page once
 * however many ask for it.
 */
export async function searchItemIds(
  deps: QueryDeps,
  options: SearchOptions,
): Promise<Page<string>> {
  const query = prepareQuery(options.q);
  if (query.normalized === '') return { rows: [], totalCount: 0 };
  const end = options.offset + options.limit;
  const key = JSON.stringify([options.types ?? null, options.rating ?? null, options.sort, query]);
  const versions = await deps.services.versions.read();
  if (end > rankedIdsKept) {
    // A kept ranking that holds every match, or fewer than the offset, answers it too.
    const kept = deps.services.searchRankings.get(key, versions);
    if (kept && (kept.totalCount <= rankedIdsKept || options.offset >= kept.totalCount)) {
      return { rows: kept.rows.slice(options.offset, end), totalCount: kept.totalCount };
    }
    return deps.services.deepRankings.getOrMake(
      JSON.stringify(['search', key, options.offset, options.limit]),
      versions,
      () => deps.services.deepPages.run(() => rankPage(deps, query, options)),
    );
  }
  const ranking = await deps.services.searchRankings.getOrMake(key, versions, () =>
    rankPage(deps, query, { ...options, limit: rankedIdsKept, offset: 0 }),
  );
  return { rows: ranking.rows.slice(options.offset, end), totalCount: ranking.totalCount };
}

async function rankPage(
  deps: CatalogDeps,
  query: PreparedQuery,
  options: SearchOptions,
): Promise<Page<string>> {
  const filter = listableItemsSql('i', { types: options.types, rating: options.rating });
  const corrections = await correctQuery(deps, query.normalized);
  const matches = rankedMatchesSql(query, corrections, filter);
  const order =
    options.sort === 'recent' ? sql`created_at DESC, id` : sql`score DESC, trend_score DESC, id`;
  const result = await deps.database.db.execute<{ id: string; total: string }>(sql`
    SELECT id, count(*) OVER () AS total FROM (${matches}) matches
    ORDER BY ${order}
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  const ids = result.rows.map((row) => row.id);
  if (ids.length > 0) return { rows: ids, totalCount: Number(result.rows[0]!.total) };
  if (options.offset === 0) return { rows: [], totalCount: 0 };
  // Past the last page: the window count has no row to ride on, so count on its own.
  const counted = await deps.database.db.execute<{ total: string }>(
    sql`SELECT count(*) AS total FROM (${matches}) matches`,
  );
  return { rows: [], totalCount: Number(counted.rows[0]?.total ?? 0) };
}
