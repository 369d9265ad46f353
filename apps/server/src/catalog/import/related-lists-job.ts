import type { DatabaseHandle } from '../../db/client.ts';
import type { JobLogger, JobQueue } from '../../jobs/job-queue.ts';
import {
  listsBuiltSql,
  relatedListFormat,
  relatedListHead,
  relatedListLength,
} from '../query/related-lists.ts';

/**
 * Builds the related lists the first related page reads (catalog/query/related-lists.ts;
 * docs/catalog.md, "Related"), set-based in SQL, on the durable job queue.
 */

/** The durable queue of rebuilds (jobs/job-queue.ts): one waiting and one running at most. */
export const RELATED_LISTS_QUEUE = 'refresh-related-lists';

/** Rebuilds wait at least this long after the last one started... */
const minRefreshGapMs = 1_000;

/** ...and this many times as long as the last one took: at most a tenth of a core. */
const refreshGapFactor = 10;

export interface RefreshOutcome {
  /** False when the lists already held every change (nothing was read). */
  isRebuilt: boolean;
  /** Keys and types whose list was added, changed or removed. */
  changedLists: number;
  ms: number;
}

/**
 * Rebuilds every key's list from the catalog, set-based, unless they already hold every
 * change to items (`isForced` rebuilds anyway). One rebuild at a time on a database (an
 * advisory lock); readers keep the old lists until it commits. When lists that were already in
 * use changed, item_text_version is moved naming no item, so related rankings kept from the old
 * lists are made again and other kept answers stay (docs/catalog.md, "Caches and versions").
 */
