import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.ts';
import type { renditions } from '../../db/schema.ts';
import { contentAddressedPath, MEDIA_TEMP_DIR, resolveMediaPath } from '../media-paths.ts';
import type { RenderedFile } from './render-renditions.ts';

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

async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
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
 * Moves staged files to their content-addressed place. Returns every file with its final path,
 * and the paths this call created (a file already there is shared, never overwritten).
 */
export async function placeFiles(
  mediaDir: string,
  files: readonly RenderedFile[],
): Promise<{ files: PlacedFile[]; created: string[] }> {
  const placed: PlacedFile[] = [];
  const created: string[] = [];
  const touched = new Set<string>();
  try {
    for (const file of files) {
      const relative = contentAddressedPath(file.sha256, file.format);
      const target = resolveMediaPath(mediaDir, relative);
      if (!(await exists(target))) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(file.file, target);
        created.push(relative);
        touched.add(path.dirname(target));
      }
      placed.push({ ...file, path: relative });
    }
    // The renames are durable only once their directories are flushed.
    for (const directory of touched) await syncDirectory(directory);
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
  mediaDir: string,
  candidates: readonly string[],
): Promise<void> {
  if (candidates.length === 0) return;
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MEDIA_FILES_LOCK]);
    const referenced = await client.query<{ path: string }>(
      'SELECT DISTINCT path FROM renditions WHERE path = ANY($1::text[])',
      [candidates],
    );
    const keep = new Set(referenced.rows.map((row) => row.path));
    for (const relative of candidates) {
      if (!keep.has(relative)) await fs.rm(resolveMediaPath(mediaDir, relative), { force: true });
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface CleanupSummary {
  stagingDirsRemoved: number;
  orphansRemoved: number;
  /** False when another process was moving files at that moment: orphans wait for next time. */
  isOrphanSweepDone: boolean;
}

async function listContentAddressedFiles(mediaDir: string): Promise<string[]> {
  const found: string[] = [];
  const hex2 = /^[0-9a-f]{2}$/;
  const level1 = await fs.readdir(mediaDir, { withFileTypes: true }).catch(() => []);
  for (const first of level1) {
    if (!first.isDirectory() || !hex2.test(first.name)) continue;
    const level2 = await fs.readdir(path.join(mediaDir, first.name), { withFileTypes: true });
    for (const second of level2) {
      if (!second.isDirectory() || !hex2.test(second.name)) continue;
      const directory = path.join(mediaDir, first.name, second.name);
      for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
        if (entry.isFile()) found.push(`${first.name}/${second.name}/${entry.name}`);
      }
    }
  }
  return found;
}

/**
 * Start-up cleanup: removes staging folders left by imports that died (a crash, a kill -9),
 * then files in the media folder that no rendition refers to (moved into place by an import
 * whose transaction never committed). Files with names we never create are left alone.
 */
export async function cleanupIncompleteImports(deps: {
  config: { mediaDir: string };
  database: DatabaseHandle;
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

  const client = await deps.database.pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [MEDIA_FILES_LOCK],
    );
    if (locked.rows[0]?.locked) {
      const files = await listContentAddressedFiles(mediaDir);
      // In batches: a large catalog has millions of files.
      for (let start = 0; start < files.length; start += 10_000) {
        const batch = files.slice(start, start + 10_000);
        const referenced = await client.query<{ path: string }>(
          'SELECT DISTINCT path FROM renditions WHERE path = ANY($1::text[])',
          [batch],
        );
        const keep = new Set(referenced.rows.map((row) => row.path));
        for (const relative of batch) {
          if (keep.has(relative)) continue;
          await fs.rm(path.join(mediaDir, relative), { force: true });
          summary.orphansRemoved += 1;
        }
      }
      summary.isOrphanSweepDone = true;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return summary;
}

/** Used by SQL callers that need the lock inside their own transaction. */
export const lockMediaFilesShared = sql`SELECT pg_advisory_xact_lock_shared(${MEDIA_FILES_LOCK})`;
