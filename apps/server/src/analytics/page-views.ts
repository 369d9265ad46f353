import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { pageViews } from '../db/schema.ts';

/** Adds one view of `path` to today's count (UTC day); one row per path and day. */
export async function recordPageView(db: Database, path: string): Promise<void> {
  await db
    .insert(pageViews)
    .values({ day: sql`(now() at time zone 'utc')::date`, path, count: 1 })
    .onConflictDoUpdate({
      target: [pageViews.day, pageViews.path],
      set: { count: sql`${pageViews.count} + 1` },
    });
}
