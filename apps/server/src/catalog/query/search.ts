import type { Rating, SearchSort } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { listableItemsSql } from './items.ts';
import type { CatalogDeps, ItemType, Page, Ranking } from './items.ts';
import {
  compareIds,
  isKeyableStem,
  prefixFrequency,
  reachFor,
  readSlices,
  sliceSql,
  stemFrequency,
  stemSliceSql,
  wordFrequency,
} from './popularity-slices.ts';
import type { PopularityScale } from './popularity-slices.ts';
import type { QueryDeps } from './query-caches.ts';
import { listExpansionCandidates, queryTokenPattern, readSynonymMap } from './synonyms.ts';
import type { WordCandidates } from './synonyms.ts';
import type { CatalogVersions } from './versioned-cache.ts';
import { quoteLexeme } from './tsquery-text.ts';

export interface SearchOptions {
  q: string;
  /** Undefined searches every type (used by the search-quality benchmark). */
  types?: readonly ItemType[];
  rating?: Rating;
  sort?: SearchSort;
  limit: number;
  offset: number;
  /** False matches the query's own words only (the benchmark's "before" of synonyms). */
  isExpanded?: boolean;
}

/** How a query is matched; made by `prepareQuery`. */
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
  /** The catalog words each unknown word is matched with besides itself. */
  alternatives: ReadonlyMap<string, readonly string[]>;
}

/**
 * The query's words (lexemes, in order), whether the catalog has each, and each word's English
 * stems (what the stem matcher looks for: "birds" → bird).
 */
type QueryWord = {
  word: string;
  is_known: boolean;
  stems: string[];
};

/** What a query matches by: its words, the words it is typing, its typo corrections. */
interface QueryTerms {
  words: QueryWord[];
  completions: Completions | undefined;
  corrections: Corrections | undefined;
  /** Its words' synonyms and its emoji's keywords that the catalog has (expansionSql). */
  expansions: Expansion[];
}

/** A query word or emoji and the catalog words it also stands for. */
interface Expansion {
  token: string;
  isEmoji: boolean;
  terms: string[];
}

/** A synonym stands for at most this many catalog words sharing its stem (laugh, laughing). */
const maxTermsPerCandidate = 4;

/**
 * The catalog words each candidate stands for: words of search_terms that begin with it and
 * share its English stem ("laugh" → laugh, laughing, laughs), so a synonym the catalog lacks
 * costs one index probe and matches nothing (docs/catalog.md, "Synonyms and emoji"). One
 * index range per candidate, each bounded, in the statement that reads the query's words.
 */
function expansionTermsSql(found: readonly WordCandidates[]): SQL {
  const ranges = found.flatMap(({ candidates }, index) =>
    candidates.map(
      (candidate) => sql`(SELECT ${index}::int AS token, term FROM search_terms
        WHERE term LIKE ${`${candidate}%`}
          AND to_tsvector('sticky_english', term) @@ to_tsquery('sticky_english', ${quoteLexeme(candidate)})
        ORDER BY term LIMIT ${maxTermsPerCandidate})`,
    ),
  );
  if (ranges.length === 0) return sql`NULL`;
  return sql`(SELECT json_agg(DISTINCT jsonb_build_array(k.token, k.term)) FROM (${sql.join(
    ranges,
    sql` UNION ALL `,
  )}) k)`;
}

/**
 * ts_rank's weights {D, C, B, A}: title A 1.0, tags B 0.4, caption C 0.3, alt text D 0.2, the
 * 0.2 alt text had at C before captions took C (migration 0024, docs/catalog.md, "Search"), so
 * an item without a caption ranks as before. A constant, so the statement text stays the same.
 */
const rankWeights = sql.raw(`'{0.2, 0.3, 0.4, 1.0}'::float4[]`);

/** A word being typed is matched as at most this many catalog words; past it, as a prefix. */
const maxCompletions = 64;

