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

type StorageFigures = AdminOverviewResponse['storage'];

export interface AdminOverview {
  read: () => Promise<AdminOverviewResponse>;
}

/**
 * Phrases read per list from the closed days and from today, before they are merged: a phrase
 * outside both could be under-counted, which a top 10 does not show.
 */
const phrasesMerged = 500;

const dayMs = 86_400_000;

/** A UTC day `days` after (or before) `day`, as YYYY-MM-DD. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** What happened over some days: counts per day and the most counted phrases. */
interface Activity {
  uploads: Map<string, number>;
  searches: Map<string, number>;
  topSearches: Map<string, number>;
  missedSearches: Map<string, number>;
}

/**
 * The admin overview's figures (docs/operations.md, "Admin overview"), made per app by its
 * route plugin. The closed days of the window (before today, UTC) no longer change: they are
 * read once a day and kept, so each read counts today's rows only, whatever the catalog's size
 * (a million uploads imported this month cost a second or two, once a day: bench/notes.md).
 * The storage sums, which read every rendition, are kept a few minutes.
 */
export function createAdminOverview(deps: AdminOverviewDeps): AdminOverview {
  const now = deps.now ?? Date.now;
  let storage: { figures: StorageFigures; readAt: number } | undefined;
  let storageReading: Promise<StorageFigures> | undefined;
  let closed: { today: string; activity: Promise<Activity> } | undefined;

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

  const readClosedDays = (today: string): Promise<Activity> => {
    if (closed?.today !== today) {
      const activity = readActivity(
        deps.database,
        addDays(today, -(overviewDays - 1)),
        addDays(today, -1),
      );
      closed = { today, activity };
      // A failed read is tried again by the next request.
      activity.catch(() => {
        if (closed?.activity === activity) closed = undefined;
      });
    }
    return closed.activity;
  };

  return {
    read: async () => {
      const today = new Date(now()).toISOString().slice(0, 10);
      const [past, current, stats, figures, health] = await Promise.all([
        readClosedDays(today),
        readActivity(deps.database, today, today),
        readJobQueueStats(deps.database, deps.jobSchema ?? defaultJobSchema),
        readStorage(),
        readHealth(deps),
      ]);
      const days = Array.from({ length: overviewDays }, (_, index) =>
        addDays(today, index - (overviewDays - 1)),
      );
      const perDay = (pick: (activity: Activity) => Map<string, number>): DayCount[] =>
        days.map((day) => ({ day, count: pick(past).get(day) ?? pick(current).get(day) ?? 0 }));
      return {
        uploadsPerDay: perDay((activity) => activity.uploads),
        searchesPerDay: perDay((activity) => activity.searches),
        topSearches: mergePhrases(past.topSearches, current.topSearches),
        missedSearches: mergePhrases(past.missedSearches, current.missedSearches),
        storage: figures,
        jobQueues: summarizeQueues(stats),
        health,
      };
    },
  };
}

/** The phrases of both lists, summed, that enough people searched; most first. */
function mergePhrases(
  past: Map<string, number>,
  current: Map<string, number>,
): AdminOverviewResponse['topSearches'] {
  const sums = new Map(past);
  for (const [query, count] of current) sums.set(query, (sums.get(query) ?? 0) + count);
  return [...sums]
    .filter(([, count]) => count >= minPeopleListed)
    .sort(([queryA, countA], [queryB, countB]) => countB - countA || (queryA < queryB ? -1 : 1))
    .slice(0, phrasesListed)
    .map(([query, count]) => ({ query, count }));
}

/**
 * Uploads and searches per day from `from` to `to` (UTC days, both included), and the most
 * searched phrases, found and missed. Each is a range of an index on the day (uploads_created_idx,
 * the day indexes of migration 0028): the days' rows are read, never the catalog.
 */
async function readActivity(database: DatabaseHandle, from: string, to: string): Promise<Activity> {
  const { pool } = database;
  const [uploads, searches, topSearches, missedSearches] = await Promise.all([
    pool.query<{ key: string; count: number }>(
      `SELECT (created_at AT TIME ZONE 'utc')::date::text AS key, count(*)::int AS count
         FROM uploads
        WHERE created_at >= $1::date::timestamp AT TIME ZONE 'utc'
          AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'utc'
        GROUP BY 1`,
      [from, to],
    ),
    pool.query<{ key: string; count: number }>(
      `SELECT day::text AS key, sum(count)::int AS count FROM (
         SELECT day, count FROM search_queries WHERE day BETWEEN $1 AND $2
         UNION ALL
         SELECT day, count FROM search_misses WHERE day BETWEEN $1 AND $2
       ) AS searches
       GROUP BY day`,
      [from, to],
    ),
    readPhrases(database, 'search_queries', from, to),
    readPhrases(database, 'search_misses', from, to),
  ]);
  const toMap = (rows: Array<{ key: string; count: number }>) =>
    new Map(rows.map((row) => [row.key, row.count]));
  return {
    uploads: toMap(uploads.rows),
    searches: toMap(searches.rows),
    topSearches: toMap(topSearches),
    missedSearches: toMap(missedSearches),
  };
}

async function readPhrases(
  database: DatabaseHandle,
  table: 'search_queries' | 'search_misses',
  from: string,
  to: string,
): Promise<Array<{ key: string; count: number }>> {
  const { rows } = await database.pool.query<{ key: string; count: number }>(
    `SELECT query AS key, sum(count)::int AS count FROM ${table}
      WHERE day BETWEEN $1 AND $2
      GROUP BY query
      ORDER BY 2 DESC, query
      LIMIT $3`,
    [from, to, phrasesMerged],
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
