import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../apps/server/src/config/env.ts';
import { createCatalogServices } from '../../apps/server/src/catalog/catalog-services.ts';
import { refreshItemDocuments } from '../../apps/server/src/catalog/query/item-json.ts';
import { warmCatalogTables } from '../../apps/server/src/catalog/warm-catalog.ts';
import { createMediaStore } from '../../apps/server/src/storage/media-store.ts';
import type { CatalogDeps } from '../../apps/server/src/catalog/query/items.ts';
import { refreshBaselineDocuments, refreshBaselineRelatedLists } from '../lib/baseline.ts';
import type { Baseline } from '../lib/baseline.ts';
import type { LoadResult } from '../lib/load.ts';
import { combineLoads, roundSummary, runLoad } from '../lib/load.ts';
import { log } from '../lib/log.ts';
import { metadataDir } from '../lib/paths.ts';
import { benchApiKey, createDataDir, startBenchServer } from '../lib/server.ts';
import type { BenchServer } from '../lib/server.ts';
import type { LatencySummary } from '../lib/stats.ts';
import { ratioOf, round, summarizeLatencies } from '../lib/stats.ts';
import { measureSearchUnderEdits, toTenorSearchPaths } from './edits-under-load.ts';
import type { SearchUnderEdits } from './edits-under-load.ts';
import { explainStatement, measureCold, measureRawSql } from './raw-sql.ts';
import { growCatalog, syntheticItemId } from './synthetic-catalog.ts';

export type EndpointName = 'search' | 'trending' | 'ids' | 'related';
export const endpointNames: readonly EndpointName[] = ['search', 'trending', 'ids', 'related'];

export interface SearchBenchOptions {
  sizes: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
  /** Search queries in the mix (half from each query set). */
  queryCount: number;
  /** Requests per endpoint timed in process for the raw SQL figure. */
  rawSamples: number;
  /** Time allowed per endpoint for the raw SQL figure (large catalogs answer slowly). */
  rawBudgetSeconds: number;
  keepDataDir?: boolean;
  /**
   * Another commit's server (bench/lib/baseline.ts), on a database of its own holding the same
   * synthetic catalog, measured in turn with ours: before and after in the same run.
   */
  baseline?: Baseline;
}

export interface EndpointResult {
  /** What the mix holds, e.g. "120 queries from both query sets". */
  mix: string;
  paths: number;
  http: { c1: LoadResult; c32: LoadResult };
  raw: {
    sqlMs: LatencySummary;
    inProcessMs: LatencySummary;
    statementsPerRequest: number;
  };
  /** HTTP at concurrency 1 over the raw SQL time of the same requests (p50 and p99). */
  httpOverSqlP50: number;
  httpOverSqlP99: number;
  /**
   * Search and related: each path once with nothing kept from before (the server keeps a
   * query's ranking and an item's related ids while the catalog is unchanged, so the c=1 and
   * c=32 mixes, repeating the same paths, mostly measure kept answers).
   */
  cold?: {
    requests: number;
    httpMs: LatencySummary;
    sqlMs: LatencySummary;
    httpOverSqlP50: number;
    httpOverSqlP99: number;
    /**
     * The same paths asked the same way just before, on servers just started: each query's
     * pages read from disk and mapped into each backend for the first time (not judged).
     */
    firstPass?: { httpMs: LatencySummary; sqlMs: LatencySummary; beforeHttpMs?: LatencySummary };
  };
  /** EXPLAIN (ANALYZE, BUFFERS) of the slowest statement of the mix. */
  slowestPlan?: { ms: number; sql: string; plan: string };
}

export interface SizeResult {
  items: number;
  renditions: number;
  buildSeconds: number;
  /** How long building the related lists took (docs/catalog.md, "Related"), part of buildSeconds. */
  relatedListsSeconds?: number;
  indexSeconds: number;
  /** The floor of any request on this server: GET /healthz (no database). */
  baseline: { c1: LoadResult; c32: LoadResult; selectOneMs: LatencySummary };
  endpoints: Record<EndpointName, EndpointResult>;
  /** The baseline's server on the same catalog, in turn with ours (`--baseline`). */
  beforeAfter?: BeforeAfter;
  /**
   * The `/v2` search mix at c=32, quiet and while one person edits their item twice a second
   * (issue 43); `before` on the baseline's server (`--baseline`).
   */
  searchUnderEdits?: { after: SearchUnderEdits; before?: SearchUnderEdits };
}