/**
 * The query's words and, for the word being typed, the catalog words it begins (`danc` →
 * dance, dancer, dancing) with their English stems, from search_terms through its prefix index
 * (migration 0014), in one statement: a cold search's round trips are a fair part of its time
 * (docs/scaling.md). Matching the words begun as words lets the search index intersect each
 * with a slice of popularity tiers, where a prefix (`danc:*`) makes it collect every item of
 * every such word first, 20-90 ms for a common one at a million items (docs/catalog.md,
 * "Search"). Completions are undefined (match the prefix) when the word is not plain ASCII
 * letters and digits (its lexeme could differ from what was typed), is longer than a term can
 * be, or begins more than `maxCompletions` words.
 */
async function readQueryTerms(
  deps: CatalogDeps,
  query: PreparedQuery,
  isExpanded = true,
): Promise<QueryTerms> {
  const isCompletable = /^[a-z0-9]{1,40}$/.test(query.partial);
  const completionsSql = isCompletable
    ? sql`(SELECT json_agg(c ORDER BY c.term) FROM (
        SELECT term, tsvector_to_array(to_tsvector('sticky_english', term)) AS stems
        FROM search_terms WHERE term LIKE ${`${query.partial}%`}
        ORDER BY term LIMIT ${maxCompletions + 1}) c)`
    : sql`NULL`;
  const found = isExpanded ? listExpansionCandidates(readSynonymMap(), query.normalized) : [];
  const result = await deps.database.db.execute<{
    words: QueryWord[];
    completions: Array<{ term: string; stems: string[] }> | null;
    expansions: Array<[number, string]> | null;
  }>(sql`
    SELECT ${expansionTermsSql(found)} AS expansions,
      (SELECT coalesce(json_agg(w ORDER BY w.position), '[]') FROM (
        SELECT lexeme AS word, EXISTS (SELECT 1 FROM search_terms WHERE term = lexeme) AS is_known,
          tsvector_to_array(to_tsvector('sticky_english', lexeme)) AS stems,
          positions[1] AS position
        FROM unnest(to_tsvector('sticky_simple', ${query.normalized}))) w) AS words,
      ${completionsSql} AS completions`);
  const row = result.rows[0];
  const words = row?.words ?? [];
  const terms = row?.completions ?? [];
  const completions =
    terms.length === 0 || terms.length > maxCompletions
      ? undefined
      : {
          words: terms.map((term) => term.term),
          stems: [...new Set(terms.flatMap((term) => term.stems))],
          isEveryWordStemmed: terms.every((term) => term.stems.length > 0),
        };
  const expansions = found
    .map(({ token, isEmoji }, index) => ({
      token,
      isEmoji,
      terms: (row?.expansions ?? [])
        .filter(([at, term]) => at === index && term !== token)
        .map(([, term]) => term)
        .sort(),
    }))
    .filter((expansion) => expansion.terms.length > 0);
  return { words, completions, corrections: await correctQuery(deps, words), expansions };
}

interface Completions {
  /** The catalog words that begin with the word being typed. */
  words: string[];
  /** Their English stems (none for a stop word). */
  stems: string[];
  /** Whether each of the words has a stem: none is an English stop word ("you" for `yo`). */
  isEveryWordStemmed: boolean;
}

/**
 * Whether the stem matcher takes part: not while the word being typed begins only words
 * without stems (stop words), which leave it nothing to match.
 */
const hasStemMatcher = (completions: Completions | undefined) =>
  !completions || completions.stems.length > 0;

/**
 * Typo tolerance: every query word of 4+ letters that no item contains is matched to up to
 * three words of the catalog (search_terms): first those one edit away (a swap, a missing,
 * extra or wrong letter, found through search_term_variants), swaps first, then those close by
 * trigrams (pg_trgm). Undefined when every word is known or nothing is close.
 */
