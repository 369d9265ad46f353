import type { Rating } from '@sticky/contracts';
import { ratingsUpTo } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { listableItemsSql } from './items.ts';
import type { ItemType, Page, Ranking } from './items.ts';
import {
  compareIds,
  readSlices,
  sliceSql,
  stemFrequency,
  tagFrequency,
} from './popularity-slices.ts';
import type { QueryDeps } from './query-caches.ts';
import { quoteLexeme } from './tsquery-text.ts';
import {
  changedItemsRead,
  keysOf,
  readListRests,
  readSourceLists,
  relatedListHead,
} from './related-lists.ts';
import type { KeyList, ListEntry, SourceLists } from './related-lists.ts';

/**
 * Ids of the items related to one item: those sharing the most tags with it, then the most
 * title words (English stems, so "dancing" meets "dance"), then the most popular; never the
 * item itself. An item's first ids come from its keys' lists built ahead (related-lists.ts)
 * when they can say, and are kept while the catalog is unchanged: a popular item's page is
 * seen by many. Pages past them go through the app's deep-page gate.
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
    itemChanges: ranking.itemChanges,
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
          page({
            ...(await rankRelated(deps, options, end, versions.catalog)),
            itemChanges: versions.itemChanges,
          }),
        ),
    );
  }
  const ranking = await deps.services.relatedRankings.getOrMake(key, versions, async () => ({
    ...(await rankRelated(deps, options, relatedIdsKept, versions.catalog)),
    itemChanges: versions.itemChanges,
  }));
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
  // The first page reads the source's keys' lists in the same statement (related-lists.ts).
  const isFirstBatch = wanted <= candidatesPerKey;
  const withLists = isFirstBatch
    ? await readSourceLists(deps, options.itemId, options.types)
    : undefined;
  const source = isFirstBatch
    ? withLists
    : (
        await db.execute<{ tags: string[]; words: string[] }>(sql`
          SELECT tags, tsvector_to_array(to_tsvector('sticky_english', title)) AS words
          FROM items WHERE id = ${options.itemId} AND hidden_at IS NULL
            AND visibility <> 'private'`)
      ).rows[0];
  if (!source) throw new AppError('not_found', `No item with gif_id ${options.itemId}`);
  const tags = [...new Set(source.tags)];
  const words = [...new Set(source.words)];
  if (tags.length === 0 && words.length === 0) return { rows: [], totalCount: 0, isExact: true };
  if (withLists) {
    const fromLists = await rankFromLists(deps, options, withLists);
    if (fromLists) return fromLists;
  }

  let perKey = candidatesPerKey;
  while (perKey < wanted) perKey *= 2;
  const keys = keysOf(tags, words);
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
      : stemFrequency(scale, name.slice(2));
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
      return readCandidates(
        deps,
        { tags, words },
        sql`i.id <> ${options.itemId} AND ${filter}${sliceSql(slice, options.types)}
          AND (${sql.join(matchers, sql` OR `)})`,
      );
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

  const ranked = rankCandidates(read.rows, perKey);
  return toRanking(
    ranked,
    read.isExhausted && !hasSatisfiedKey,
    Math.round((read.rows.length / Math.max(1, read.population)) * scale.total),
  );
}

/**
 * The ranked ids with their count: exact when every candidate was read, else the estimate,
 * and at least one past what was ranked (so a client asks for the next page).
 */
function toRanking(ranked: readonly { id: string }[], isExact: boolean, estimate: number): Ranking {
  return {
    rows: ranked.map((row) => row.id),
    totalCount: isExact ? ranked.length : Math.max(ranked.length + 1, estimate),
    isExact,
  };
}

/**
 * The candidates' popularity and what they share with the source (its tags, its title words
 * anywhere in their text, and in their title), for the items `where` keeps (alias `i`). What
 * they share comes back as one flag a key, `1` or `0` in a string, worked out by PostgreSQL
 * with its array and text-search operators (a title word in a title is the word at weight A):
 * sending each candidate's tags and lexemes to be compared here cost about as much as reading
 * the candidates (docs/scaling.md), and subqueries a row cost a quarter more database time.
 */
