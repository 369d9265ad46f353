import {
  idsParamsSchema,
  relatedParamsSchema,
  searchParamsSchema,
  trendingParamsSchema,
} from '@sticky/contracts';
import http from 'node:http';
import type pg from 'pg';
import type { CatalogServices } from '../../apps/server/src/catalog/catalog-services.ts';
import type { CatalogDeps } from '../../apps/server/src/catalog/query/items.ts';
import { listRelatedItemIds } from '../../apps/server/src/catalog/query/related.ts';
import { searchItemIds } from '../../apps/server/src/catalog/query/search.ts';
import { serializeItemsJson } from '../../apps/server/src/catalog/query/item-json.ts';
import { readTrendingPage } from '../../apps/server/src/catalog/query/trending-pages.ts';
import type { LatencySummary } from '../lib/stats.ts';
import { summarizeLatencies } from '../lib/stats.ts';

/** The catalog's deps as an app has them: with its services (kept answers, versions). */
export interface BenchDeps extends CatalogDeps {
  services: CatalogServices;
}

/** One statement the catalog code sent, and how long the database took to answer it. */
export interface Statement {
  text: string;
  values: unknown[];
  start: number;
  end: number;
}

/**
 * Times every query sent through `pool` (Drizzle calls pool.query for selects and execute
 * alike) while recording is on: the time from sending a statement to having its rows.
 */
export function instrumentPool(pool: pg.Pool) {
  const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  let recorded: Statement[] | undefined;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const start = performance.now();
    const result = original(...args);
    const sink = recorded;
    if (sink && result instanceof Promise) {
      const config = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof config === 'string' ? config : config.text;
      const values =
        (typeof config === 'object' ? config.values : undefined) ??
        (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
      void result.then(
        () => sink.push({ text, values, start, end: performance.now() }),
        () => {},
      );
    }
    return result;
  };
  return {
    record: () => {
      recorded = [];
    },
    stop: (): Statement[] => {
      const statements = recorded ?? [];
      recorded = undefined;
      return statements;
    },
    restore: () => {
      (pool as unknown as { query: unknown }).query = original;
    },
  };
}

/** Time covered by at least one statement: statements sent in parallel count once. */
export function coveredMs(statements: readonly Statement[]): number {
  const spans = [...statements].sort((a, b) => a.start - b.start);
  let total = 0;
  let openStart = Number.NaN;
  let openEnd = Number.NaN;
  for (const { start, end } of spans) {
    if (Number.isNaN(openStart) || start > openEnd) {
      if (!Number.isNaN(openStart)) total += openEnd - openStart;
      openStart = start;
      openEnd = end;
    } else {
      openEnd = Math.max(openEnd, end);
    }
  }
  if (!Number.isNaN(openStart)) total += openEnd - openStart;
  return total;
}

/**
 * What the /v1 route does for one request path, minus HTTP: the same zod parsing, the same
 * catalog functions in the same order (routes/v1/content.ts), the same serialisation.
 */
export async function runRouteInProcess(deps: BenchDeps, requestPath: string): Promise<void> {
  const url = new URL(requestPath, 'http://bench.invalid');
  const query = Object.fromEntries(url.searchParams);
  const types = ['gif'] as const;
  switch (url.pathname) {
    case '/v1/gifs/search': {
      const params = searchParamsSchema.parse(query);
      const options = { ...params, q: params.q! };
      const page = await searchItemIds(deps, { ...options, types });
      // The search's count goes out after the answer, which does not wait for it
      // (routes/v1/content.ts): not part of the answer's time.
      await serializeItemsJson(deps, page.rows);
      return;
    }
    case '/v1/gifs/trending': {
      // As the route: from memory while catalog_version has not moved (trending-pages.ts).
      const params = trendingParamsSchema.parse(query);
      await readTrendingPage(deps, { ...params, types });
      return;
    }
    case '/v1/gifs/related': {
      const params = relatedParamsSchema.parse(query);
      const page = await listRelatedItemIds(deps, { ...params, itemId: params.gif_id, types });
      await serializeItemsJson(deps, page.rows);
      return;
    }
    case '/v1/gifs': {
      const { ids } = idsParamsSchema.parse(query);
      await serializeItemsJson(deps, ids);
      return;
    }
    default:
      throw new Error(`no in-process runner for ${url.pathname}`);
  }
}

export interface RawTiming {
  /** Time the database took (statements in flight), per request. */
  sqlMs: LatencySummary;
  /** The whole in-process call (SQL plus parsing and serialising in JS), per request. */
  inProcessMs: LatencySummary;
  statementsPerRequest: number;
  /** The slowest statement seen, for EXPLAIN ANALYZE. */
  slowest?: Statement;
}

/**
 * Runs each request path in process, one at a time, after `warmup` untimed ones, stopping
 * early (with at least 10 timed requests) once `budgetMs` has been spent.
 */
