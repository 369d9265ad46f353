import fs from 'node:fs';
import path from 'node:path';
import { buildDefaultAltText } from '../../apps/server/src/catalog/alt-text.ts';
import { searchItemIds } from '../../apps/server/src/catalog/query/search.ts';
import { createCatalogServices } from '../../apps/server/src/catalog/catalog-services.ts';
import { createMediaStore } from '../../apps/server/src/storage/media-store.ts';
import type { CatalogDeps } from '../../apps/server/src/catalog/query/items.ts';
import type { QueryDeps } from '../../apps/server/src/catalog/query/query-caches.ts';
import { loadConfig } from '../../apps/server/src/config/env.ts';
import type { FixtureItem } from '../../apps/server/src/test-support/catalog-fixtures.ts';
import { insertCatalogItems } from '../../apps/server/src/test-support/catalog-fixtures.ts';
import { log } from '../lib/log.ts';
import { benchDir, gifsDir, metadataDir } from '../lib/paths.ts';
import { createDataDir, startBenchServer } from '../lib/server.ts';
import { ratioOf, round } from '../lib/stats.ts';

export interface Judged {
  query: string;
  relevant: Set<string>;
}

export interface QualityScore {
  queries: number;
  recallAt25: number;
  mrr: number;
  /** The best recall@25 possible: a query with more than 25 relevant items cannot reach 1. */
  maxRecallAt25: number;
  recallOverMax: number;
  /** Queries that found nothing relevant in their first 25 results. */
  misses: string[];
}

export interface QualityResult {
  catalog: { items: number; queriesFile: string; score: QualityScore };
  emoji: { items: number; queriesFile: string; score: QualityScore };
  misspelt: {
    file: string;
    score: QualityScore;
    /** The same queries spelt right, against the same catalogs. */
    intended: QualityScore;
    recallOverIntended: number;
    mrrOverIntended: number;
    byKind: Record<string, { queries: number; recallAt25: number; mrr: number }>;
  };
  /**
   * Words other vendors name an emoji by that its own label and tags lack (synonyms of its
   * tags), on the emoji catalog: with synonyms, and without (the query's own words only).
   */
  synonyms?: { items: number; source: string; score: QualityScore; unexpanded: QualityScore };
  /** Median time of one search in process (both catalogs are tiny: a sanity figure). */
  searchMs: number;
}

export const misspeltFile = path.join(benchDir, 'quality', 'misspelt-queries.tsv');
const catalogQueriesFile = path.join(metadataDir, 'catalog-tag-queries.tsv');
const emojiQueriesFile = path.join(metadataDir, 'emoji-tag-queries.en.tsv');
const annotationsFile = path.join(metadataDir, 'emoji-annotations.en.tsv');
const localesFile = path.join(metadataDir, 'emoji-annotations.i18n.tsv');

interface ManifestItem {
  file: string;
  title: string;
  tags: string[];
  type: 'gif' | 'sticker';
  width: number;
  height: number;
  frames: number;
}

function readTsv(file: string): Array<Record<string, string>> {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? '']));
  });
}

/** Item ids must be [0-9A-Za-z]: the file name (or hexcode) with everything else dropped. */
const idFrom = (prefix: string, name: string) => `${prefix}${name.replace(/[^A-Za-z0-9]/g, '')}`;

function manifestCatalog(): { items: FixtureItem[]; judged: Judged[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(gifsDir, 'manifest.json'), 'utf8')) as {
    items: ManifestItem[];
  };
  const idByFile = new Map(manifest.items.map((item) => [item.file, idFrom('m', item.file)]));
  const items = manifest.items.map((item) => ({
    id: idByFile.get(item.file)!,
    type: item.type,
    title: item.title,
    tags: item.tags,
    altText: buildDefaultAltText(item.title, item.type, true),
    width: item.width,
    height: item.height,
    frames: item.frames,
  }));
  const judged = readTsv(catalogQueriesFile).map((row) => ({
    query: row.query!,
    relevant: new Set(row.relevant_files!.split('|').map((file) => idByFile.get(file) ?? file)),
  }));
  return { items, judged };
}

