import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.ts';
import { withConnectionTransaction } from '../../db/transaction.ts';
import type { renditions } from '../../db/schema.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import {
  contentAddressedPath,
  isContentAddressedPath,
  MEDIA_TEMP_DIR,
} from '../../storage/media-paths.ts';
import type { RenderedFile } from './render-renditions.ts';
import { isProcessAlive } from '../../lib/process-alive.ts';

/**
 * Importers hold this advisory lock (shared) from the moment they move files into place until
 * their transaction ends; removing orphans takes it exclusively. So a file that is in place but
 * not yet referenced by a committed row is never mistaken for an orphan.
 */
export const MEDIA_FILES_LOCK = 726_518;

/** A staging folder inside mediaDir (same file system, so moving a file is a rename). */
export async function createStagingDir(mediaDir: string): Promise<string> {
  const root = path.join(mediaDir, MEDIA_TEMP_DIR);
  await fs.mkdir(root, { recursive: true });
  // The pid lets start-up cleanup tell a crashed import from one still running elsewhere.
  return fs.mkdtemp(path.join(root, `${process.pid}-`));
}

export interface PlacedFile extends RenderedFile {
  /** Path relative to mediaDir, as stored in `renditions.path`. */
  path: string;
}

/** The `renditions` rows of an item's placed files (the import and the later-renditions job). */
export function toRenditionRows(
  itemId: string,
  files: readonly PlacedFile[],
): (typeof renditions.$inferInsert)[] {
  return files.map((file) => ({
    itemId,
    name: file.name,
    format: file.format,
    width: file.width,
    height: file.height,
    frames: file.frames,
    bytes: file.bytes,
    path: file.path,
  }));
}

/**
 * Hands staged files to the media store under their content-addressed keys. Returns every file
 * with its key, and the keys this call created (a file already there is shared, never
 * overwritten).
 */
export async function placeFiles(
  store: MediaStore,
  files: readonly RenderedFile[],
): Promise<{ files: PlacedFile[]; created: string[] }> {
  const placed: PlacedFile[] = [];
  const created: string[] = [];
  try {
    for (const file of files) {
      const key = contentAddressedPath(file.sha256, file.format);
      if (await store.put(key, file.file)) created.push(key);
      placed.push({ ...file, path: key });
    }
  } catch (error) {
    (error as { createdPaths?: string[] }).createdPaths = created;
    throw error;
  }
  return { files: placed, created };
}

/**
 * After a failed import: deletes the files it created, unless a committed rendition refers to
 * one (another import may have shared it in the meantime).
 */
export async function removeUnreferencedFiles(
  database: DatabaseHandle,
  store: MediaStore,
  candidates: readonly string[],
): Promise<void> {
  if (candidates.length === 0) return;
  await withConnectionTransaction(database.pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MEDIA_FILES_LOCK]);
    const referenced = await client.query<{ path: string }>(
      'SELECT DISTINCT path FROM renditions WHERE path = ANY($1::text[])',
      [candidates],
    );
    const keep = new Set(referenced.rows.map((row) => row.path));
    for (const key of candidates) {
      if (!keep.has(key) && isContentAddressedPath(key)) await store.remove(key);
    }
  });
}

export interface CleanupSummary {
  stagingDirsRemoved: number;
  orphansRemoved: number;
  /** False when another process was moving files at that moment: orphans wait for next time. */
  isOrphanSweepDone: boolean;
}

/**
 * Start-up cleanup: removes staging folders left by imports that died (a crash, a kill -9),
 * then files in the media folder that no rendition refers to (moved into place by an import
 * whose transaction never committed). Files with names we never create are left alone.
 */
export async function cleanupIncompleteImports(deps: {
  config: { mediaDir: string };
  database: DatabaseHandle;
  store: MediaStore;
}): Promise<CleanupSummary> {
  const { mediaDir } = deps.config;
  const summary: CleanupSummary = {
    stagingDirsRemoved: 0,
    orphansRemoved: 0,
    isOrphanSweepDone: false,
  };
  const stagingRoot = path.join(mediaDir, MEDIA_TEMP_DIR);
  for (const entry of await fs.readdir(stagingRoot).catch(() => [] as string[])) {
    const pid = Number(entry.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) continue;
    if (pid === process.pid) continue;
    await fs.rm(path.join(stagingRoot, entry), { recursive: true, force: true });
    summary.stagingDirsRemoved += 1;
  }

  await withConnectionTransaction(deps.database.pool, async (client) => {
    const locked = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [MEDIA_FILES_LOCK],
    );
    if (locked.rows[0]?.locked) {
      // In batches: a large catalog has millions of files.
      let batch: string[] = [];
      const sweep = async () => {
        const referenced = await client.query<{ path: string }>(
          'SELECT DISTINCT path FROM renditions WHERE path = ANY($1::text[])',
          [batch],
        );
        const keep = new Set(referenced.rows.map((row) => row.path));
        for (const key of batch) {
          if (keep.has(key)) continue;
          await deps.store.remove(key);
          summary.orphansRemoved += 1;
        }
        batch = [];
      };
      for await (const key of deps.store.list()) {
        batch.push(key);
        if (batch.length >= 10_000) await sweep();
      }
      if (batch.length > 0) await sweep();
      summary.isOrphanSweepDone = true;
    }
  });
  return summary;
}

/** Used by SQL callers that need the lock inside their own transaction. */
export const lockMediaFilesShared = sql`SELECT pg_advisory_xact_lock_shared(${MEDIA_FILES_LOCK})`;