async function correctQuery(
  deps: CatalogDeps,
  words: readonly QueryWord[],
): Promise<Corrections | undefined> {
  const unknown = words.filter((row) => !row.is_known && [...row.word].length >= 4);
  // Most queries are spelt right: nothing more to do.
  if (unknown.length === 0) return undefined;
  const alternatives = new Map(
    await Promise.all(
      unknown.map(async ({ word }) => [word, await findCloseTerms(deps, word)] as const),
    ),
  );
  if ([...alternatives.values()].every((terms) => terms.length === 0)) return undefined;
  const parts = words.map(({ word }) => ({ word, close: alternatives.get(word) ?? [] }));
  return {
    best: parts.map(({ word, close }) => quoteLexeme(close[0] ?? word)).join(' & '),
    fuzzy: parts
      .map(({ word, close }) => `(${[word, ...close].map(quoteLexeme).join(' | ')})`)
      .join(' & '),
    corrected: parts.map(({ word, close }) => close[0] ?? word).join(' '),
    alternatives,
  };
}

/**
 * About the share of items a query matches, to size its first slice (popularity-slices.ts).
 * Its matchers are OR'ed (relevanceSql), so it is the larger of two guesses, each its rarest
 * word's share since the words of a query go together (grinning face):
 * - the words as written (the exact, prefix and typo matchers), a word counting as common as
 *   the most common of its typo alternatives, so a misspelt word the statistics do not know
 *   counts as common as the word it finds; the word being typed as all the words it begins
 *   together (`+1` is typed as `1`, which begins 1, 10, 100…);
 * - their English stems (the stem matcher, with its own statistics: `celebr` stands for
 *   celebrate, celebration, celebrating…), where an English stop word has none and does not
 *   count: "other symbols" matches every item with a word stemming to `symbol`.
 * A guess too rare reads a common query's matches whole: 37,000 rows for "other symbols" at a
 * million items, guessed from "other" as written (docs/catalog.md, "Popularity slices"). Only
 * how many rounds a ranking takes depends on this guess, never what it answers.
 */