async function readCandidates(
  deps: QueryDeps,
  /** Each tag and word once, as rankRelated and readSourceLists give them. */
  { tags, words }: { tags: readonly string[]; words: readonly string[] },
  where: SQL,
): Promise<CandidateRow[]> {
  const flag = (condition: SQL) => sql`(${condition})::int::text`;
  const flags = (conditions: SQL[]) =>
    conditions.length === 0 ? sql`''` : sql`concat(${sql.join(conditions.map(flag), sql`, `)})`;
  const result = await deps.database.db.execute<{
    id: string;
    tier: number;
    trend: number;
    tags: string;
    words: string;
    title_words: string;
  }>(sql`
    SELECT i.id, i.trend_score AS trend, i.popularity_tier AS tier,
      ${flags(tags.map((tag) => sql`i.tags @> ARRAY[${tag}]::text[]`))} AS tags,
      ${flags(words.map((word) => sql`i.search_vector_stem @@ ${quoteLexeme(word)}::tsquery`))} AS words,
      ${flags(words.map((word) => sql`i.search_vector_stem @@ ${`${quoteLexeme(word)}:A`}::tsquery`))} AS title_words
    FROM items i
    WHERE ${where}`);
  const flagged = (values: readonly string[], text: string) =>
    values.filter((_, index) => text[index] === '1');
  return result.rows.map((row) => ({
    id: row.id,
    tier: Number(row.tier),
    trend: Number(row.trend),
    tags: flagged(tags, row.tags),
    words: flagged(words, row.words),
    titleWords: flagged(words, row.title_words).length,
  }));
}

/** A candidate's keys: the source's tags and title words it has. */
const candidateKeys = (row: CandidateRow) => keysOf(row.tags, row.words);

/**
 * Candidates in related order: each key brings its first `perKey` most popular (batch b, the
 * items within the first candidatesPerKey × 2^b of one of their keys), then shared tags, shared
 * title words, popularity.
 */
function rankCandidates(rows: readonly CandidateRow[], perKey: number): CandidateRow[] {
  const byPopularity = [...rows].sort(
    (a, b) => b.tier - a.tier || b.trend - a.trend || compareIds(a.id, b.id),
  );
  const rankOfKey = new Map<string, number>();
  const batchOf = new Map<string, number>();
  for (const row of byPopularity) {
    let rank = Number.POSITIVE_INFINITY;
    for (const name of candidateKeys(row)) {
      const next = (rankOfKey.get(name) ?? 0) + 1;
      rankOfKey.set(name, next);
      rank = Math.min(rank, next);
    }
    if (rank > perKey) continue;
    batchOf.set(row.id, Math.max(0, Math.ceil(Math.log2(rank / candidatesPerKey))));
  }
  return byPopularity
    .filter((row) => batchOf.has(row.id))
    .sort(
      (a, b) =>
        batchOf.get(a.id)! - batchOf.get(b.id)! ||
        b.tags.length - a.tags.length ||
        b.titleWords - a.titleWords ||
        b.trend - a.trend ||
        compareIds(a.id, b.id),
    );
}

/**
 * The first batch from the source's keys' lists (related-lists.ts), exactly as the slices
 * would rank it, or undefined when the lists cannot say (docs/catalog.md, "Related"): they are
 * missing; too many items changed since they were built; or a list cut at the list length
 * keeps fewer than 60 of its key's items once the rating ceiling, hidden items, items that
 * lost the key and the source are left out. A list holds its key's most popular items, so the
 * first 60 left of it are the key's 60 most popular that the filter keeps. Each listed item is
 * ranked by its entry (what it shares with the source, its popularity and rating when the lists
 * were built), so the page reads no item rows; the items added, changed or deleted since are
 * read as they are now, beside the lists, in one more statement when there are any, and the
 * rest of the lists whose heads are short in another.
 */