/** One sticker per base emoji: its CLDR label as title, its CLDR keywords as tags. */
function emojiCatalog(): { items: FixtureItem[]; judged: Judged[] } {
  const items = readTsv(annotationsFile)
    .filter((row) => !row.base_hexcode && row.label)
    .map((row) => ({
      id: idFrom('e', row.hexcode!),
      type: 'sticker' as const,
      title: row.label!,
      tags: row.tags!.split('|').filter(Boolean),
      altText: buildDefaultAltText(row.label!, 'sticker', true),
      width: 512,
      height: 512,
      frames: 30,
    }));
  const judged = readTsv(emojiQueriesFile).map((row) => ({
    query: row.query!,
    relevant: new Set(row.relevant_hexcodes!.split('|').map((hexcode) => idFrom('e', hexcode))),
  }));
  return { items, judged };
}

/**
 * Synonyms of tags, from data the synonym map was not built or tuned on: the single words
 * Microsoft's Fluent keywords and CLDR's British English annotations give an emoji that are
 * not words of its (American CLDR) label or tags. A query is such a word; relevant, the emoji
 * it names. Judged on the emoji catalog, whose items are those labels and tags.
 */
function synonymQueries(): Judged[] {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const british = new Map(
    readTsv(localesFile)
      .filter((row) => row.locale === 'en-gb')
      .map((row) => [row.hexcode!, [row.label!, ...row.tags!.split('|')]]),
  );
  const relevant = new Map<string, Set<string>>();
  for (const row of readTsv(annotationsFile)) {
    if (row.base_hexcode || !row.label) continue;
    const own = words(`${row.label} ${row.tags!.replace(/\|/g, ' ')}`);
    const others = [...row.fluent_keywords!.split('|'), ...(british.get(row.hexcode!) ?? [])]
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => /^[a-z]{3,}$/.test(entry) && !own.has(entry));
    for (const word of new Set(others)) {
      const set = relevant.get(word) ?? new Set<string>();
      set.add(idFrom('e', row.hexcode!));
      relevant.set(word, set);
    }
  }
  return [...relevant]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([query, ids]) => ({ query, relevant: ids }));
}

async function score(
  deps: QueryDeps,
  judged: readonly Judged[],
  timings: number[],
  isExpanded = true,
): Promise<QualityScore> {
  let recall = 0;
  let maxRecall = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const { query, relevant } of judged) {
    const started = performance.now();
    const { rows } = await searchItemIds(deps, { q: query, limit: 25, offset: 0, isExpanded });
    timings.push(performance.now() - started);
    recall += rows.filter((id) => relevant.has(id)).length / relevant.size;
    maxRecall += Math.min(25, relevant.size) / relevant.size;
    const first = rows.findIndex((id) => relevant.has(id));
    reciprocal += first < 0 ? 0 : 1 / (first + 1);
    if (first < 0) misses.push(query);
  }
  const count = judged.length;
  return {
    queries: count,
    recallAt25: round(recall / count, 4),
    mrr: round(reciprocal / count, 4),
    maxRecallAt25: round(maxRecall / count, 4),
    recallOverMax: round(ratioOf(recall, maxRecall), 4),
    misses: misses.slice(0, 40),
  };
}

async function replaceCatalog(deps: CatalogDeps, items: readonly FixtureItem[]): Promise<void> {
  await deps.database.pool.query('TRUNCATE items, search_terms, search_queries CASCADE');
  await insertCatalogItems(deps.database, items);
  await deps.database.pool.query('ANALYZE items, search_terms, search_term_variants');
}

