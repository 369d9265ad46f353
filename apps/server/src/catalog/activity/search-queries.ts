import { overviewDays } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import { executePrepared } from '../../db/prepared.ts';
import type { CatalogDeps } from '../query/items.ts';
import { prepareQuery } from '../query/search.ts';
import { digestRequester } from '../requester.ts';
import type { Requester } from '../requester.ts';

export interface SearchActivityDeps extends CatalogDeps {
  services: { requesterSecret: string };
}

/**
 * websearch_to_tsquery's operators: `or` between words and `-` before one. A query using
 * them is a filter someone built, not an interest others would type: not suggested.
 */
export function hasSearchOperators(normalized: string): boolean {
  return /(^|\s)or(\s|$)/.test(normalized) || /(^|\s)-\S/.test(normalized);
}

/** One person's search of one query on one UTC day: what is counted once. */
interface SearchCount {
  normalized: string;
  /** The person, as a keyed digest (never the id, key or address). */
  searcher: string;
  /** YYYY-MM-DD, UTC, by this server's clock. */
  day: string;
  /** Whether it found anything: a miss is counted apart, for the admin overview. */
  hasResults: boolean;
}

/** A first page of search results, and whether it found anything. */
export interface SearchToCount {
  q: string;
  hasResults: boolean;
}

/** The count a search makes, or undefined when it is not counted (operators, no words). */
function searchCountOf(
  deps: SearchActivityDeps,
  search: SearchToCount,
  requester: Requester,
  now: Date,
): SearchCount | undefined {
  const { q, hasResults } = search;
  const normalized = prepareQuery(q).normalized;
  if (normalized === '' || hasSearchOperators(normalized)) return undefined;
  return {
    normalized,
    searcher: digestRequester(deps.services.requesterSecret, requester, 'search-query'),
    day: now.toISOString().slice(0, 10),
    hasResults,
  };
}

/**
 * Writes a search's count for `trending/searches`: once per person, normalized query and UTC
 * day, and only the first page (later pages are not interest), never a query with operators. A
 * search that found nothing goes to `search_misses` instead, for the admin overview: typos are
 * not interest, but what people look for and miss is (docs/operations.md, "Admin overview"). The day is this server's UTC date, so the recorder
 * below knows which counts it already wrote. The count is a statistic, so its commit does not
 * wait for the disk: a crash may lose the last fraction of a second of counts, and a search
 * never waits on an fsync. One statement, so one round trip and no connection held across
 * several: `set_config(…, true)` lasts for the statement's own transaction, which is when the
 * commit reads it. Prepared, since nearly every search runs it (docs/architecture.md,
 * "Runtime").
 */
async function writeSearchCount(deps: SearchActivityDeps, count: SearchCount): Promise<void> {
  await executePrepared(
    deps.database.db,
    sql`
    WITH commit_mode AS (SELECT set_config('synchronous_commit', 'off', true)),
    person AS (
      INSERT INTO search_query_searchers (query, day, searcher)
      SELECT ${count.normalized}, ${count.day}::date, ${count.searcher} FROM commit_mode
      ON CONFLICT DO NOTHING
      RETURNING query, day
    ),
    found AS (
      INSERT INTO search_queries (query, day, count)
      SELECT query, day, 1 FROM person WHERE ${count.hasResults}::boolean
      ON CONFLICT (query, day) DO UPDATE SET count = search_queries.count + 1
    )
    INSERT INTO search_misses (query, day, count)
    SELECT query, day, 1 FROM person WHERE NOT ${count.hasResults}::boolean
    ON CONFLICT (query, day) DO UPDATE SET count = search_misses.count + 1`,
  );
}

/**
 * Counts this server wrote lately, remembered so a person's next search of the same query the
 * same day sends nothing: the database would do nothing with it (one count per person, query
 * and day). About 100 bytes each.
 */
const searchCountsRemembered = 10_000;

/** Search counts on their way to the database: the reply does not wait for them. */
export interface SearchQueryRecorder {
  /**
   * Starts counting a search (writeSearchCount) once what `after` returns settles, fulfilled
   * or not (its answer sent, or its client gone); a failure goes to `onError`. `after` is only
   * called when there is a count to write: a repeat this server already wrote costs no wait.
   */
  record: (
    search: SearchToCount,
    requester: Requester,
    onError: (error: unknown) => void,
    after?: () => Promise<unknown>,
  ) => void;
  /** Resolves once every count started so far is written or failed (the app's close). */
  flush: () => Promise<void>;
}

/**
 * Counts searches behind their replies: a search answers without waiting for its count, and
 * the app's close waits for the counts already accepted, so stopping a server loses none. A
 * count waits for `after` (the route's answer on its way out): written earlier, its statement
 * would go out on the database's socket before the answer on the client's, and each write to
 * a socket that wakes another process costs about half a millisecond here (docs/scaling.md).
 * A count this recorder already wrote (the same person, query and day) sends nothing: a kept
 * search page asked again by the same person then costs no statement at all.
 */
export function createSearchQueryRecorder(
  deps: SearchActivityDeps,
  options: { now?: () => Date } = {},
): SearchQueryRecorder {
  const now = options.now ?? (() => new Date());
  const pending = new Set<Promise<void>>();
  // Insertion order: the oldest goes first.
  const written = new Set<string>();
  return {
    record: (search, requester, onError, after = () => Promise.resolve()) => {
      const count = searchCountOf(deps, search, requester, now());
      if (!count) return;
      const key = `${count.day}|${count.searcher}|${count.normalized}`;
      if (written.has(key)) return;
      const write: Promise<void> = after()
        .catch(() => undefined)
        .then(() => writeSearchCount(deps, count))
        .then(() => {
          written.add(key);
          if (written.size > searchCountsRemembered) {
            written.delete(written.values().next().value!);
          }
        })
        .catch(onError)
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    flush: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/**
 * Days of search counts kept: the admin overview's 30 (trending searches read the last 7:
 * catalog/query/trending.ts).
 */
const searchDaysKept = overviewDays;

/**
 * Old days go: who searched what is needed for today only (to count each person once), the
 * daily counts and misses for the overview's window.
 */
export async function pruneSearchActivity(
  deps: CatalogDeps,
): Promise<{ searchers: number; queries: number }> {
  const { db } = deps.database;
  const searchers = await db.execute(
    sql`DELETE FROM search_query_searchers WHERE day < (now() AT TIME ZONE 'utc')::date`,
  );
  const queries = await db.execute(
    sql`DELETE FROM search_queries WHERE day < (now() AT TIME ZONE 'utc')::date - ${searchDaysKept - 1}::int`,
  );
  const misses = await db.execute(
    sql`DELETE FROM search_misses WHERE day < (now() AT TIME ZONE 'utc')::date - ${searchDaysKept - 1}::int`,
  );
  return {
    searchers: searchers.rowCount ?? 0,
    queries: (queries.rowCount ?? 0) + (misses.rowCount ?? 0),
  };
}