async function rankFromLists(
  deps: QueryDeps,
  options: RelatedOptions,
  source: SourceLists,
): Promise<Ranking | undefined> {
  if (!source.hasLists || source.changedItems > changedItemsRead) return undefined;
  const changed =
    source.changedIds.length === 0
      ? []
      : await readCandidates(
          deps,
          source,
          sql`i.id IN (SELECT unnest(${sql.param(source.changedIds)}::text[]))
            AND i.id <> ${options.itemId} AND ${listableItemsSql('i', options)}`,
        );
  const changedIds = new Set(source.changedIds);
  const rowOfEntry = createEntryReader(source, options.rating);
  // The head of each list, and the items changed since the lists were built; the rest of a
  // list only when its head keeps fewer than 60 of the key's items (as the slices would count).
  const rows: CandidateRow[] = [...changed];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const read = new Set<string>(changedIds);
  const readFrom = (list: KeyList, from: number, to: number) => {
    for (let index = from; index < Math.min(to, list.ids.length); index += 1) {
      const id = list.ids[index]!;
      if (read.has(id)) continue;
      read.add(id);
      const row = id === options.itemId ? undefined : rowOfEntry(id, list.entries[index]);
      if (!row) continue;
      rows.push(row);
      byId.set(id, row);
    }
  };
  for (const list of source.lists) readFrom(list, 0, relatedListHead);
  // Counted over the part of a list read whole: an item further down that another list's head
  // brought says nothing of the unread items above it.
  const keptOf = (list: KeyList, upTo = list.ids.length) =>
    list.ids.slice(0, upTo).filter((id) => {
      const row = byId.get(id);
      return row !== undefined && candidateKeys(row).includes(list.key);
    }).length;
  const short = source.lists.filter(
    (list) => list.listed > relatedListHead && keptOf(list, relatedListHead) < candidatesPerKey,
  );
  if (short.length > 0) await readListRests(deps, short);
  for (const list of short) readFrom(list, relatedListHead, list.ids.length);
  // A list cut at the list length must still hold 60 of its key's items.
  const isCut = (list: KeyList) => list.listed < list.count;
  if (source.lists.some((list) => isCut(list) && keptOf(list) < candidatesPerKey)) return undefined;
  const ranked = rankCandidates(rows, candidatesPerKey);
  const hits = new Map<string, number>();
  for (const row of rows) {
    for (const name of candidateKeys(row)) hits.set(name, (hits.get(name) ?? 0) + 1);
  }
  const hasFullKey = [...hits.values()].some((count) => count >= candidatesPerKey);
  // As the slices count (rankRelated): exact when every item of every key was read and no key
  // had 60; else an estimate, every list's items once each, at least one past the page.
  return toRanking(
    ranked,
    !source.lists.some(isCut) && !hasFullKey,
    source.lists.reduce((sum, list) => sum + list.count, 0),
  );
}

/**
 * A listed item's candidate row from its entry, or undefined when the rating ceiling leaves it
 * out or its entry is missing (an item deleted while the lists were built, read as changed).
 * What it shares with the source are the source's keys among the entry's key numbers.
 */
function createEntryReader(source: SourceLists, rating: Rating | undefined) {
  const allowed = new Set<string>(ratingsUpTo(rating));
  // Each source key's number → its place among the source's tags or title words.
  const tagAt = new Map<number, number>();
  const wordAt = new Map<number, number>();
  source.tags.forEach((tag, index) => {
    const keyId = source.keyIds.get(`t:${tag}`);
    if (keyId !== undefined) tagAt.set(keyId, index);
  });
  source.words.forEach((word, index) => {
    const keyId = source.keyIds.get(`w:${word}`);
    if (keyId !== undefined) wordAt.set(keyId, index);
  });
  const inOrder = (names: readonly string[], places: number[]) =>
    places.sort((a, b) => a - b).map((place) => names[place]!);
  return (id: string, entry: ListEntry | null | undefined): CandidateRow | undefined => {
    if (!entry) return undefined;
    const [tier, trend, itemRating, keyIds, titleKeyIds] = entry;
    if (!allowed.has(itemRating)) return undefined;
    const tagPlaces: number[] = [];
    const wordPlaces: number[] = [];
    for (const keyId of keyIds) {
      const tag = tagAt.get(keyId);
      if (tag !== undefined) tagPlaces.push(tag);
      const word = wordAt.get(keyId);
      if (word !== undefined) wordPlaces.push(word);
    }
    let titleWords = 0;
    for (const keyId of titleKeyIds) if (wordAt.has(keyId)) titleWords += 1;
    return {
      id,
      tier,
      trend,
      tags: inOrder(source.tags, tagPlaces),
      words: inOrder(source.words, wordPlaces),
      titleWords,
    };
  };
}

/** Any of the words, as a tsquery of lexemes. */
function toAnyWordQuery(words: readonly string[]): string {
  return words.map(quoteLexeme).join(' | ');
}
