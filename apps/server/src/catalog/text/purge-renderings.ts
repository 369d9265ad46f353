import { sql } from 'drizzle-orm';
import { removeUnreferencedFiles } from '../import/media-files.ts';
import type { Media } from '../import/media-services.ts';
import type { CatalogDeps } from '../query/items.ts';

export interface PurgeDeps extends Pick<CatalogDeps, 'database'> {
  media: Pick<Media, 'store'>;
}

/**
 * Renderings of animated text that nobody favorited go once they are older than
 * TEXT_RENDER_KEEP_DAYS, with their files (unless another item shares them): asking for the
 * phrase again draws it again. In batches, oldest first (docs/catalog.md, "Animated text").
 */
export async function purgeStaleRenderings(
  deps: PurgeDeps,
  options: { keepDays: number; batchSize?: number },
): Promise<{ items: number; files: number }> {
  const batchSize = options.batchSize ?? 500;
  let items = 0;
  let files = 0;
  for (;;) {
    const result = await deps.database.db.execute<{ items: string; paths: string[] }>(sql`
      WITH doomed AS (
        SELECT i.id FROM items i
        WHERE i.is_dynamic
          AND i.created_at < now() - make_interval(days => ${options.keepDays}::int)
          AND NOT EXISTS (SELECT 1 FROM favorites f WHERE f.item_id = i.id)
        ORDER BY i.created_at
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED
      ), doomed_files AS (
        SELECT DISTINCT r.path FROM renditions r WHERE r.item_id IN (SELECT id FROM doomed)
      ), gone AS (
        DELETE FROM items WHERE id IN (SELECT id FROM doomed) RETURNING id
      )
      SELECT (SELECT count(*) FROM gone) AS items, ARRAY(SELECT path FROM doomed_files) AS paths`);
    const row = result.rows[0];
    const deleted = Number(row?.items ?? 0);
    const paths = row?.paths ?? [];
    await removeUnreferencedFiles(deps.database, deps.media.store, paths);
    items += deleted;
    files += paths.length;
    if (deleted < batchSize) return { items, files };
  }
}
