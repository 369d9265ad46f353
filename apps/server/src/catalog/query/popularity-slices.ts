import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { itemTypeSchema } from '@sticky/contracts';
import type { CatalogDeps, ItemType } from './items.ts';

/**
 * How a ranking reads a bounded part of the catalog however large it is (docs/catalog.md,
 * "Search"): items carry a coarse popularity tier (items.popularity_tier, migration 0012),
 * indexed (as keys at five granularities) beside their search vectors and tags, and a ranking reads the catalog in slices of
 * tiers, most popular first, each slice larger than the last, until it has what it needs.
 * The index intersects a word's items with a slice's tiers, so a slice costs the matches in
 * it, not the items in it.
 */

/**
 * Where the listable items of some types stand by tier, from a sample: enough to cut them
 * into slices of about a chosen size without counting them. Only how much work a ranking
 * does depends on it, never what it answers: a stale or rough scale makes a slice larger or
 * smaller, and the rounds that read slices stop on what they actually found.
 */
export interface PopularityScale {
  /** Sampled tiers, highest first. */
  tiers: number[];
  /** The listable items the sample stands for, exact (catalog_counts). */
  total: number;
  /** The share of items that have a word or tag, for the common ones (column statistics). */
  frequencies: Frequencies;
}

interface Frequencies {
  /** Lexemes of `search_vector` (words as written). */
  words: Map<string, number>;
  /** Lexemes of `search_vector_stem` (English stems: celebrate, celebration → celebr). */
  stems: Map<string, number>;
  tags: Map<string, number>;
  /** What a word or tag not among the common ones is taken to have; 1 without statistics. */
  rare: number;
}

/** The share of items whose words include `word` (an exact lexeme), about. */
export const wordFrequency = (scale: PopularityScale, word: string) =>
  scale.frequencies.words.get(word) ?? scale.frequencies.rare;

/**
 * The share of items whose English stems include `stem`, about: a stem is commoner than any
 * one word it stands for, and often no word at all (`celebr`).
 */
export const stemFrequency = (scale: PopularityScale, stem: string) =>
  scale.frequencies.stems.get(stem) ?? scale.frequencies.rare;

/**
 * The share of items with a word starting with `prefix`, about: the common such words' shares
 * added up (a word being typed, `danc`, matches dance and dancing), at least a rare word's.
 */
export function prefixFrequency(scale: PopularityScale, prefix: string): number {
  let share = 0;
  for (const [word, wordShare] of scale.frequencies.words) {
    if (word.startsWith(prefix)) share += wordShare;
  }
  return Math.min(1, Math.max(scale.frequencies.rare, share));
}

/** The share of items with `tag`, about. */
export const tagFrequency = (scale: PopularityScale, tag: string) =>
  scale.frequencies.tags.get(tag) ?? scale.frequencies.rare;

/**
 * The most common words and tags of items and their shares, from the statistics ANALYZE keeps
 * (pg_stats' most common elements): free to read, and what the planner itself goes by.
 */
async function readFrequencies(deps: CatalogDeps): Promise<Frequencies> {
  const result = await deps.database.db.execute<{
    column: string;
    elements: string[] | null;
    shares: number[] | null;
  }>(sql`
    SELECT attname AS column, most_common_elems::text::text[] AS elements,
      most_common_elem_freqs AS shares
    FROM pg_stats
    WHERE schemaname = current_schema() AND tablename = 'items'
      AND attname IN ('search_vector', 'search_vector_stem', 'tags')`);
  const frequencies: Frequencies = { words: new Map(), stems: new Map(), tags: new Map(), rare: 1 };
  const targets: Record<string, Map<string, number>> = {
    search_vector: frequencies.words,
    search_vector_stem: frequencies.stems,
    tags: frequencies.tags,
  };
  for (const row of result.rows) {
    const target = targets[row.column];
    if (!row.elements || !row.shares || !target) continue;
    row.elements.forEach((element, index) => target.set(element, Number(row.shares![index])));
    // After one share per element come the lowest share, the highest and the null share.
    const lowest = Number(row.shares[row.elements.length]);
    if (Number.isFinite(lowest)) frequencies.rare = Math.min(frequencies.rare, lowest / 2);
  }
  return frequencies;
}

