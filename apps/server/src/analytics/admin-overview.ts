import { overviewDays } from '@sticky/contracts';
import type { AdminOverviewResponse, DayCount, OverviewJobQueue } from '@sticky/contracts';
import type { DatabaseHandle } from '../db/client.ts';
import { defaultJobSchema } from '../jobs/job-queue.ts';
import { readJobQueueStats } from '../jobs/queue-stats.ts';
import type { MediaStore } from '../storage/media-store.ts';

export interface AdminOverviewDeps {
  database: DatabaseHandle;
  media: { store: MediaStore };
  /** pg-boss's schema (jobs/job-queue.ts); the default one unless a test gives another. */
  jobSchema?: string;
  now?: () => number;
}

/** Phrases listed as top and missed searches. */
const phrasesListed = 10;

/**
 * A phrase searched by fewer people than this over the window is not listed: the lists say
 * what people look for, not what one person once typed (docs/operations.md, "Admin overview").
 */
const minPeopleListed = 2;

/** The storage sums read every rendition: kept this long, as /metrics keeps its own. */
const storageMaxAgeMs = 5 * 60_000;

/** A storage check that takes longer than this says the storage does not answer. */
const storageCheckTimeoutMs = 5_000;

/** The first day of the window as SQL: today (UTC) and the days before it. */
const firstDaySql = `(now() AT TIME ZONE 'utc')::date - ${overviewDays - 1}`;

type StorageFigures = AdminOverviewResponse['storage'];

export interface AdminOverview {
  read: () => Promise<AdminOverviewResponse>;
}

/**
 * The admin overview's figures (docs/operations.md, "Admin overview"), made per app by its
 * route plugin: it keeps the last storage sums, which cost a read of every rendition.
 */
export function createAdminOverview(deps: AdminOverviewDeps): AdminOverview {
  const now = deps.now ?? Date.now;
  let storage: { figures: StorageFigures; readAt: number } | undefined;
  let storageReading: Promise<StorageFigures> | undefined;

  const readStorage = async (): Promise<StorageFigures> => {
    if (storage && now() - storage.readAt < storageMaxAgeMs) return storage.figures;
    // One read at a time: admins opening the page together share it.
    storageReading ??= readStorageFigures(deps.database)
      .then((figures) => {
        storage = { figures, readAt: now() };
        return figures;
      })
      .finally(() => {
        storageReading = undefined;
      });
    return storageReading;
  };

  return {
    read: async () => {
      const [uploadsPerDay, searchesPerDay, topSearches, missedSearches, stats, figures, health] =
        await Promise.all([
          readUploadsPerDay(deps.database),
          readSearchesPerDay(deps.database),
          readTopPhrases(deps.database, 'search_queries'),
          readTopPhrases(deps.database, 'search_misses'),
          readJobQueueStats(deps.database, deps.jobSchema ?? defaultJobSchema),
          readStorage(),
          readHealth(deps),
        ]);
      return {
        uploadsPerDay,
        searchesPerDay,
        topSearches,
        missedSearches,
        storage: figures,
        jobQueues: summarizeQueues(stats),
        health,
      };
    },
  };
}

/**
 * Files received per UTC day, every day of the window: a range of uploads_created_idx, so
 * the window's uploads are read, never the catalog.
 */
async function readUploadsPerDay(database: DatabaseHandle): Promise<DayCount[]> {
  return readDays(
    database,
    `SELECT (created_at AT TIME ZONE 'utc')::date AS day, count(*) AS count
       FROM uploads
      WHERE created_at >= (${firstDaySql})::timestamp AT TIME ZONE 'utc'
      GROUP BY 1`,
  );
}

/**
 * Searches per UTC day (people per phrase, found or missed): ranges of the day indexes of
 * search_queries and search_misses (migration 0028).
 */