/** One figure of the baseline's server (before) and of ours (after), measured in turn. */
export interface BeforeAfterLatency {
  requests: number;
  /** The baseline's requests that failed (left out of its figures). */
  beforeFailures: number;
  before: LatencySummary;
  after: LatencySummary;
}

export interface BeforeAfter {
  /** The baseline's commit, short. */
  commit: string;
  /** Cold, c=1: each query once after moving each server's catalog_version. */
  search: BeforeAfterLatency;
  /** Cold, c=1: each item of the related mix once, likewise. */
  related: BeforeAfterLatency;
  /** The trending mix at c=32, in rounds taken in turns (ours, baseline, baseline, ours). */
  trendingC32: { before: LoadResult; after: LoadResult };
  /** The related mix at c=32, repeating, likewise (runs before stop 42 have none). */
  relatedC32?: { before: LoadResult; after: LoadResult };
}

export interface SearchBenchResult {
  /** The commit measured beside this one (`--baseline`), short. */
  baselineCommit?: string;
  sizes: SizeResult[];
  /** Each endpoint's figures at the largest size over the smallest. */
  growth: Record<
    EndpointName,
    { from: number; to: number; p50: number; p99: number; sqlP50: number; rpsC32: number }
  >;
}

interface QueryRow {
  query: string;
}

function readQueries(file: string): QueryRow[] {
  const [, ...lines] = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  return lines.map((line) => ({ query: line.split('\t')[0]! })).filter((row) => row.query);
}

/** Every k-th query, so the sample spans the file (both files are sorted alphabetically). */
function spread<T>(list: readonly T[], count: number): T[] {
  if (list.length <= count) return [...list];
  const step = list.length / count;
  return Array.from({ length: count }, (_, index) => list[Math.floor(index * step)]!);
}

/** A deterministic number in [1, size] for (k, j): xorshift-multiply of the pair. */
function pick(size: number, k: number, j: number): number {
  let x = (Math.imul(k + 1, 0x9e3779b1) ^ Math.imul(j + 7, 0x85ebca6b)) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x2c1b3c6d) >>> 0;
  x = (x ^ (x >>> 12)) >>> 0;
  return 1 + (x % size);
}

export function buildRequestMix(size: number, queryCount: number): Record<EndpointName, string[]> {
  const key = `api_key=${benchApiKey}`;
  const catalogQueries = readQueries(path.join(metadataDir, 'catalog-tag-queries.tsv'));
  const emojiQueries = readQueries(path.join(metadataDir, 'emoji-tag-queries.en.tsv'));
  const queries = [
    ...spread(catalogQueries, Math.ceil(queryCount / 2)),
    ...spread(emojiQueries, Math.floor(queryCount / 2)),
  ].map((row) => row.query);
  const groups = Math.max(8, Math.ceil(queryCount / 3));
  return {
    // What the web app sends (features/content/api/search.ts).
    search: queries.map(
      (q) =>
        `/v1/gifs/search?${key}&q=${encodeURIComponent(q)}&limit=25&offset=0&rating=pg-13&lang=en&sort=relevant`,
    ),
    // The home grid's first pages (features/content/api/trending.ts), and the pg-13 ceiling.
    trending: [0, 25, 50, 75].flatMap((offset) =>
      ['g', 'pg-13'].map(
        (rating) => `/v1/gifs/trending?${key}&limit=25&offset=${offset}&rating=${rating}`,
      ),
    ),
    ids: Array.from({ length: groups }, (_, k) => {
      const ids = Array.from({ length: 25 }, (_, j) => syntheticItemId(pick(size, k, j)));
      return `/v1/gifs?${key}&ids=${ids.join(',')}`;
    }),
    // The item page's related row: 15 a page (features/content/api/related.ts).
    related: Array.from(
      { length: groups },
      (_, k) => `/v1/gifs/related?${key}&gif_id=${syntheticItemId(pick(size, k, 1000))}&limit=15`,
    ),
  };
}

