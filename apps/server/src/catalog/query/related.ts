import type { Rating } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { listableItemsSql } from './items.ts';
import type { ItemType, Page, Ranking } from './items.ts';
import {
  compareIds,
  readSlices,
  sliceSql,
  tagFrequency,
  wordFrequency,
} from './popularity-slices.ts';
import type { QueryDeps } from './query-caches.ts';

/**
 * Ids of the items related to one item: those sharing the most tags with it, then the most
 * title words (English stems, so "dancing" meets "dance"), then the most popular; never the
 * item itself. An item's first ids are kept while the catalog is unchanged: a popular item's
 * page is seen by many. Pages past them go through the app's deep-page gate.
 */
export async function listRelatedItemIds(
  deps: QueryDeps,
  options: RelatedOptions,
): Promise<Page<string>> {
  const end = options.offset + options.limit;
  const key = JSON.stringify([options.itemId, options.types, options.rating ?? null]);
  const versions = await deps.services.versions.read();
  const page = (ranking: Ranking): Page<string> => ({
    rows: ranking.rows.slice(options.offset, end),
    totalCount: ranking.totalCount,
  });
  if (end > relatedIdsKept) {
    // A kept ranking that holds every related item answers any page of it.
    const kept = deps.services.relatedRankings.get(key, versions);
    if (kept?.isExact && kept.rows.length === kept.totalCount) return page(kept);
    return deps.services.deepRankings.getOrMake(
      JSON.stringify(['related', key, options.offset, options.limit]),
      versions,
      () =>
        deps.services.deepPages.run(async () =>
          page(await rankRelated(deps, options, end, versions.catalog)),
        ),
    );
  }
  const ranking = await deps.services.relatedRankings.getOrMake(key, versions, () =>
    rankRelated(deps, options, relatedIdsKept, versions.catalog),
  );
  return page(ranking);
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

/** Each tag and title word brings at least its this many most popular items. */
const candidatesPerKey = relatedIdsKept;

interface CandidateRow {
  id: string;
  tier: number;
  trend: number;
  /** The source's tags this item has. */
  tags: string[];
  /** The source's title words anywhere in this item's text. */
  words: string[];
  /** The source's title words in this item's title. */
  titleWords: number;
}

/**
 * The related ranking down to `wanted` ids, reading a bounded number of items however large
 * the catalog (docs/catalog.md, "Related"). Each of the source's tags and title words is a
 * key; a key shared by many items (a group tag such as "smileys & emotion" is on a large share
 * of the catalog) brings only its most popular items, a rare key all of its items, so the
 * closest items, which share rare keys, are always among the candidates. The catalog is read
 * in slices, most popular first (popularity-slices.ts), asking each round only for the keys
 * that do not have their items yet. Candidates are then ordered by shared tags, shared title
 * words, popularity. Deeper pages take more items per key: the candidates of a larger count
 * hold those of a smaller one, and each new batch follows the ones before, so paging neither
 * repeats nor skips.
 */
async function rankRelated(
  deps: QueryDeps,
  options: RelatedOptions,
  wanted: number,
  catalogVersion: number | undefined,
): Promise<Ranking> {
  const { db } = deps.database;
  const sourceResult = await db.execute<{ tags: string[]; words: string[] }>(sql`
    SELECT tags, tsvector_to_array(to_tsvector('sticky_english', title)) AS words
    FROM items WHERE id = ${options.itemId}`);
  const source = sourceResult.rows[0];
  if (!source) throw new AppError('not_found', `No item with gif_id ${options.itemId}`);
  const tags = [...new Set(source.tags)];
  const words = [...new Set(source.words)];
  if (tags.length === 0 && words.length === 0) return { rows: [], totalCount: 0, isExact: true };

  let perKey = candidatesPerKey;
  while (perKey < wanted) perKey *= 2;
  const keys = [...tags.map((tag) => `t:${tag}`), ...words.map((word) => `w:${word}`)];
  const hits = new Map<string, number>(keys.map((name) => [name, 0]));
  const isSatisfied = (name: string) => hits.get(name)! >= perKey;
  let hasSatisfiedKey = false;

  const scale = await deps.services.popularityScales.read(deps, options.types, catalogVersion);
  // How far down the next slice reaches (docs/catalog.md, "Related"): far enough for the most
  // common key still short of items to get them, and further while the keys still open would
  // bring no more than a few keys' worth of rows between them (their shares from the column
  // statistics), but not past what the rarest common one needs. Rare keys wait for the last
  // slice, which reads them whole, alone.
  const shareOf = (name: string) =>
    name.startsWith('t:')
      ? tagFrequency(scale, name.slice(2))
      : wordFrequency(scale, name.slice(2));
  const planReach = (population: number) => {
    const open = keys.filter((name) => !isSatisfied(name));
    const reaches = open
      .map((name) => population + (1.25 * (perKey - hits.get(name)!)) / shareOf(name))
      .filter((reach) => reach < scale.total / 4);
    if (reaches.length === 0) return Number.POSITIVE_INFINITY;
    const shares = open.reduce((sum, name) => sum + shareOf(name), 0);
    const withinBudget = population + (4 * perKey) / shares;
    return Math.max(Math.min(...reaches), Math.min(Math.max(...reaches), withinBudget));
  };
  const filter = listableItemsSql('i', options);
  const read = await readSlices(scale, {
    firstSlice: planReach(0),
    readSlice: async (slice): Promise<CandidateRow[]> => {
      const openTags = tags.filter((tag) => !isSatisfied(`t:${tag}`));
      const openWords = words.filter((word) => !isSatisfied(`w:${word}`));
      const matchers = [
        ...(openTags.length > 0 ? [sql`i.tags && ${sql.param(openTags)}::text[]`] : []),
        ...(openWords.length > 0
          ? [sql`i.search_vector_stem @@ ${toAnyWordQuery(openWords)}::tsquery`]
          : []),
      ];
      const result = await db.execute<{
        id: string;
        tier: number;
        trend: number;
        tags: string[];
        words: string[];
        title_words: number;
      }>(sql`
        SELECT i.id, i.trend_score AS trend, i.popularity_tier AS tier,
          ARRAY(SELECT DISTINCT t FROM unnest(i.tags) t WHERE t = ANY (${sql.param(tags)}::text[])) AS tags,
          ARRAY(SELECT w FROM unnest(tsvector_to_array(i.search_vector_stem)) w
            WHERE w = ANY (${sql.param(words)}::text[])) AS words,
          (SELECT count(*) FROM unnest(tsvector_to_array(ts_filter(i.search_vector_stem, '{a}'))) w
            WHERE w = ANY (${sql.param(words)}::text[]))::int AS title_words
        FROM items i
        WHERE i.id <> ${options.itemId} AND ${filter}${sliceSql(slice, options.types)}
          AND (${sql.join(matchers, sql` OR `)})`);
      return result.rows.map((row) => ({
        id: row.id,
        tier: Number(row.tier),
        trend: Number(row.trend),
        tags: row.tags,
        words: row.words,
        titleWords: Number(row.title_words),
      }));
    },
    isEnough: (rows) => {
      for (const name of keys) hits.set(name, 0);
      for (const row of rows) {
        for (const tag of row.tags) hits.set(`t:${tag}`, hits.get(`t:${tag}`)! + 1);
        for (const word of row.words) hits.set(`w:${word}`, hits.get(`w:${word}`)! + 1);
      }
      hasSatisfiedKey = keys.some(isSatisfied);
      return keys.every(isSatisfied);
    },
    nextReach: (_rows, population) => planReach(population),
  });

  // Each key's candidates, most popular first: a key brings its first `n` for batch size n.
  const byPopularity = [...read.rows].sort(
    (a, b) => b.tier - a.tier || b.trend - a.trend || compareIds(a.id, b.id),
  );
  const rankOfKey = new Map<string, number>();
  const batchOf = new Map<string, number>();
  for (const row of byPopularity) {
    let rank = Number.POSITIVE_INFINITY;
    for (const name of [...row.tags.map((tag) => `t:${tag}`), ...row.words.map((w) => `w:${w}`)]) {
      const next = (rankOfKey.get(name) ?? 0) + 1;
      rankOfKey.set(name, next);
      rank = Math.min(rank, next);
    }
    if (rank > perKey) continue;
    // Batch b holds the items within the first candidatesPerKey × 2^b of one of their keys.
    batchOf.set(row.id, Math.max(0, Math.ceil(Math.log2(rank / candidatesPerKey))));
  }
  const ranked = byPopularity
    .filter((row) => batchOf.has(row.id))
    .sort(
      (a, b) =>
        batchOf.get(a.id)! - batchOf.get(b.id)! ||
        b.tags.length - a.tags.length ||
        b.titleWords - a.titleWords ||
        b.trend - a.trend ||
        compareIds(a.id, b.id),
    );
  const isExact = read.isExhausted && !hasSatisfiedKey;
  return {
    rows: ranked.map((row) => row.id),
    totalCount: isExact
      ? ranked.length
      : Math.max(
          ranked.length + 1,
          Math.round((read.rows.length / Math.max(1, read.population)) * scale.total),
        ),
    isExact,
  };
}

/** Any of the words, as a tsquery of lexemes (quoted, so no word is read as an operator). */
function toAnyWordQuery(words: readonly string[]): string {
  return words.map((word) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}