/** `emojiEvery`: score every n-th emoji query only (the quick run). */
export async function runQualityBench(
  options: { emojiEvery?: number } = {},
): Promise<QualityResult> {
  const dataDir = createDataDir('quality');
  const server = await startBenchServer(dataDir);
  let closeServices: (() => Promise<void>) | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: server.url,
      DATABASE_URL: server.databaseUrl,
    });
    // The catalog's services, as an app makes them (docs/architecture.md, "Services per app").
    const store = createMediaStore(config);
    const services = createCatalogServices({
      config,
      database: server.database,
      media: { store },
      secret: 'sticky-bench-quality-secret-0123456789abcdef',
      log: { info: () => {}, warn: () => {} },
    });
    closeServices = async () => {
      await services.close();
      store.close();
    };
    const deps = { config, database: server.database, services };
    const timings: number[] = [];
    const misspelt = readTsv(misspeltFile);

    const catalog = manifestCatalog();
    await replaceCatalog(deps, catalog.items);
    log(`quality: ${catalog.items.length} manifest items, ${catalog.judged.length} queries`);
    const catalogScore = await score(deps, catalog.judged, timings);
    const pick = (set: string, judged: readonly Judged[], field: 'misspelt' | 'intended') =>
      misspelt
        .filter((row) => row.set === set)
        .map((row) => {
          const intended = judged.find((entry) => entry.query === row.intended);
          if (!intended) throw new Error(`"${row.intended}" is not a query of the ${set} set`);
          return { query: row[field]!, relevant: intended.relevant, kind: row.kind! };
        });
    const catalogTypos = pick('catalog', catalog.judged, 'misspelt');
    const catalogRight = pick('catalog', catalog.judged, 'intended');
    const typoScores = [await score(deps, catalogTypos, timings)];
    const rightScores = [await score(deps, catalogRight, timings)];
    const kindScores: Array<{ kind: string; score: QualityScore }> = [];
    for (const entry of catalogTypos) {
      kindScores.push({ kind: entry.kind, score: await score(deps, [entry], []) });
    }

    const emoji = emojiCatalog();
    await replaceCatalog(deps, emoji.items);
    log(`quality: ${emoji.items.length} emoji items, ${emoji.judged.length} queries`);
    const emojiScore = await score(
      deps,
      emoji.judged.filter((_, index) => index % (options.emojiEvery ?? 1) === 0),
      timings,
    );
    const emojiTypos = pick('emoji', emoji.judged, 'misspelt');
    typoScores.push(await score(deps, emojiTypos, timings));
    rightScores.push(await score(deps, pick('emoji', emoji.judged, 'intended'), timings));
    for (const entry of emojiTypos) {
      kindScores.push({ kind: entry.kind, score: await score(deps, [entry], []) });
    }
    const synonyms = synonymQueries();
    log(`quality: ${synonyms.length} synonym queries on the emoji items`);
    const synonymScore = await score(deps, synonyms, timings);
    const unexpandedScore = await score(deps, synonyms, [], false);

    const combine = (scores: QualityScore[]): QualityScore => {
      const queries = scores.reduce((total, entry) => total + entry.queries, 0);
      const weighted = (key: 'recallAt25' | 'mrr' | 'maxRecallAt25') =>
        scores.reduce((total, entry) => total + entry[key] * entry.queries, 0) / queries;
      return {
        queries,
        recallAt25: round(weighted('recallAt25'), 4),
        mrr: round(weighted('mrr'), 4),
        maxRecallAt25: round(weighted('maxRecallAt25'), 4),
        recallOverMax: round(ratioOf(weighted('recallAt25'), weighted('maxRecallAt25')), 4),
        misses: scores.flatMap((entry) => entry.misses),
      };
    };
    const typos = combine(typoScores);
    const right = combine(rightScores);
    const byKind: QualityResult['misspelt']['byKind'] = {};
    for (const kind of new Set(kindScores.map((entry) => entry.kind))) {
      const mine = kindScores.filter((entry) => entry.kind === kind).map((entry) => entry.score);
      const combined = combine(mine);
      byKind[kind] = {
        queries: combined.queries,
        recallAt25: combined.recallAt25,
        mrr: combined.mrr,
      };
    }
    const sorted = [...timings].sort((a, b) => a - b);
    return {
      catalog: {
        items: catalog.items.length,
        queriesFile: 'catalog-tag-queries.tsv',
        score: catalogScore,
      },
      emoji: {
        items: emoji.items.length,
        queriesFile: 'emoji-tag-queries.en.tsv',
        score: emojiScore,
      },
      misspelt: {
        file: 'bench/quality/misspelt-queries.tsv',
        score: typos,
        intended: right,
        recallOverIntended: round(ratioOf(typos.recallAt25, right.recallAt25), 4),
        mrrOverIntended: round(ratioOf(typos.mrr, right.mrr), 4),
        byKind,
      },
      synonyms: {
        items: emoji.items.length,
        source:
          'single-word Fluent keywords and en-GB CLDR annotations missing from an emoji label and tags',
        score: synonymScore,
        unexpanded: unexpandedScore,
      },
      searchMs: round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, 2),
    };
  } finally {
    await closeServices?.();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