async function readSearchesPerDay(database: DatabaseHandle): Promise<DayCount[]> {
  return readDays(
    database,
    `SELECT day, sum(count) AS count FROM (
       SELECT day, count FROM search_queries WHERE day >= ${firstDaySql}
       UNION ALL
       SELECT day, count FROM search_misses WHERE day >= ${firstDaySql}
     ) AS searches
     GROUP BY day`,
  );
}

/** `perDay` (day, count) joined to every day of the window, 0 where it has none. */
async function readDays(database: DatabaseHandle, perDay: string): Promise<DayCount[]> {
  const { rows } = await database.pool.query<DayCount>(
    `SELECT days.day::date::text AS day, coalesce(counts.count, 0)::int AS count
       FROM generate_series(${firstDaySql}, (now() AT TIME ZONE 'utc')::date, interval '1 day')
            AS days(day)
       LEFT JOIN (${perDay}) AS counts ON counts.day = days.day::date
      ORDER BY days.day`,
  );
  return rows;
}

async function readTopPhrases(
  database: DatabaseHandle,
  table: 'search_queries' | 'search_misses',
): Promise<AdminOverviewResponse['topSearches']> {
  const { rows } = await database.pool.query<{ query: string; count: number }>(
    `SELECT query, sum(count)::int AS count FROM ${table}
      WHERE day >= ${firstDaySql}
      GROUP BY query HAVING sum(count) >= $1
      ORDER BY 2 DESC, query
      LIMIT $2`,
    [minPeopleListed, phrasesListed],
  );
  return rows;
}

/**
 * Bytes of the stored originals (the `original` rendition in the item's own format: the cleaned
 * file received) and of every other rendition, each content-addressed file once.
 */
async function readStorageFigures(database: DatabaseHandle): Promise<StorageFigures> {
  const { rows } = await database.pool.query<{ originals: string | null; others: string | null }>(
    `SELECT sum(bytes) FILTER (WHERE is_original)::text AS originals,
            sum(bytes) FILTER (WHERE NOT is_original)::text AS others
       FROM (
         SELECT DISTINCT ON (r.path) r.bytes,
                (r.name = 'original' AND r.format = i.original_format) AS is_original
           FROM renditions r JOIN items i ON i.id = r.item_id
          ORDER BY r.path, 2 DESC
       ) AS files`,
  );
  return {
    originalBytes: Number(rows[0]?.originals ?? 0),
    renditionBytes: Number(rows[0]?.others ?? 0),
    readAt: new Date().toISOString(),
  };
}

/** pg-boss's rows by queue and state, as one line per queue. */
function summarizeQueues(stats: Awaited<ReturnType<typeof readJobQueueStats>>): OverviewJobQueue[] {
  const byQueue = new Map<string, OverviewJobQueue>();
  for (const stat of stats) {
    const queue = byQueue.get(stat.queue) ?? {
      queue: stat.queue,
      waiting: 0,
      active: 0,
      oldestAgeSeconds: 0,
    };
    if (stat.state === 'active') queue.active += stat.count;
    else queue.waiting += stat.count;
    queue.oldestAgeSeconds = Math.max(queue.oldestAgeSeconds, stat.oldestAgeSeconds);
    byQueue.set(stat.queue, queue);
  }
  return [...byQueue.values()].sort((a, b) => a.queue.localeCompare(b.queue));
}

/** The database's round trip and whether the media storage answers (as at start-up). */
async function readHealth(deps: AdminOverviewDeps): Promise<AdminOverviewResponse['health']> {
  const [database, storage] = await Promise.all([
    (async () => {
      const started = performance.now();
      try {
        await deps.database.pool.query('SELECT 1');
        return { state: 'ok' as const, latencyMs: performance.now() - started };
      } catch {
        return { state: 'unreachable' as const, latencyMs: null };
      }
    })(),
    checkStorage(deps.media.store),
  ]);
  return { database, storage: { state: storage, kind: deps.media.store.kind } };
}

async function checkStorage(store: MediaStore): Promise<'ok' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), storageCheckTimeoutMs);
  });
  try {
    return await Promise.race([
      store.check().then(
        () => 'ok' as const,
        () => 'unreachable' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
