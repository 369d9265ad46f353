import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { listFilesUnder } from '../../apps/server/src/test-support/files.ts';

export interface IntegrityReport {
  items: number;
  renditions: number;
  /** Items with no rendition at all: a half-imported item. */
  itemsWithoutRenditions: string[];
  /** Renditions whose file is not on disk. */
  missingFiles: string[];
  /** Files in the media folder no rendition points at. */
  orphanFiles: string[];
  /** Files left in the import staging folder. */
  stagingFiles: number;
  /** Zero-byte files: a write that was cut short. */
  emptyFiles: string[];
  isIntact: boolean;
}

/** The catalog and the media folder agree: every item whole, every file accounted for. */
export async function checkIntegrity(
  database: DatabaseHandle,
  mediaDir: string,
): Promise<IntegrityReport> {
  const items = await database.pool.query<{ id: string; renditions: string }>(
    'SELECT i.id, count(r.*) AS renditions FROM items i LEFT JOIN renditions r ON r.item_id = i.id GROUP BY i.id',
  );
  const paths = await database.pool.query<{ path: string }>('SELECT DISTINCT path FROM renditions');
  const referenced = new Set(paths.rows.map((row) => row.path));
  const files = listFilesUnder(mediaDir);
  const staging = files.filter((file) => path.relative(mediaDir, file).startsWith('.'));
  const stored = files.filter((file) => !path.relative(mediaDir, file).startsWith('.'));
  const onDisk = new Set(stored.map((file) => path.relative(mediaDir, file)));
  const report: IntegrityReport = {
    items: items.rowCount ?? 0,
    renditions: referenced.size,
    itemsWithoutRenditions: items.rows
      .filter((row) => Number(row.renditions) === 0)
      .map((row) => row.id),
    missingFiles: [...referenced].filter((file) => !onDisk.has(file)).slice(0, 20),
    orphanFiles: [...onDisk].filter((file) => !referenced.has(file)).slice(0, 20),
    stagingFiles: staging.length,
    emptyFiles: stored.filter((file) => fs.statSync(file).size === 0).slice(0, 20),
    isIntact: false,
  };
  report.isIntact =
    report.itemsWithoutRenditions.length === 0 &&
    report.missingFiles.length === 0 &&
    report.orphanFiles.length === 0 &&
    report.emptyFiles.length === 0;
  return report;
}
