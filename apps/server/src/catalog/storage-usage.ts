import type { DatabaseHandle } from '../db/client.ts';

/**
 * Bytes of the media files renditions refer to, each file once: files are content-addressed,
 * so items that share bytes share a file (docs/catalog.md). Reads every rendition: callers keep
 * the answer a while (services/metrics-service.ts).
 */
export async function readStorageBytes(database: DatabaseHandle): Promise<number> {
  const { rows } = await database.pool.query<{ bytes: string | null }>(
    'SELECT sum(bytes)::text AS bytes FROM (SELECT DISTINCT ON (path) bytes FROM renditions) AS files',
  );
  return Number(rows[0]?.bytes ?? 0);
}