/** A slice of tiers: [lower, upper), either end open. */
export interface Slice {
  lower: number | undefined;
  upper: number | undefined;
}

/** About this many rows are sampled: quantiles within a fraction of a percent. */
const sampleRows = 20_000;

/** A scale is remade in the background once this old; until then it is used as is. */
const scaleMaxAgeMs = 10 * 60_000;

/**
 * Sooner when the catalog changed since (an import can grow it tenfold in minutes): a change
 * is looked at once it is this old, and the scale remade if the catalog grew or shrank by more
 * than `remakeShare` of what it was made from. Most changes (an upload, an edit) leave the
 * scale as good as it was, and a sample at a million items reads some 2,000 pages: made beside
 * a request, on a machine of two cores, it delayed that request by tens of milliseconds.
 */
const changedCatalogMaxAgeMs = 30_000;
const remakeShare = 0.1;

/**
 * The lowest tier among the `rank` most popular items, or undefined when the slice down to it
 * is better read as the whole rest of the catalog.
 */
export function tierAtRank(scale: PopularityScale, rank: number): number | undefined {
  // A slice reaching down past a quarter of the catalog names so many tiers that reading their
  // index entries costs more than reading the word's few matches whole: it is the last one.
  if (scale.tiers.length === 0 || rank >= scale.total / 4) return undefined;
  const index = Math.min(
    scale.tiers.length - 1,
    Math.floor((rank / scale.total) * scale.tiers.length),
  );
  return scale.tiers[index];
}

/** About how many listable items are in `tier` or above (all of them for undefined). */
export function populationFrom(scale: PopularityScale, tier: number | undefined): number {
  if (tier === undefined || scale.tiers.length === 0) return scale.total;
  // tiers are descending: count those >= tier by binary search.
  let low = 0;
  let high = scale.tiers.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (scale.tiers[middle]! >= tier) low = middle + 1;
    else high = middle;
  }
  return Math.max(1, Math.round((low / scale.tiers.length) * scale.total));
}

const typeListSql = (types: readonly ItemType[]) =>
  sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );

async function sampleScale(
  deps: CatalogDeps,
  types: readonly ItemType[] | undefined,
): Promise<PopularityScale> {
  const { db } = deps.database;
  // The planner's row estimate of items, free and close enough to size the sample, and how
  // many the sample stands for, exact.
  const sizes = await db.execute<{ rows: string; listed: string }>(
    sql`SELECT greatest(reltuples, 0)::bigint AS rows, (${listedSql(types)}) AS listed
        FROM pg_class WHERE oid = 'items'::regclass`,
  );
  const estimatedRows = Number(sizes.rows[0]?.rows ?? 0);
  const percent = estimatedRows > sampleRows ? (100 * sampleRows) / estimatedRows : 100;
  // SYSTEM sampling reads whole pages, a few hundred of them at a million items; a full read
  // when the catalog is small, so small catalogs get an exact scale.
  const sampling = percent < 100 ? sql`TABLESAMPLE SYSTEM (${sql.raw(percent.toFixed(4))})` : sql``;
  const result = await db.execute<{ tier: number }>(sql`
    SELECT popularity_tier AS tier FROM items ${sampling}
    WHERE is_indexable AND NOT is_dynamic${types ? sql` AND type IN (${typeListSql(types)})` : sql``}
    ORDER BY 1 DESC`);
  return {
    tiers: result.rows.map((row) => Number(row.tier)),
    total: Number(sizes.rows[0]?.listed ?? 0),
    frequencies: await readFrequencies(deps),
  };
}

/**
 * How many items of some types (all for undefined) are listable, as the catalog's counts keep
 * them (catalog_counts, migration 0004, with the sample's condition): a handful of rows, exact.
 */