export async function measureRawSql(
  deps: BenchDeps,
  paths: readonly string[],
  warmup = 10,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<RawTiming> {
  for (const requestPath of paths.slice(0, warmup)) await runRouteInProcess(deps, requestPath);
  const deadline = performance.now() + budgetMs;
  const recorder = instrumentPool(deps.database.pool);
  const sqlMs: number[] = [];
  const inProcessMs: number[] = [];
  let statements = 0;
  let slowest: Statement | undefined;
  try {
    for (const requestPath of paths) {
      if (performance.now() > deadline && sqlMs.length >= 10) break;
      recorder.record();
      const started = performance.now();
      await runRouteInProcess(deps, requestPath);
      const elapsed = performance.now() - started;
      // Let the recorder's .then callbacks run before reading them.
      await new Promise((resolve) => setImmediate(resolve));
      const sent = recorder.stop();
      sqlMs.push(coveredMs(sent));
      inProcessMs.push(elapsed);
      statements += sent.length;
      for (const statement of sent) {
        if (!slowest || statement.end - statement.start > slowest.end - slowest.start) {
          slowest = statement;
        }
      }
    }
  } finally {
    recorder.restore();
  }
  return {
    sqlMs: summarizeLatencies(sqlMs),
    inProcessMs: summarizeLatencies(inProcessMs),
    statementsPerRequest: sqlMs.length > 0 ? statements / sqlMs.length : 0,
    slowest,
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of one recorded statement, as text. */
export async function explainStatement(pool: pg.Pool, statement: Statement): Promise<string> {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
    statement.values,
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

export interface ColdTiming {
  /** Requests timed (each path once). */
  requests: number;
  /** Over HTTP, one request at a time. */
  httpMs: LatencySummary;
  /** The same request in process: time the database took. */
  sqlMs: LatencySummary;
  /** The same request to the baseline's server, in turn with ours (HTTP only). */
  baselineHttpMs?: LatencySummary;
  /** The baseline's requests that failed (not timed): a finding, not a reason to stop. */
  baselineFailures?: number;
}

/** Another server to time each request on as well, with the pool of its own database. */
export interface ColdBaseline {
  url: string;
  pool: pg.Pool;
}

/**
 * Moves catalog_version, so nothing kept from before answers the next request (as an import
 * would), and waits until the server has heard of it: the notification reaches its listener
 * within a few ms.
 */
async function forgetKeptAnswers(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT sticky_catalog_version_bump()');
  await new Promise((resolve) => setTimeout(resolve, 30));
}

/** One connection kept open, as autocannon's: no handshake in any request's time. */
const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * The time to an answer's last byte, asked as a browser asks (Brotli accepted), read as
 * autocannon reads it: not decoded. Node's fetch decodes the body on the way, about 1.5 ms
 * for a page of 25 items, which is the client's time, not the server's.
 */
function timeRequest(serverUrl: string, requestPath: string) {
  const started = performance.now();
  return new Promise<{ ms: number; status: number; ok: boolean }>((resolve, reject) => {
    const request = http.get(
      new URL(requestPath, serverUrl),
      { agent: keptAlive, headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' } },
      (response) => {
        response.resume();
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve({ ms: performance.now() - started, status, ok: status >= 200 && status < 300 });
        });
      },
    );
    request.on('error', reject);
  });
}

/**
 * Each path once with nothing kept from before: the server keeps a query's ranking (and
 * trending pages) while catalog_version is unchanged, so the version is moved before every
 * request. With a baseline, each path is also asked of it, in turn with ours (which goes first
 * alternates), so load on the machine affects both alike; in-process SQL needs our code, so the
 * baseline has HTTP only. The in-process run (the SQL figure) goes first on every other path,
 * last on the others, so neither figure is always the one that finds the pages warm. On the
 * paths where ours comes after its in-process run, the baseline is asked once untimed first,
 * so it finds its own database's pages as warm as ours does. Without that the baseline was
 * always the first to read them: measured against the same code at 100k, its cold search p50
 * came out 1.50× ours (16.2 against 10.8 ms) and related 1.30×; with it, 1.22× and 1.07×.
 */
export async function measureCold(
  deps: BenchDeps,
  serverUrl: string,
  paths: readonly string[],
  budgetMs = Number.POSITIVE_INFINITY,
  baseline?: ColdBaseline,
): Promise<ColdTiming> {
  const httpMs: number[] = [];
  const sqlMs: number[] = [];
  const baselineHttpMs: number[] = [];
  let baselineFailures = 0;
  const recorder = instrumentPool(deps.database.pool);
  const deadline = performance.now() + budgetMs;
  const timeOurs = async (requestPath: string) => {
    await forgetKeptAnswers(deps.database.pool);
    const timed = await timeRequest(serverUrl, requestPath);
    if (!timed.ok) throw new Error(`${requestPath}: HTTP ${timed.status}`);
    httpMs.push(timed.ms);
  };
  const timeBaseline = async (requestPath: string, isWarmed: boolean) => {
    if (!baseline) return;
    if (isWarmed) {
      // As ours after its in-process run: the pages this query reads were read once already.
      await forgetKeptAnswers(baseline.pool);
      await timeRequest(baseline.url, requestPath).catch(() => undefined);
    }
    await forgetKeptAnswers(baseline.pool);
    const timed = await timeRequest(baseline.url, requestPath).catch(() => undefined);
    if (timed?.ok) baselineHttpMs.push(timed.ms);
    else baselineFailures += 1;
  };
  const timeSql = async (requestPath: string) => {
    await forgetKeptAnswers(deps.database.pool);
    recorder.record();
    await runRouteInProcess(deps, requestPath);
    await new Promise((resolve) => setImmediate(resolve));
    sqlMs.push(coveredMs(recorder.stop()));
  };
  try {
    for (const [index, requestPath] of paths.entries()) {
      if (performance.now() > deadline && httpMs.length >= 10) break;
      // Whichever asks first reads the pages the query needs from disk (or the OS's cache) and
      // leaves them in PostgreSQL's buffers for the others, so the order alternates.
      if (index % 2 === 0) {
        await timeOurs(requestPath);
        await timeBaseline(requestPath, false);
        await timeSql(requestPath);
      } else {
        await timeSql(requestPath);
        await timeBaseline(requestPath, true);
        await timeOurs(requestPath);
      }
    }
  } finally {
    recorder.restore();
  }
  return {
    requests: httpMs.length,
    httpMs: summarizeLatencies(httpMs),
    sqlMs: summarizeLatencies(sqlMs),
    ...(baseline ? { baselineHttpMs: summarizeLatencies(baselineHttpMs), baselineFailures } : {}),
  };
}
