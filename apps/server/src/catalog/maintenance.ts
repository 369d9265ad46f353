import { sql } from 'drizzle-orm';
import { pruneSearchActivity } from './activity/search-queries.ts';
import { purgeStaleRenderings } from './text/purge-renderings.ts';
import type { PurgeDeps } from './text/purge-renderings.ts';
import { refreshItemDocuments } from './query/item-json.ts';
import type { CatalogDeps } from './query/items.ts';
import { warmCatalogTables } from './warm-catalog.ts';
import type { CatalogWarmUp } from './warm-catalog.ts';

type MaintenanceDeps = CatalogDeps & PurgeDeps;

export interface MaintenanceLogger {
  info: (object: object, message?: string) => void;
  warn: (object: object, message?: string) => void;
}

export interface MaintenanceSummary {
  /** False when another process was at it: nothing was done this time. */
  isDone: boolean;
  renderingsPurged: number;
  searchersPruned: number;
  searchDaysPruned: number;
  quotaDaysPruned: number;
  /** Item documents removed (no longer popular enough, an older format) and made. */
  documentsRemoved: number;
  documentsMade: number;
  /** What was read into the database's buffer cache (warm-catalog.ts); undefined when not run. */
  warmUp?: CatalogWarmUp;
}

export interface CatalogMaintenance {
  /** One run now (tests; the timer runs it every hour). */
  runNow: () => Promise<MaintenanceSummary>;
  /** Stops the timer and waits for a run under way. */
  close: () => Promise<void>;
}

/** Any key works; this one is ours alone (pg advisory locks are per database). */
const MAINTENANCE_LOCK_KEY = 0x5717c4;

/** The catalog's own housekeeping: what grows every day and is not needed forever. */
async function runMaintenance(
  deps: MaintenanceDeps,
  options: {
    textRenderKeepDays: number;
    isClosed: () => boolean;
    /** Ours to add pg_prewarm to (warm-catalog.ts). */
    isEmbedded: boolean;
    /** False when the start-up warm-up has just done it. */
    shouldWarm: boolean;
  },
): Promise<MaintenanceSummary> {
  const client = await deps.database.pool.connect();
  try {
    const locked = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [MAINTENANCE_LOCK_KEY],
    );
    if (!locked.rows[0]?.locked) {
      return {
        isDone: false,
        renderingsPurged: 0,
        searchersPruned: 0,
        searchDaysPruned: 0,
        quotaDaysPruned: 0,
        documentsRemoved: 0,
        documentsMade: 0,
      };
    }
    try {
      const renderings = await purgeStaleRenderings(deps, { keepDays: options.textRenderKeepDays });
      const search = await pruneSearchActivity(deps);
      const quota = await deps.database.db.execute(
        sql`DELETE FROM text_render_counts WHERE day < (now() AT TIME ZONE 'utc')::date`,
      );
      const documents = await refreshItemDocuments(deps);
      // Last: the documents just made are among what it reads in.
      const warmUp = options.shouldWarm
        ? await warmCatalogTables(deps.database, {
            canInstall: options.isEmbedded,
            isCancelled: options.isClosed,
          })
        : undefined;
      return {
        isDone: true,
        renderingsPurged: renderings.items,
        searchersPruned: search.searchers,
        searchDaysPruned: search.queries,
        quotaDaysPruned: quota.rowCount ?? 0,
        documentsRemoved: documents.removed,
        documentsMade: documents.made,
        warmUp,
      };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MAINTENANCE_LOCK_KEY]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/**
 * Runs the catalog's housekeeping a minute after the app starts, then every hour, on a timer
 * owned by the app's services and stopped when it closes (docs/catalog.md, "Jobs"). Every
 * server on the database may run it; an advisory lock lets one at a time do the work.
 */
export function startCatalogMaintenance(
  deps: MaintenanceDeps,
  options: {
    textRenderKeepDays: number;
    log: MaintenanceLogger;
    intervalMs?: number;
    firstRunDelayMs?: number;
  },
): CatalogMaintenance {
  const intervalMs = options.intervalMs ?? 60 * 60_000;
  let running: Promise<MaintenanceSummary> | undefined;
  let isClosed = false;
  // The embedded database is ours to add pg_prewarm to; an external one is warmed only if its
  // operator did (warm-catalog.ts).
  const isEmbedded = !deps.config.databaseUrl;
  // The start-up warm-up below stands for the first run's: the cache was filled a minute ago.
  let hasFreshWarmUp = isEmbedded;
  const runNow = () => {
    running ??= runMaintenance(deps, {
      ...options,
      isClosed: () => isClosed,
      isEmbedded,
      shouldWarm: !hasFreshWarmUp,
    }).finally(() => {
      running = undefined;
    });
    hasFreshWarmUp = false;
    return running;
  };
  let hasWarmed = false;
  const reportWarmUp = (warmUp: CatalogWarmUp | undefined) => {
    // Once after start, and whenever the cache is too small for the catalog.
    if (!warmUp?.isAvailable || (hasWarmed && warmUp.skipped.length === 0)) return;
    hasWarmed = true;
    options.log.info(
      {
        loaded: warmUp.loaded.length,
        skipped: warmUp.skipped,
        megabytes: Math.round(warmUp.bytes / 1024 / 1024),
        ms: Math.round(warmUp.ms),
      },
      'read the catalog’s tables into the database’s memory',
    );
  };
  // The embedded PostgreSQL starts with an empty buffer cache (it is started with the server):
  // warmed at once, not in a minute, or the first minute's searches read every page from the
  // operating system, about three times slower at a million items (docs/scaling.md, "Memory").
  // An external database outlives our restarts; its hourly run is enough.
  const warming = isEmbedded
    ? warmCatalogTables(deps.database, { canInstall: true, isCancelled: () => isClosed })
        .then(reportWarmUp)
        .catch((error: unknown) =>
          options.log.warn({ err: error }, 'could not read the catalog into memory'),
        )
    : undefined;
  const tick = () => {
    if (isClosed) return;
    runNow()
      .then((summary) => {
        reportWarmUp(summary.warmUp);
        if (summary.renderingsPurged > 0) {
          options.log.info(summary, 'purged animated text nobody favorited');
        }
        if (summary.documentsMade > 0 || summary.documentsRemoved > 0) {
          options.log.info(summary, 'kept the documents of the most popular items');
        }
      })
      .catch((error: unknown) => options.log.warn({ err: error }, 'catalog maintenance failed'))
      .finally(() => {
        if (!isClosed) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  let timer: NodeJS.Timeout = setTimeout(tick, options.firstRunDelayMs ?? 60_000).unref();
  return {
    runNow,
    close: async () => {
      isClosed = true;
      clearTimeout(timer);
      await warming;
      await running?.catch(() => {});
    },
  };
}