const listedSql = (types: readonly ItemType[] | undefined) =>
  sql`SELECT coalesce(sum(count), 0)::bigint FROM catalog_counts
    ${types ? sql`WHERE type IN (${typeListSql(types)})` : sql``}`;

async function countListed(
  deps: CatalogDeps,
  types: readonly ItemType[] | undefined,
): Promise<number> {
  const result = await deps.database.db.execute<{ listed: string }>(
    sql`SELECT (${listedSql(types)}) AS listed`,
  );
  return Number(result.rows[0]?.listed ?? 0);
}

export interface PopularityScales {
  read: (
    deps: CatalogDeps,
    types: readonly ItemType[] | undefined,
    catalogVersion: number | undefined,
  ) => Promise<PopularityScale>;
  /** Resolves once the scales being made or checked in the background are (tests, close). */
  whenIdle: () => Promise<void>;
  clear: () => void;
}

/**
 * The scales one app keeps (docs/architecture.md, "Services per app"): made on first use,
 * remade in the background when old, shared by every ranking of the same types.
 */
export function createPopularityScales(options: { now?: () => number } = {}): PopularityScales {
  const now = options.now ?? Date.now;
  const kept = new Map<
    string,
    {
      scale: PopularityScale;
      madeAt: number;
      /** The catalog version it was made or last found good under. */
      catalogVersion: number | undefined;
      checkedAt: number;
    }
  >();
  const making = new Map<string, Promise<PopularityScale>>();
  const background = new Set<Promise<unknown>>();
  const inBackground = (work: Promise<unknown>) => {
    const settled = work.catch(() => {}).finally(() => background.delete(settled));
    background.add(settled);
  };

  const make = (
    key: string,
    deps: CatalogDeps,
    types: readonly ItemType[] | undefined,
    catalogVersion: number | undefined,
  ) => {
    const inFlight = making.get(key);
    if (inFlight) return inFlight;
    const made = sampleScale(deps, types)
      .then((scale) => {
        const madeAt = now();
        kept.set(key, { scale, madeAt, catalogVersion, checkedAt: madeAt });
        return scale;
      })
      .finally(() => making.delete(key));
    making.set(key, made);
    return made;
  };

  return {
    read: async (deps, types, catalogVersion) => {
      const key = JSON.stringify(types ?? null);
      const entry = kept.get(key);
      if (!entry) return make(key, deps, types, catalogVersion);
      // Served as it is meanwhile: a scale only sizes the slices.
      if (now() - entry.madeAt > scaleMaxAgeMs) {
        inBackground(make(key, deps, types, catalogVersion));
      } else if (
        entry.catalogVersion !== catalogVersion &&
        now() - entry.checkedAt > changedCatalogMaxAgeMs
      ) {
        entry.checkedAt = now();
        inBackground(
          countListed(deps, types).then(async (listed) => {
            if (Math.abs(listed - entry.scale.total) > entry.scale.total * remakeShare) {
              await make(key, deps, types, catalogVersion);
            } else {
              entry.catalogVersion = catalogVersion;
            }
          }),
        );
      }
      return entry.scale;
    },
    whenIdle: async () => {
      while (background.size > 0) await Promise.all(background);
    },
    clear: () => kept.clear(),
  };
}

/**
 * The condition that keeps an item (alias `i`) in a slice. A bounded slice names its tiers by
 * their keys (sticky_tier_range_keys, migration 0012: a handful whatever the slice's width),
 * which the tier indexes answer together with the words or tags; the top one reaches up to the
 * highest tier there is now (read from the trend index), so no item above the scale's sample
 * is missed. The last slice, open below, only excludes the tiers read before: its words alone
 * are rare enough to read whole.
 */
export function sliceSql(slice: Slice, types: readonly ItemType[] | undefined): SQL {
  const { lower, upper } = slice;
  if (lower === undefined) {
    return upper === undefined ? sql`` : sql` AND i.popularity_tier < ${upper}`;
  }
  return sql` AND sticky_tier_keys(i.popularity_tier) && sticky_tier_range_keys(${lower}::int, ${sliceTopSql(upper, types)})`;
}