function estimateQueryShare(
  scale: PopularityScale,
  { words, completions, corrections }: QueryTerms,
  partial: string,
): number {
  const isTyped = (index: number) => partial !== '' && index === words.length - 1;
  const asWritten = words.map(({ word }, index) =>
    Math.max(
      ...[word, ...(corrections?.alternatives.get(word) ?? [])].map((term) =>
        wordFrequency(scale, term),
      ),
      isTyped(index) ? prefixFrequency(scale, partial) : 0,
    ),
  );
  const stemmed = words.flatMap(({ stems }, index) => {
    const shares = !isTyped(index)
      ? stems.map((stem) => stemFrequency(scale, stem))
      : completions
        ? // The stems of the words it begins, any of them.
          [completions.stems.reduce((sum, stem) => sum + stemFrequency(scale, stem), 0)]
        : // Too many words to list: its stem as a prefix.
          [...stems.map((stem) => stemFrequency(scale, stem)), prefixFrequency(scale, partial)];
    return shares.length > 0 ? [Math.min(1, Math.max(...shares))] : [];
  });
  return Math.max(
    Math.min(1, ...asWritten),
    hasStemMatcher(completions) && stemmed.length > 0 ? Math.min(...stemmed) : 0,
  );
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
 * row once (a UNION of ids joined back to items read the matches twice and, past a few
 * thousand matches, the whole table: 10× slower at 100k items).
 */
function relevanceSql(query: PreparedQuery, { words, corrections, completions }: QueryTerms) {
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
  // While a plain query's last word is typed, its prefix match holds every exact match: one
  // index scan fewer. Plain: words of letters and digits, and between them, on its own,
  // punctuation that is not an operator (`animals & nature`); not with operators (`or`,
  // `-word`, quotes) or punctuation inside a word (`v2.0` is one lexeme, not `v2` and `0`).
  const isPlain =
    normalized
      .split(' ')
      .every((chunk) => /^[\p{L}\p{N}]+$/u.test(chunk) || /^[^\p{L}\p{N}"-]+$/u.test(chunk)) &&
    !/(^| )or( |$)/.test(normalized);
  // The word being typed, matched as the catalog words it begins and their stems when they
  // are few (readQueryTerms): the same items as its prefix, without collecting them all first.
  // Relevance still ranks by the prefix, as before.
  const anyOf = (terms: readonly string[]) => `(${terms.map(quoteLexeme).join(' | ')})`;
  const prefixMatch = completions
    ? sql`(websearch_to_tsquery('sticky_simple', ${head}) && ${anyOf(completions.words)}::tsquery)`
    : prefix;
  const stemMatch = !hasStemMatcher(completions)
    ? undefined
    : completions
      ? sql`(websearch_to_tsquery('sticky_english', ${head}) && ${anyOf(completions.stems)}::tsquery)`
      : stem;
  // The stem matcher finds every item the words as written find, when the query is plain and
  // each of its words (or each word the one being typed begins) has a stem: an item with a
  // word has that word's stem. Matching by words too would only OR a second GIN index scan,
  // a quarter of a common query's statement at a million items, into the same items
  // (docs/catalog.md, "Search"). A stop word has no stem (the stem matcher leaves it out of
  // the query), and a prefix typed past the catalog's words is stemmed itself (`runn:*` does
  // not find running, `run`): those keep both.
  const isCoveredByStems =
    isPlain &&
    stemMatch !== undefined &&
    (partial
      ? completions?.isEveryWordStemmed === true
      : words.some((word) => word.stems.length > 0));
  const matchers = [
    ...((partial && isPlain) || isCoveredByStems ? [] : [sql`i.search_vector @@ ${exact}`]),
    ...(partial && !isCoveredByStems ? [sql`i.search_vector @@ ${prefixMatch}`] : []),
    ...(stemMatch ? [sql`i.search_vector_stem @@ ${stemMatch}`] : []),
    ...(fuzzy ? [sql`i.search_vector @@ ${fuzzy}`] : []),
  ];
  const isMatchedByStemsAlone =
    isCoveredByStems &&
    !fuzzy &&
    words.every((word) => word.stems.every(isKeyableStem)) &&
    (completions?.stems.every(isKeyableStem) ?? true);
  return {
    /** Whether item `i` matches. */
    match: sql`(${sql.join(matchers, sql` OR `)})`,
    /**
     * The stems query that alone decides whether an item matches, when one does (a plain
     * query without typo corrections): a bounded slice then finds its matches by their
     * stem-and-tier keys (popularity-slices.ts, `stemSliceSql`).
     */
    stemsAlone: isMatchedByStemsAlone ? stemMatch : undefined,
    /** Item `i`'s relevance: it reads search_vector, search_vector_stem, tags and title. */
    score: sql`ts_rank(${rankWeights}, i.search_vector, ${exact})
      + ts_rank(${rankWeights}, i.search_vector, ${prefix}) * 0.6
      + ts_rank(${rankWeights}, i.search_vector_stem, ${stem}) * 0.4
      ${best && fuzzy ? sql`+ ts_rank(${rankWeights}, i.search_vector, ${best}) * 0.5 + ts_rank(${rankWeights}, i.search_vector, ${fuzzy}) * 0.2` : sql``}
      + CASE WHEN i.tags && ${wholeQuery} THEN 0.05 ELSE 0 END
      + CASE WHEN lower(i.title) = ANY (${wholeQuery}) THEN 0.3 ELSE 0 END`,
  };
}

/** How a ranking tells matches and scores them: relevanceSql's, or expansionSql's. */
interface Relevance {
  match: SQL;
  score: SQL;
  stemsAlone: SQL | undefined;
}

/**
 * The matches a query finds only through its expansions (synonyms and emoji keywords the
 * catalog has, readQueryTerms), ranked after every match of the query itself, so an expansion
 * never outranks an exact match on any page (docs/catalog.md, "Synonyms and emoji"). Each
 * expanded word matches itself or any of its catalog words ("glad" → glad | happy), an emoji
 * any of its keywords, the query's other words as written. Undefined when nothing expands.
 */
function expansionSql(
  query: PreparedQuery,
  { expansions }: QueryTerms,
  exact: Relevance,
): (Relevance & { groups: string[][] }) | undefined {
  if (expansions.length === 0) return undefined;
  const expanded = new Set(expansions.map((expansion) => expansion.token));
  const rest = query.normalized
    .replace(queryTokenPattern, (token) => (expanded.has(token) ? ' ' : token))
    .replace(/\s+/g, ' ')
    .trim();
  const groups = expansions.map(({ token, isEmoji, terms }) =>
    isEmoji ? terms : [token, ...terms],
  );
  const tsquery = sql.join(
    [
      sql`websearch_to_tsquery('sticky_simple', ${rest})`,
      ...groups.map((group) => sql`${`(${group.map(quoteLexeme).join(' | ')})`}::tsquery`),
    ],
    sql` && `,
  );
  const terms = sql`ARRAY[${sql.join(
    groups.flat().map((term) => sql`${term}`),
    sql`, `,
  )}]::text[]`;
  return {
    match: sql`(i.search_vector @@ (${tsquery}) AND NOT ${exact.match})`,
    score: sql`ts_rank(i.search_vector, (${tsquery}))
      + CASE WHEN i.tags && ${terms} THEN 0.05 ELSE 0 END`,
    stemsAlone: undefined,
    groups,
  };
}

/** About the share of items an expansion matches: its rarest group's words together. */
const estimateExpansionShare = (scale: PopularityScale, groups: readonly string[][]) =>
  Math.min(
    1,
    ...groups.map((group) => group.reduce((sum, term) => sum + wordFrequency(scale, term), 0)),
  );

/**
 * A slice's matches: how many there are, and the `scored` most popular of them, in that order
 * (tier, trend, then id as compareIds orders them), with their relevance.
 * Scoring is most of a match's cost (ts_rank four times), and the rows past `scored` only
 * count: at a million items a slice holds two to five times the matches the blocks need.
 */
function scoredMatchesSql(relevance: Relevance, where: SQL, scored: number): SQL {
  return sql`
    SELECT i.id, i.trend_score AS trend, ${relevance.score} AS score, i.matched
    FROM (
      SELECT i.id, i.trend_score, i.popularity_tier, i.search_vector, i.search_vector_stem,
        i.tags, i.title, count(*) OVER () AS matched
      FROM items i
      WHERE ${where}
      ORDER BY i.popularity_tier DESC, i.trend_score DESC, i.id COLLATE "C"
      LIMIT ${scored}
    ) i`;
}

/**
 * What a search's ranking depends on besides the catalog: two searches with the same key get
 * the same ids in the same order ("Happy  cat" and "happy cat" alike).
 */
export function searchRankingKey(
  options: Omit<SearchOptions, 'limit' | 'offset'>,
  query: PreparedQuery = prepareQuery(options.q),
): string {
  return JSON.stringify([
    options.types ?? null,
    options.rating ?? null,
    options.sort,
    query,
    options.isExpanded ?? true,
  ]);
}

/** How many of a query's best matches are kept: the first ten pages of 25. */
export const rankedIdsKept = 250;

/**
 * Matching ids for one page, best first, with the number of matches (exact up to what the
 * ranking read, estimated above: docs/catalog.md, "Search"). A query's first `rankedIdsKept`
 * ids are ranked at once and kept while the catalog is unchanged, so the next pages of an
 * infinite scroll, and everyone else searching the same words, are served from memory.
 * Deeper pages are ranked through the app's deep-page gate (deep-pages.ts): a few at once,
 * each page once however many ask for it.
 */
export async function searchItemIds(
  deps: QueryDeps,
  options: SearchOptions,
): Promise<Page<string>> {
  const query = prepareQuery(options.q);
  if (query.normalized === '') return { rows: [], totalCount: 0 };
  const end = options.offset + options.limit;
  const key = searchRankingKey(options, query);
  const versions = await deps.services.versions.read();
  const page = (ranking: Ranking): Page<string> => ({
    rows: ranking.rows.slice(options.offset, end),
    totalCount: ranking.totalCount,
    itemChanges: ranking.itemChanges,
  });
  if (end > rankedIdsKept) {
    // A kept ranking that holds every match answers any page of it.
    const kept = deps.services.searchRankings.get(key, versions);
    if (kept?.isExact && kept.rows.length === kept.totalCount) return page(kept);
    const deep = await deps.services.deepRankings.getOrMake(
      JSON.stringify(['search', key, options.offset, options.limit]),
      versions,
      () =>
        deps.services.deepPages.run(async () =>
          pageOf(await rankSearch(deps, query, options, end, versions.catalog), options, versions),
        ),
    );
    return deep;
  }
  const ranking = await deps.services.searchRankings.getOrMake(key, versions, async () => ({
    ...(await rankSearch(deps, query, options, rankedIdsKept, versions.catalog)),
    itemChanges: versions.itemChanges,
  }));
  return page(ranking);
}

const pageOf = (
  ranking: Ranking,
  options: { offset: number; limit: number },
  versions: CatalogVersions,
): Ranking => ({
  rows: ranking.rows.slice(options.offset, options.offset + options.limit),
  totalCount: ranking.totalCount,
  isExact: ranking.isExact,
  itemChanges: versions.itemChanges,
});

interface MatchRow {
  id: string;
  trend: number;
  score: number;
}

/**
 * The ranking down to `wanted` ids, reading a bounded number of matches however many there
 * are (docs/catalog.md, "Search"). Matches are read in slices of popularity tiers, most
 * popular first (popularity-slices.ts), until they fill the blocks the page needs, so a broad
 * word at a million items reads about as many rows as a rare one. Matches are cut, most
 * popular first, into blocks of `rankCandidates`; each block is ordered by relevance, and
 * blocks follow each other. When a query matches fewer than `rankCandidates` items (every
 * query of a small catalog) that is exactly the order by relevance of every match; above it,
 * the first pages rank the most popular matches. Blocks depend on the catalog only, never on
 * the page asked for, so paging neither repeats nor skips an item.
 */
async function rankSearch(
  deps: QueryDeps,
  query: PreparedQuery,
  options: SearchOptions,
  wanted: number,
  catalogVersion: number | undefined,
): Promise<Ranking> {
  if (options.sort === 'recent') return rankRecent(deps, query, options, wanted);
  const [scale, terms] = await Promise.all([
    deps.services.popularityScales.read(deps, options.types, catalogVersion),
    readQueryTerms(deps, query, options.isExpanded),
  ]);
  // How common the query is, from the column statistics PostgreSQL keeps: the first slice is
  // sized to hold the blocks needed, so a common word takes one round and a rare one reads its
  // matches whole at once. A word being typed matches at least what it would whole.
  const relevance = relevanceSql(query, terms);
  const exact = await rankMatches(deps, scale, options, wanted, {
    relevance,
    density: estimateQueryShare(scale, terms, query.partial),
  });
  const expanded = expansionSql(query, terms, relevance);
  // Expansions come after every exact match: only once those are all read, and counted then
  // even when this page does not reach them, so every page tells the same total.
  if (!expanded || !exact.isExact) return exact;
  const more = await rankMatches(deps, scale, options, Math.max(1, wanted - exact.totalCount), {
    relevance: expanded,
    density: estimateExpansionShare(scale, expanded.groups),
  });
  const hasEveryExact = exact.rows.length === exact.totalCount;
  return {
    rows: hasEveryExact ? [...exact.rows, ...more.rows] : exact.rows,
    totalCount: exact.totalCount + more.totalCount,
    isExact: more.isExact,
  };
}

/** One ranking of `rankSearch`: the matches of `relevance`, down to `wanted` ids. */
async function rankMatches(
  deps: QueryDeps,
  scale: PopularityScale,
  options: SearchOptions,
  wanted: number,
  { relevance, density }: { relevance: Relevance; density: number },
): Promise<Ranking> {
  const blockSize = deps.config.search.rankCandidates;
  const needed = Math.ceil(wanted / blockSize) * blockSize;
  const filter = listableItemsSql('i', { types: options.types, rating: options.rating });
  // Matches counted so far: slices come most popular first, so the `needed` most popular
  // matches are the first slices' and the top of the last one's; only those are scored.
  let matched = 0;
  const read = await readSlices(scale, {
    firstSlice: Math.max(blockSize, reachFor(0, 1, needed) / Math.max(density, 1e-9)),
    readSlice: async (slice): Promise<MatchRow[]> => {
      const byStemKeys =
        relevance.stemsAlone && stemSliceSql(relevance.stemsAlone, slice, options.types);
      const result = await deps.database.db.execute<Record<keyof MatchRow | 'matched', string>>(
        scoredMatchesSql(
          relevance,
          byStemKeys
            ? sql`${byStemKeys} AND ${filter}`
            : sql`${relevance.match} AND ${filter}${sliceSql(slice, options.types)}`,
          Math.max(1, needed - matched),
        ),
      );
      matched += Number(result.rows[0]?.matched ?? 0);
      return result.rows.map((row) => ({
        id: row.id,
        trend: Number(row.trend),
        score: Number(row.score),
      }));
    },
    isEnough: () => matched >= needed,
    nextReach: (_rows, population) => reachFor(matched, population, needed),
  });
  // At most `needed` rows, most popular first (each slice's statement orders its rows, and
  // slices come most popular first): the blocks a page of them needs.
  const ordered = read.rows
    .map((row, index) => ({ row, block: Math.floor(index / blockSize) }))
    .sort(
      (a, b) =>
        a.block - b.block ||
        b.row.score - a.row.score ||
        b.row.trend - a.row.trend ||
        compareIds(a.row.id, b.row.id),
    );
  return {
    rows: ordered.map(({ row }) => row.id),
    totalCount: read.isExhausted
      ? matched
      : Math.max(needed + 1, Math.round((matched / Math.max(1, read.population)) * scale.total)),
    isExact: read.isExhausted,
  };
}

/**
 * Newest first (`sort=recent`): the first `wanted` matches by creation, which PostgreSQL reads
 * either along the creation index (a common word) or from the word's index (a rare one).
 * Neither is bounded for a word in between, which is why relevance, what people search with,
 * goes through popularity slices instead (docs/catalog.md, "Search"). The count is exact when
 * every match fits, else the planner's estimate.
 */
async function rankRecent(
  deps: QueryDeps,
  query: PreparedQuery,
  options: SearchOptions,
  wanted: number,
): Promise<Ranking> {
  const terms = await readQueryTerms(deps, query, options.isExpanded);
  const relevance = relevanceSql(query, terms);
  const exact = await rankRecentMatches(deps, relevance.match, options, wanted);
  const expanded = expansionSql(query, terms, relevance);
  // As by relevance: the expansions' matches after every exact one.
  if (!expanded || !exact.isExact) return exact;
  const more = await rankRecentMatches(
    deps,
    expanded.match,
    options,
    Math.max(1, wanted - exact.totalCount),
  );
  return {
    rows: [...exact.rows, ...more.rows].slice(0, wanted),
    totalCount: exact.totalCount + more.totalCount,
    isExact: more.isExact,
  };
}

/** The first `wanted` items matching `match`, newest first. */
async function rankRecentMatches(
  deps: QueryDeps,
  match: SQL,
  options: SearchOptions,
  wanted: number,
): Promise<Ranking> {
  const filter = listableItemsSql('i', { types: options.types, rating: options.rating });
  const matches = sql`SELECT i.id, i.created_at FROM items i
    WHERE ${match} AND ${filter}`;
  const result = await deps.database.db.execute<{ id: string }>(sql`
    SELECT id FROM (${matches}) matches ORDER BY created_at DESC, id LIMIT ${wanted + 1}`);
  const ids = result.rows.map((row) => row.id);
  if (ids.length <= wanted) return { rows: ids, totalCount: ids.length, isExact: true };
  const plan = await deps.database.db.execute<{
    'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }>;
  }>(sql`EXPLAIN (FORMAT JSON) ${matches}`);
  const estimate = Number(plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  return { rows: ids.slice(0, wanted), totalCount: Math.max(wanted + 1, estimate), isExact: false };
}
