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

/**
 * Counts a share made from a chat platform (a Send of /sticky): as `recordItemEvent` counts a
 * signed-in person's copy, once per item, platform, chat user and UTC day, towards the same
 * trend score. Chat users have no Sticky account, so they are counted in chat_item_events
 * (migration 0025) under `actor`, a digest of their platform ids (docs/integrations.md,
 * "Shares"). Hidden, private and unknown items are not counted.
 */
export async function recordChatShare(
  deps: CatalogDeps & CommitNotice,
  share: { platform: string; actor: string; itemId: string },
): Promise<{ isCounted: boolean }> {
  const x = eventLogScoreSql('copy');
  const result = await deps.database.db.execute<{ counted: string }>(sql`
    WITH item AS (
      SELECT id FROM items WHERE id = ${share.itemId} AND is_indexable
    ), inserted AS (
      INSERT INTO chat_item_events (item_id, platform, actor, day)
      SELECT id, ${share.platform}, ${share.actor}, (now() AT TIME ZONE 'utc')::date FROM item
      ON CONFLICT DO NOTHING
      RETURNING item_id
    ), updated AS (
      UPDATE items SET
        trend_score = CASE WHEN trend_score = 0 THEN ${x}
          ELSE greatest(trend_score, ${x}) + ln(1 + exp(-abs(trend_score - ${x}))) END,
        trending_at = coalesce(trending_at, now())
      WHERE id IN (SELECT item_id FROM inserted)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM updated) AS counted`);
  const isCounted = Number(result.rows[0]?.counted) > 0;
  if (isCounted) deps.services?.versions.noteCommittedChange();
  return { isCounted };
}