export async function refreshRelatedLists(
  database: DatabaseHandle,
  options: { isForced?: boolean } = {},
): Promise<RefreshOutcome> {
  const started = performance.now();
  const client = await database.pool.connect();
  let changedLists = 0;
  let wasBuilt = false;
  try {
    await client.query('BEGIN');
    try {
      // A rebuild at a million items takes longer than a request may.
      await client.query("SET LOCAL statement_timeout = 0; SET LOCAL work_mem = '256MB'");
      await client.query("SELECT pg_advisory_xact_lock(hashtext('sticky related lists'))");
      const state = await client.query<{
        changes: string;
        was_built: boolean;
        is_fresh: boolean;
      }>(
        `SELECT changes, ${listsBuiltSql('s')} AS was_built,
           ${listsBuiltSql('s')} AND s.built_changes = s.changes AS is_fresh
         FROM related_lists_state s`,
      );
      const row = state.rows[0];
      if (!row) throw new Error('related_lists_state has no row (migration 0013)');
      wasBuilt = row.was_built;
      const isFresh = row.is_fresh;
      if (isFresh && !options.isForced) {
        await client.query('COMMIT');
        return { isRebuilt: false, changedLists: 0, ms: performance.now() - started };
      }
      // The changes this snapshot holds: the rebuild's statements see at least these.
      await client.query(
        'CREATE TEMP TABLE held_related_changes ON COMMIT DROP AS SELECT seq FROM related_lists_changes',
      );
      // Ties broken as related.ts breaks them (compareIds: code units, so the C collation).
      await client.query(
        `CREATE TEMP TABLE fresh_related_keys ON COMMIT DROP AS
         SELECT type, key, (array_agg(id ORDER BY tier DESC, trend DESC, id COLLATE "C"))[1:$1] AS item_ids,
           count(*)::int AS item_count
         FROM (
           SELECT i.type, k.key, i.id, i.popularity_tier AS tier, i.trend_score AS trend
           FROM items i CROSS JOIN LATERAL (
             SELECT DISTINCT 't:' || t FROM unnest(i.tags) t
             UNION ALL SELECT 'w:' || w FROM unnest(tsvector_to_array(i.search_vector_stem)) w
           ) k(key)
           WHERE i.is_indexable AND NOT i.is_dynamic
         ) candidates
         GROUP BY type, key`,
        [relatedListLength],
      );
      // Each key listed keeps its number while it is listed (related_key_names, migration
      // 0018); a key no item has any more goes, so the table follows the catalog's keys. Numbers
      // are never reused, and only the entries written below name keys.
      await client.query(
        `DELETE FROM related_key_names n
         WHERE NOT EXISTS (SELECT 1 FROM fresh_related_keys f WHERE f.key = n.key)`,
      );
      await client.query(
        `INSERT INTO related_key_names (key) SELECT DISTINCT key FROM fresh_related_keys
         ON CONFLICT (key) DO NOTHING`,
      );
      // Each listed item's entry (related-lists.ts, ListEntry): its popularity, its rating, and
      // the numbers of its keys and of its title's stems (lexemes at weight A), set-based.
      await client.query(
        `CREATE TEMP TABLE fresh_related_entries ON COMMIT DROP AS
         WITH listed AS (SELECT DISTINCT unnest(item_ids) AS id FROM fresh_related_keys),
         keyed AS (
           SELECT i.id, n.id AS key_id, k.is_title
           FROM items i JOIN listed l ON l.id = i.id
           CROSS JOIN LATERAL (
             SELECT DISTINCT 't:' || t, false FROM unnest(i.tags) t
             UNION ALL SELECT 'w:' || s.lexeme, 'A' = ANY (s.weights)
             FROM unnest(i.search_vector_stem) s
           ) k(key, is_title)
           JOIN related_key_names n ON n.key = k.key
         ), grouped AS (
           SELECT id, array_agg(key_id ORDER BY key_id) AS key_ids,
             coalesce(array_agg(key_id ORDER BY key_id) FILTER (WHERE is_title), '{}') AS title_key_ids
           FROM keyed GROUP BY id
         )
         SELECT g.id, json_build_array(i.popularity_tier, i.trend_score, i.rating, g.key_ids,
           g.title_key_ids) AS entry
         FROM grouped g JOIN items i ON i.id = g.id`,
      );
      const removed = await client.query(
        `DELETE FROM related_keys k WHERE NOT EXISTS (
           SELECT 1 FROM fresh_related_keys f WHERE f.key = k.key AND f.type = k.type)`,
      );
      // Entries follow their ids' order; an item gone between the statements above (it is then
      // among the changes the first page reads as they are now) has a null one.
      // The head's entries apart from the rest's: the first page reads the head's only.
      const written = await client.query(
        `WITH listed AS (
           SELECT f.type, f.key,
             json_agg(e.entry ORDER BY u.position) FILTER (WHERE u.position <= $1) AS entries,
             json_agg(e.entry ORDER BY u.position) FILTER (WHERE u.position > $1) AS rest_entries
           FROM fresh_related_keys f
           CROSS JOIN LATERAL unnest(f.item_ids) WITH ORDINALITY u(id, position)
           LEFT JOIN fresh_related_entries e ON e.id = u.id
           GROUP BY f.type, f.key
         )
         INSERT INTO related_keys (type, key, item_ids, item_count, entries, rest_entries)
         SELECT f.type, f.key, f.item_ids, f.item_count, l.entries, l.rest_entries
         FROM fresh_related_keys f JOIN listed l ON l.type = f.type AND l.key = f.key
         ON CONFLICT (key, type) DO UPDATE
           SET item_ids = excluded.item_ids, item_count = excluded.item_count,
             entries = excluded.entries, rest_entries = excluded.rest_entries
           WHERE (related_keys.item_ids, related_keys.item_count, related_keys.entries::text,
               related_keys.rest_entries::text)
             IS DISTINCT FROM (excluded.item_ids, excluded.item_count, excluded.entries::text,
               excluded.rest_entries::text)`,
        [relatedListHead],
      );
      changedLists = (removed.rowCount ?? 0) + (written.rowCount ?? 0);
      await client.query(
        'DELETE FROM related_lists_changes WHERE seq IN (SELECT seq FROM held_related_changes)',
      );
      // The changes counted when this transaction's snapshot was taken, or fewer: a change
      // committed meanwhile makes the next rebuild, never a missed one.
      await client.query(
        `UPDATE related_lists_state SET built_changes = $1, list_length = $2, list_format = $3,
           entries_built_changes = $1, built_at = now()`,
        [row.changes, relatedListLength, relatedListFormat],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    // Not before: the lists a kept ranking was made from are the committed ones.
    // Rankings only: no item says anything else, so item JSON and trending pages stay.
    if (wasBuilt && changedLists > 0) await client.query("SELECT sticky_item_text_bump('{}')");
  } finally {
    client.release();
  }
  return { isRebuilt: true, changedLists, ms: performance.now() - started };
}

/** Whether the lists are missing or behind the items (one row read). */
async function needsRefresh(query: (text: string) => Promise<{ rows: unknown[] }>) {
  const { rows } = await query(
    `SELECT 1 FROM related_lists_state s
     WHERE NOT ${listsBuiltSql('s')} OR s.built_changes IS DISTINCT FROM s.changes`,
  );
  return rows.length > 0;
}

export interface RelatedListsWorker {
  /** Stops listening for changes and drops a rebuild not yet sent. */
  close: () => void;
}

/**
 * Keeps the related lists following the catalog in this process (docs/catalog.md, "Related"):
 * runs rebuild jobs one at a time, and queues one when the lists are missing or behind at
 * start, and after items change (migration 0013 announces it). Sends are spaced by ten times
 * the last rebuild, so a long import rebuilds now and then rather than after every batch; the
 * queue keeps one rebuild waiting at most, whoever sent it.
 */
export async function startRelatedListsWorker(deps: {
  database: DatabaseHandle;
  jobs: JobQueue;
  log?: JobLogger;
}): Promise<RelatedListsWorker> {
  const { database, jobs, log } = deps;
  await jobs.createQueue(RELATED_LISTS_QUEUE, {
    policy: 'stately',
    heartbeatSeconds: 30,
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
  });
  let lastRefreshMs = 0;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let isClosed = false;

  await jobs.work(RELATED_LISTS_QUEUE, { concurrency: 1, pollingIntervalSeconds: 1 }, async () => {
    const outcome = await refreshRelatedLists(database);
    if (!outcome.isRebuilt) return;
    lastRefreshMs = outcome.ms;
    log?.info?.(
      { ms: Math.round(outcome.ms), changedLists: outcome.changedLists },
      'related lists rebuilt',
    );
  });

  const requestRefresh = () => {
    if (isClosed || timer) return;
    const gap = Math.max(minRefreshGapMs, refreshGapFactor * lastRefreshMs);
    timer = setTimeout(
      () => {
        timer = undefined;
        lastSentAt = Date.now();
        jobs
          .send(RELATED_LISTS_QUEUE, {})
          .catch((error: unknown) => log?.warn({ err: error }, 'could not queue a rebuild'));
      },
      Math.max(0, lastSentAt + gap - Date.now()),
    );
    timer.unref();
  };

  const unsubscribe = database.notifications.listen('sticky_related_lists', {
    // At start and after a lost connection (changes may have been missed meanwhile).
    onListening: async (query) => {
      if (await needsRefresh(query)) requestRefresh();
    },
    onNotification: requestRefresh,
    onLost: () => {},
  });
  return {
    close: () => {
      isClosed = true;
      unsubscribe();
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