/** A bounded slice's upper end: `upper`, or for the top one the highest tier there is now. */
function sliceTopSql(upper: number | undefined, types: readonly ItemType[] | undefined): SQL {
  if (upper !== undefined) return sql`${upper}::int`;
  // One index probe per type (items_type_trend_idx): the trend index leads with the type.
  const highestOf = (type: ItemType) =>
    sql`(SELECT max(trend_score) FROM items WHERE type = ${type})`;
  return sql`coalesce(floor(greatest(${sql.join(
    (types ?? itemTypeSchema.options).map(highestOf),
    sql`, `,
  )}) * 2)::int * 4 + 4, 0)`;
}

/**
 * Whether a stem has stem-and-tier keys: sticky_stem_tiers (migration 0017) leaves out stems
 * past 200 bytes, which keyed would pass a lexeme's 2 KB. A query with another is not matched
 * by `stemSliceSql`.
 */
export const isKeyableStem = (stem: string) => Buffer.byteLength(stem) <= 200;

/**
 * The items (alias `i`) of one type in a bounded slice whose English stems match `stems`, a
 * tsquery of ANDs and ORs of stems (each `isKeyableStem`), by their stem-and-tier keys (sticky_stem_tiers, migration
 * 0017): one short list per stem and key, where `sliceSql` beside the stem matcher intersects
 * the stems' items with all of the slice's. Undefined for a slice open below (its matches are
 * read whole) or for several types (the index is per type).
 */
export function stemSliceSql(
  stems: SQL,
  slice: Slice,
  types: readonly ItemType[] | undefined,
): SQL | undefined {
  if (slice.lower === undefined || types?.length !== 1) return undefined;
  return sql`sticky_stem_tiers(i.search_vector_stem, i.popularity_tier)
    @@ sticky_stem_tier_query(${stems}, ${slice.lower}::int, ${sliceTopSql(slice.upper, types)})`;
}

/** One fixed order of ids: the tie-break every ranking ends with. */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads slices, most popular first, until `isEnough` says so or the catalog is done. The first
 * slice holds about `firstSlice` items; `nextReach` proposes how many items the slices should
 * reach down to next, from what was seen so far (its density), kept between twice and sixteen
 * times the reach so far, or infinite for the rest at once: a rare word takes a round or two,
 * and a common one reads little more than it needs.
 */
export async function readSlices<Row>(
  scale: PopularityScale,
  options: {
    firstSlice: number;
    readSlice: (slice: Slice) => Promise<Row[]>;
    isEnough: (rows: readonly Row[]) => boolean;
    nextReach: (rows: readonly Row[], population: number) => number;
  },
): Promise<{ rows: Row[]; isExhausted: boolean; population: number }> {
  const rows: Row[] = [];
  let upper: number | undefined;
  let reach = Math.max(1, options.firstSlice);
  for (;;) {
    const lower = lowerBound(scale, reach, upper);
    rows.push(...(await options.readSlice({ lower, upper })));
    if (lower === undefined) return { rows, isExhausted: true, population: scale.total };
    const population = populationFrom(scale, lower);
    if (options.isEnough(rows)) return { rows, isExhausted: false, population };
    const next = options.nextReach(rows, population);
    // Infinity: what is left is rare enough to be read whole, at once.
    reach = Number.isFinite(next)
      ? Math.min(16 * population, Math.max(2 * population, next))
      : Number.POSITIVE_INFINITY;
    upper = lower;
  }
}

/** The reach at which `count` matches found among `population` items would become `needed`. */
export const reachFor = (count: number, population: number, needed: number) =>
  (1.25 * needed * population) / (count + 1);

/** The slice's lower end for a reach, always below `upper` (a tier is never split). */
function lowerBound(
  scale: PopularityScale,
  reach: number,
  upper: number | undefined,
): number | undefined {
  const tier = tierAtRank(scale, reach);
  if (tier === undefined || upper === undefined || tier < upper) return tier;
  return scale.tiers.find((candidate) => candidate < upper);
}