function describeMix(name: EndpointName, paths: readonly string[]): string {
  switch (name) {
    case 'search':
      return `${paths.length} queries, half from catalog-tag-queries.tsv, half from emoji-tag-queries.en.tsv; limit 25, rating pg-13`;
    case 'trending':
      return `pages 1–4 (offset 0–75), limit 25, rating g and pg-13`;
    case 'ids':
      return `${paths.length} lists of 25 ids drawn across the catalog`;
    case 'related':
      return `${paths.length} items drawn across the catalog, limit 15`;
  }
}

async function timeSelectOne(deps: CatalogDeps): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let index = 0; index < 300; index += 1) {
    const started = performance.now();
    await deps.database.pool.query('SELECT 1');
    if (index >= 50) samples.push(performance.now() - started);
  }
  return roundSummary(summarizeLatencies(samples));
}

/** Grows `server`'s catalog to `size` items, logging progress now and then. */
async function growServerCatalog(
  server: BenchServer,
  size: number,
  label: string,
  refreshRelatedLists?: () => Promise<{ ms: number } | undefined>,
) {
  log(`search: growing ${label} catalog to ${size.toLocaleString('en')} items`);
  let lastReport = 0;
  const growth = await growCatalog(server.database, size, {
    refreshRelatedLists,
    onProgress: (done, target) => {
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        log(`search:   ${done.toLocaleString('en')} / ${target.toLocaleString('en')} items`);
      }
    },
  });
  log(
    `search: ${label}: ${growth.items} items, ${growth.renditions} renditions in ${growth.seconds.toFixed(0)} s (indexes ${growth.indexSeconds.toFixed(0)} s${growth.relatedListsSeconds === undefined ? '' : `, related lists ${growth.relatedListsSeconds.toFixed(1)} s`})`,
  );
  return growth;
}

const fmtCold = (name: string, summary: LatencySummary) =>
  `${name} p50 ${summary.p50} p99 ${summary.p99} ms`;

