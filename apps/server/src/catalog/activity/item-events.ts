import { sql } from 'drizzle-orm';
import type { CommitNotice } from '../query/catalog-versions.ts';
import type { CatalogDeps } from '../query/items.ts';
import { eventLogScoreSql } from '../query/trending.ts';
import type { ItemEventKind } from '../query/trending.ts';

/**
 * Counts one event towards trending: at most once per user, item, kind and UTC day (the
 * item_events primary key). Returns whether the item exists and whether this call counted.
 * The favorites route calls it with kind 'favorite' when a favorite is added; ids that are not
 * in our catalog (GIPHY ids) are ignored. It moves popularity_version, never catalog_version
 * (migration 0009): kept item JSON, search and related answers survive it
 * (docs/catalog.md, "Caches and versions"). `at` (now when absent) is when the event happened;
 * only tests pass it, to check the decay by moving time (docs/catalog.md, "Trending").
 */
export async function recordItemEvent(
  deps: CatalogDeps & CommitNotice,
  event: { userId: string; itemId: string; kind: ItemEventKind; at?: Date },
): Promise<{ isFound: boolean; isCounted: boolean }> {
  const x = eventLogScoreSql(event.kind, event.at);
  const at = event.at ? sql`${event.at.toISOString()}::timestamptz` : sql`now()`;
  const result = await deps.database.db.execute<{ found: string; counted: string }>(sql`
    WITH item AS (
      SELECT id FROM items WHERE id = ${event.itemId}
    ), inserted AS (
      INSERT INTO item_events (item_id, user_id, kind, day)
      SELECT id, ${event.userId}, ${event.kind}, (${at} AT TIME ZONE 'utc')::date FROM item
      ON CONFLICT DO NOTHING
      RETURNING item_id
    ), updated AS (
      UPDATE items SET
        trend_score = CASE WHEN trend_score = 0 THEN ${x}
          ELSE greatest(trend_score, ${x}) + ln(1 + exp(-abs(trend_score - ${x}))) END,
        trending_at = coalesce(trending_at, ${at})
      WHERE id IN (SELECT item_id FROM inserted)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM item) AS found, (SELECT count(*) FROM updated) AS counted`);
  const row = result.rows[0];
  const isCounted = Number(row?.counted) > 0;
  // The person who counted it sees trending follow (within its maximum age) at once.
  if (isCounted) deps.services?.versions.noteCommittedChange();
  return { isFound: Number(row?.found) > 0, isCounted };
}