export async function runSearchBench(options: SearchBenchOptions): Promise<SearchBenchResult> {
  const dataDir = createDataDir('search');
  log(`search: starting the server (DATA_DIR ${dataDir})`);
  const server = await startBenchServer(dataDir);
  const results: SizeResult[] = [];
  let closeServices: (() => Promise<void>) | undefined;
  let before: BenchServer | undefined;
  let beforeDataDir: string | undefined;
  try {
    if (options.baseline) {
      // Its own embedded PostgreSQL, so its schema is its own (the synthetic catalog's rows fit
      // every schema since migration 0005: synthetic-catalog.ts).
      beforeDataDir = createDataDir('search-baseline');
      log(`search: starting ${options.baseline.commit}'s server (DATA_DIR ${beforeDataDir})`);
      before = await startBenchServer(beforeDataDir, {}, { root: options.baseline.root });
    }
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: server.url,
      DATABASE_URL: server.databaseUrl,
      SESSION_SECRET: 'sticky-bench-session-secret-0123456789abcdef',
    });
    // The catalog's services, as an app makes them (docs/architecture.md, "Services per app").
    const store = createMediaStore(config);
    const services = createCatalogServices({
      config,
      database: server.database,
      media: { store },
      secret: config.sessionSecret!,
      log: { info: () => {}, warn: () => {} },
    });
    closeServices = async () => {
      await services.close();
      store.close();
    };
    const deps = { config, database: server.database, services };
    for (const size of options.sizes) {
      const growth = await growServerCatalog(server, size, 'the');
      // What the catalog's maintenance does within a minute of a start, then hourly
      // (docs/catalog.md, "Item documents"): the most popular items' documents, made ahead.
      const documentsStarted = performance.now();
      const documents = await refreshItemDocuments(deps);
      log(
        `search:   item documents: ${documents.made.toLocaleString('en')} made, ${documents.removed} removed in ${((performance.now() - documentsStarted) / 1000).toFixed(1)} s`,
      );
      if (before) {
        const baselineServer = {
          dataDir: beforeDataDir!,
          url: before.url,
          databaseUrl: before.databaseUrl,
        };
        const grown = await growServerCatalog(before, size, `${options.baseline!.commit}'s`, () =>
          refreshBaselineRelatedLists(options.baseline!, baselineServer),
        );
        if (grown.items !== growth.items) {
          throw new Error(
            `${options.baseline!.commit}'s catalog has ${grown.items} items, ours ${growth.items}`,
          );
        }
        const started = performance.now();
        const made = await refreshBaselineDocuments(options.baseline!, baselineServer);
        log(
          made
            ? `search:   ${options.baseline!.commit}'s item documents, by its own code: ${made.made.toLocaleString('en')} made, ${made.removed} removed in ${((performance.now() - started) / 1000).toFixed(1)} s`
            : `search:   ${options.baseline!.commit} keeps no item documents`,
        );
      }
      // The maintenance's last step (docs/scaling.md, "Memory"), after the baseline's growth so
      // that nothing read since pushes it out: the hot tables in each database's buffer cache.
      // The baseline's too: its own maintenance warmed it at start, when it was empty, and a
      // baseline reading its pages from the operating system came out 1.2 to 1.4 times slower
      // than ours on the same code (docs/scaling.md, "Figures measured here").
      const warm = async (label: string, benchServer: BenchServer) => {
        const warmUp = await warmCatalogTables(benchServer.database, { canInstall: true });
        log(
          `search:   ${label}warm-up: ${warmUp.loaded.length} relations, ${Math.round(warmUp.bytes / 1024 / 1024)} MB in ${(warmUp.ms / 1000).toFixed(1)} s${warmUp.skipped.length > 0 ? `; did not fit: ${warmUp.skipped.join(', ')}` : ''}`,
        );
      };
      if (before) await warm(`${options.baseline!.commit}'s `, before);
      await warm('', server);
      const mix = buildRequestMix(size, options.queryCount);
      const load = async (paths: readonly string[], connections: number, url = server.url) => {
        const result = await runLoad({
          url,
          paths,
          connections,
          durationSeconds: options.durationSeconds,
          warmupSeconds: options.warmupSeconds,
        });
        // Kept in the results (and the README) rather than stopping the run: a timeout under
        // load is a finding too.
        if (result.failures > 0) log(`search:   ${result.failures} failed requests (${paths[0]})`);
        return result;
      };
      const health = ['/healthz'];
      const baseline = {
        c1: await load(health, 1),
        c32: await load(health, 32),
        selectOneMs: await timeSelectOne(deps),
      };
      log(
        `search:   /healthz p50 ${baseline.c1.latencyMs.p50} ms, ${baseline.c32.requestsPerSecond} req/s at 32; SELECT 1 ${baseline.selectOneMs.p50} ms`,
      );
      const endpoints = {} as Record<EndpointName, EndpointResult>;
      const coldBefore: Partial<Record<EndpointName, BeforeAfterLatency>> = {};
      for (const name of endpointNames) {
        const paths = mix[name];
        let cold: EndpointResult['cold'];
        if (name === 'search' || name === 'related') {
          // With a baseline, each path is asked of both servers in turn: twice the time.
          const askEachOnce = () =>
            measureCold(
              deps,
              server.url,
              paths,
              options.rawBudgetSeconds * 1000 * (before ? 2 : 1),
              before ? { url: before.url, pool: before.database.pool } : undefined,
            );
          // Twice, the first pass kept apart: a cold query is one nothing in the app's memory
          // answers, on a database holding its pages as a running server's does. On servers
          // just started after a catalog of 11 GB was written, the first pass reads pages from
          // disk that the warm-up does not load (renditions of items without a document) and
          // each backend maps every page of the shared buffers it touches for the first time
          // (a page fault each): both are paid once by a server that has been running
          // (docs/scaling.md, "What comes next").
          const firstPass = await askEachOnce();
          const timing = await askEachOnce();
          const httpMs = roundSummary(timing.httpMs);
          const sqlMs = roundSummary(timing.sqlMs);
          cold = {
            requests: timing.requests,
            httpMs,
            sqlMs,
            httpOverSqlP50: round(ratioOf(httpMs.p50, sqlMs.p50), 2),
            httpOverSqlP99: round(ratioOf(httpMs.p99, sqlMs.p99), 2),
            firstPass: {
              httpMs: roundSummary(firstPass.httpMs),
              sqlMs: roundSummary(firstPass.sqlMs),
              ...(firstPass.baselineHttpMs
                ? { beforeHttpMs: roundSummary(firstPass.baselineHttpMs) }
                : {}),
            },
          };
          log(
            `search:   ${name}, cold, first pass: p50 ${cold.firstPass!.httpMs.p50} p99 ${cold.firstPass!.httpMs.p99} ms (SQL p50 ${cold.firstPass!.sqlMs.p50} p99 ${cold.firstPass!.sqlMs.p99} ms)${cold.firstPass!.beforeHttpMs ? `; ${options.baseline!.commit} p50 ${cold.firstPass!.beforeHttpMs.p50} p99 ${cold.firstPass!.beforeHttpMs.p99} ms` : ''}`,
          );
          log(
            `search:   ${name}, cold (${timing.requests} paths once): p50 ${httpMs.p50} p99 ${httpMs.p99} ms (SQL p50 ${sqlMs.p50} p99 ${sqlMs.p99} ms)`,
          );
          if (timing.baselineHttpMs) {
            const beforeMs = roundSummary(timing.baselineHttpMs);
            coldBefore[name] = {
              requests: timing.requests,
              beforeFailures: timing.baselineFailures ?? 0,
              before: beforeMs,
              after: httpMs,
            };
            log(
              `search:   ${name}, cold, before/after: ${fmtCold(options.baseline!.commit, beforeMs)}; ${fmtCold('this commit', httpMs)}`,
            );
          }
        }
        // After the cold runs: a backend's first touch of a page of PostgreSQL's buffers costs
        // it a page fault (each backend maps the shared buffers page by page), and this run
        // before them made the in-process side of their first pass, on the same connections,
        // the second to touch every page its queries read while the server's side was first.
        const raw = await measureRawSql(
          deps,
          paths.slice(0, options.rawSamples),
          5,
          options.rawBudgetSeconds * 1000,
        );
        const c1 = await load(paths, 1);
        const c32 = await load(paths, 32);
        let slowestPlan: EndpointResult['slowestPlan'];
        if (raw.slowest) {
          const plan = await explainStatement(server.database.pool, raw.slowest);
          slowestPlan = {
            ms: round(raw.slowest.end - raw.slowest.start),
            sql: raw.slowest.text.replace(/\s+/g, ' ').trim(),
            plan,
          };
        }
        const sqlMs = roundSummary(raw.sqlMs);
        endpoints[name] = {
          mix: describeMix(name, paths),
          paths: paths.length,
          http: { c1, c32 },
          raw: {
            sqlMs,
            inProcessMs: roundSummary(raw.inProcessMs),
            statementsPerRequest: round(raw.statementsPerRequest, 2),
          },
          httpOverSqlP50: round(ratioOf(c1.latencyMs.p50, sqlMs.p50), 2),
          httpOverSqlP99: round(ratioOf(c1.latencyMs.p99, sqlMs.p99), 2),
          cold,
          slowestPlan,
        };
        log(
          `search:   ${name}: c1 p50 ${c1.latencyMs.p50} p99 ${c1.latencyMs.p99} ms (SQL p50 ${sqlMs.p50} ms, ×${endpoints[name].httpOverSqlP50}); c32 ${c32.requestsPerSecond} req/s p99 ${c32.latencyMs.p99} ms`,
        );
      }
      let beforeAfter: BeforeAfter | undefined;
      if (before && coldBefore.search && coldBefore.related) {
        const trendingC32 = await compareAtC32(server, before, mix.trending, options);
        // The related mix asked over and over: the related rows of items many people open.
        const relatedC32 = await compareAtC32(server, before, mix.related, options);
        beforeAfter = {
          commit: options.baseline!.commit,
          search: coldBefore.search,
          related: coldBefore.related,
          trendingC32,
          relatedC32,
        };
        for (const [name, loads] of Object.entries({
          trending: trendingC32,
          related: relatedC32,
        })) {
          log(
            `search:   ${name} c=32, before/after: ${options.baseline!.commit} ${loads.before.requestsPerSecond} req/s (p99 ${loads.before.latencyMs.p99} ms); this commit ${loads.after.requestsPerSecond} req/s (p99 ${loads.after.latencyMs.p99} ms)`,
          );
        }
      }
      // Last, since the edits change the catalog the other figures were measured on.
      const tenorPaths = toTenorSearchPaths(mix.search);
      const editOptions = {
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        itemNumber: 1,
      };
      const searchUnderEdits = {
        after: await measureSearchUnderEdits(server, tenorPaths, editOptions),
        ...(before
          ? { before: await measureSearchUnderEdits(before, tenorPaths, editOptions) }
          : {}),
      };
      for (const [side, figures] of Object.entries(searchUnderEdits)) {
        log(
          `search:   /v2 search c=32 (${side}): quiet ${figures.quiet.requestsPerSecond} req/s, while one person edits twice a second ${figures.editing.requestsPerSecond} req/s (p99 ${figures.editing.latencyMs.p99} ms); edits ${figures.edits.accepted} taken, ${figures.edits.refused} refused of ${figures.edits.sent}`,
        );
      }
      results.push({
        searchUnderEdits,
        items: growth.items,
        renditions: growth.renditions,
        buildSeconds: round(growth.seconds, 1),
        ...(growth.relatedListsSeconds === undefined
          ? {}
          : { relatedListsSeconds: round(growth.relatedListsSeconds, 1) }),
        indexSeconds: round(growth.indexSeconds, 1),
        baseline,
        endpoints,
        beforeAfter,
      });
    }
  } finally {
    await closeServices?.();
    await server.stop();
    await before?.stop();
    if (!options.keepDataDir) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (beforeDataDir) fs.rmSync(beforeDataDir, { recursive: true, force: true });
    }
  }
  const first = results[0]!;
  const last = results.at(-1)!;
  const growth = Object.fromEntries(
    endpointNames.map((name) => {
      const a = first.endpoints[name];
      const b = last.endpoints[name];
      return [
        name,
        {
          from: first.items,
          to: last.items,
          p50: round(ratioOf(b.http.c1.latencyMs.p50, a.http.c1.latencyMs.p50), 2),
          p99: round(ratioOf(b.http.c1.latencyMs.p99, a.http.c1.latencyMs.p99), 2),
          sqlP50: round(ratioOf(b.raw.sqlMs.p50, a.raw.sqlMs.p50), 2),
          rpsC32: round(ratioOf(b.http.c32.requestsPerSecond, a.http.c32.requestsPerSecond), 2),
        },
      ];
    }),
  ) as SearchBenchResult['growth'];
  return { baselineCommit: options.baseline?.commit, sizes: results, growth };
}

/**
 * A mix at c=32 on both servers in rounds taken in turns, ours, the baseline's, the
 * baseline's, ours, each half the usual duration, so a change of load on the machine during
 * the measurement weighs on both alike.
 */
async function compareAtC32(
  after: BenchServer,
  before: BenchServer,
  paths: readonly string[],
  options: SearchBenchOptions,
): Promise<BeforeAfter['trendingC32']> {
  const runs = { before: [] as LoadResult[], after: [] as LoadResult[] };
  const samples = { before: [] as number[], after: [] as number[] };
  for (const [index, side] of (['after', 'before', 'before', 'after'] as const).entries()) {
    runs[side].push(
      await runLoad({
        url: (side === 'after' ? after : before).url,
        paths,
        connections: 32,
        durationSeconds: Math.max(1, options.durationSeconds / 2),
        // Each server is warmed before its first round only.
        warmupSeconds: index < 2 ? options.warmupSeconds : 0,
        samples: samples[side],
      }),
    );
  }
  return {
    before: combineLoads(runs.before, samples.before),
    after: combineLoads(runs.after, samples.after),
  };
}
