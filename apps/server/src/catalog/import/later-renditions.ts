import fsp from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { AppConfig } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { items, renditions } from '../../db/schema.ts';
import type { JobLogger, JobQueue } from '../../jobs/job-queue.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import {
  createStagingDir,
  lockMediaFilesShared,
  placeFiles,
  removeUnreferencedFiles,
  toRenditionRows,
} from './media-files.ts';
import type { Media } from './media-services.ts';
import type { CommitNotice } from '../query/catalog-versions.ts';
import { isTransparentType, renditionsFor } from './rendition-plan.ts';
import type { SourceFormat } from './inspect-media.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { SqlExecutor } from '../../db/transaction.ts';

/** The queue of items whose `later` renditions (rendition-plan.ts) are still to be made. */
export const RENDITIONS_QUEUE = 'make-renditions';

export interface RenditionJob {
  itemId: string;
}

export interface LaterRenditionsDeps extends CommitNotice {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where the original is read and the renditions go, and the decoders (media-services.ts). */
  media: Media;
}

async function createRenditionsQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(RENDITIONS_QUEUE, {
    // A worker that dies (kill -9, a crash, a lost machine) stops beating: its job is retried.
    heartbeatSeconds: 10,
    // A job waits in our decoder queue behind imports people are waiting for: allow for it.
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
  });
}

/**
 * pg-boss's priority of an upload's rendition job: a person waiting on their own file comes
 * before the starter catalog's, an import's or a backfill's jobs (priority 0). docs/catalog.md,
 * "Jobs".
 */
export const UPLOAD_RENDITIONS_PRIORITY = 10;

/**
 * Queues the later renditions of an item, in the transaction that stores it; an upload's
 * (`isUpload`) ahead of every backlog.
 */
export async function scheduleLaterRenditions(
  jobs: JobQueue,
  itemId: string,
  db: SqlExecutor,
  options: { isUpload?: boolean } = {},
): Promise<void> {
  await createRenditionsQueue(jobs);
  await jobs.send<RenditionJob>(
    RENDITIONS_QUEUE,
    { itemId },
    { db, ...(options.isUpload ? { priority: UPLOAD_RENDITIONS_PRIORITY } : {}) },
  );
}

/** What of an item decides its renditions (rendition-plan.ts), as the items table holds it. */
export interface StoredItemKind {
  type: string;
  originalFormat: SourceFormat;
  frames: number;
}

/**
 * The `later` renditions (`name.format`) an item's plan has and `existing` lacks: those a job
 * makes. Without ffmpeg no video is made, so none is missing.
 */
export function listMissingRenditions(
  item: StoredItemKind,
  existing: ReadonlySet<string>,
  canMakeVideo: boolean,
): string[] {
  const kind = {
    sourceFormat: item.originalFormat,
    isAnimated: item.frames > 1,
    isTransparent: isTransparentType(item.type),
  };
  return renditionsFor(kind, 'later')
    .filter(({ format }) => canMakeVideo || (format !== 'mp4' && format !== 'webm'))
    .map(({ name, format }) => `${name}.${format}`)
    .filter((key) => !existing.has(key));
}

export type LaterRenditionsOutcome =
  | { status: 'made'; renditions: number }
  /** The item (or its original file) is gone: nothing to do. */
  | { status: 'gone' }
  /** The decoder refused (a budget): the item keeps what it has, served by the fallbacks. */
  | { status: 'rejected'; reason: string };

/**
 * Makes the `later` renditions an item lacks from its stored original, at low priority in the
 * decoder pool, and adds them in one transaction. Safe to run again (a retried job, or after a
 * newer plan added renditions): only what is missing is made, nothing at all when nothing is,
 * and files nobody refers to are removed.
 */
export async function makeLaterRenditions(
  deps: LaterRenditionsDeps,
  itemId: string,
): Promise<LaterRenditionsOutcome> {
  const { config, database, media } = deps;
  const [item] = await database.db
    .select({ type: items.type, originalFormat: items.originalFormat, frames: items.frames })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  if (!item) return { status: 'gone' };
  // One read of the item's renditions: what it has, and its original among them.
  const stored = await database.db
    .select({ name: renditions.name, format: renditions.format, path: renditions.path })
    .from(renditions)
    .where(eq(renditions.itemId, itemId));
  const existing = stored.map((row) => `${row.name}.${row.format}`);
  const ffmpegPath = resolveFfmpegPath();
  if (listMissingRenditions(item, new Set(existing), Boolean(ffmpegPath)).length === 0) {
    return { status: 'made', renditions: 0 };
  }
  const source = stored.find(
    (row) => row.name === 'original' && row.format === item.originalFormat,
  );
  if (!source) return { status: 'gone' };
  const bytes = await media.store.read(source.path);
  // Deleted with its item between the query and now.
  if (!bytes) return { status: 'gone' };

  const stagingDir = await createStagingDir(config.mediaDir);
  let created: string[] = [];
  try {
    const result = await media.processor.process({
      bytes,
      limits: config.importLimits,
      outputDir: stagingDir,
      isTransparent: isTransparentType(item.type),
      ffmpegPath,
      phase: 'later',
      existing,
      priority: 'low',
    });
    if (!result.ok) return { status: 'rejected', reason: result.reason };
    const stillThere = await withTransaction(database, async ({ tx }) => {
      await tx.execute(lockMediaFilesShared);
      // Locked with the item: a deletion waits for us, or we see it gone.
      const [row] = await tx
        .select({ id: items.id })
        .from(items)
        .where(eq(items.id, itemId))
        .for('share');
      if (!row) return false;
      const placement = await placeFiles(media.store, result.files).catch((error: unknown) => {
        created = (error as { createdPaths?: string[] }).createdPaths ?? [];
        throw error;
      });
      created = placement.created;
      if (placement.files.length > 0) {
        await tx
          .insert(renditions)
          .values(toRenditionRows(itemId, placement.files))
          .onConflictDoNothing();
      }
      return true;
    });
    if (!stillThere) return { status: 'gone' };
    deps.services?.versions.noteCommittedChange();
    // Every file is referenced now (or was already, by a rendition a retried job made).
    const made = result.files.length;
    return { status: 'made', renditions: made };
  } finally {
    // Files of ours that no committed row refers to (a rollback, a rendition already there).
    await removeUnreferencedFiles(database, media.store, created).catch(() => {});
    await fsp.rm(stagingDir, { recursive: true, force: true });
  }
}

/** An item's plan inputs and the renditions it has (`name.format`), as the queries below read it. */
type StoredItemRenditions = StoredItemKind & { id: string; existing: string[] };

const storedItemRenditionsColumns = `i.id, i.type, i.original_format AS "originalFormat", i.frames,
  array(SELECT r.name || '.' || r.format FROM renditions r WHERE r.item_id = i.id) AS existing`;

function listMissingRenditionsOf(item: StoredItemRenditions, canMakeVideo: boolean): string[] {
  return listMissingRenditions(item, new Set(item.existing), canMakeVideo);
}

/** Of these items, those that lack some of their plan's `later` renditions. */
export async function listItemsLackingRenditions(
  database: DatabaseHandle,
  itemIds: readonly string[],
  options: { canMakeVideo: boolean },
): Promise<string[]> {
  const { rows } = await database.pool.query<StoredItemRenditions>(
    `SELECT ${storedItemRenditionsColumns} FROM items i WHERE i.id = ANY($1::text[]) ORDER BY i.id`,
    [itemIds],
  );
  return rows
    .filter((row) => listMissingRenditionsOf(row, options.canMakeVideo).length > 0)
    .map((row) => row.id);
}

/** What `queueMissingRenditions` found: items read, and those queued with what they lack. */
export interface MissingRenditionsSummary {
  items: number;
  queued: number;
  renditions: number;
}

/**
 * Queues a rendition job for every item that lacks some of its plan's `later` renditions: the
 * items made before a plan added renditions (docs/catalog.md, "Renditions"), or whose job failed
 * for good. Reads the catalog in id order, a batch at a time; each job then makes only what is
 * missing (makeLaterRenditions). Safe beside a running server, whose workers share the jobs.
 */
export async function queueMissingRenditions(
  deps: { database: DatabaseHandle; jobs: JobQueue },
  options: { canMakeVideo: boolean; batchSize?: number; onProgress?: (read: number) => void },
): Promise<MissingRenditionsSummary> {
  await createRenditionsQueue(deps.jobs);
  const summary: MissingRenditionsSummary = { items: 0, queued: 0, renditions: 0 };
  let after = '';
  for (;;) {
    const { rows } = await deps.database.pool.query<StoredItemRenditions>(
      `SELECT ${storedItemRenditionsColumns} FROM items i WHERE i.id > $1 ORDER BY i.id LIMIT $2`,
      [after, options.batchSize ?? 500],
    );
    if (rows.length === 0) return summary;
    for (const row of rows) {
      const missing = listMissingRenditionsOf(row, options.canMakeVideo);
      if (missing.length === 0) continue;
      await deps.jobs.send<RenditionJob>(RENDITIONS_QUEUE, { itemId: row.id });
      summary.queued += 1;
      summary.renditions += missing.length;
    }
    summary.items += rows.length;
    after = rows.at(-1)!.id;
    options.onProgress?.(summary.items);
  }
}

/**
 * Runs rendition jobs in this process: as many at once as there are decoder workers, each
 * waiting behind imports in the decoder queue (priority `low`).
 */
export async function startRenditionWorker(
  deps: LaterRenditionsDeps & { jobs: JobQueue; log?: JobLogger },
): Promise<void> {
  await createRenditionsQueue(deps.jobs);
  await deps.jobs.work<RenditionJob>(
    RENDITIONS_QUEUE,
    { concurrency: deps.config.importLimits.workers, pollingIntervalSeconds: 1 },
    async ({ itemId }) => {
      const outcome = await makeLaterRenditions(deps, itemId);
      if (outcome.status === 'rejected') {
        deps.log?.warn({ itemId, reason: outcome.reason }, 'later renditions refused');
      }
    },
  );
}

/**
 * Resolves once every rendition job is finished (done, or failed for good), whoever ran it:
 * the CLI import and the bench wait for the rest of the renditions this way. Polls, since the
 * queue lives in the database.
 */
export async function waitForRenditionJobs(
  jobs: JobQueue,
  options: { signal?: AbortSignal; onProgress?: (left: number) => void; intervalMs?: number } = {},
): Promise<void> {
  await createRenditionsQueue(jobs);
  for (;;) {
    if (options.signal?.aborted) return;
    const left = await jobs.countUnfinished(RENDITIONS_QUEUE);
    options.onProgress?.(left);
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}

/**
 * Whether a running server will make the renditions queued here: another live process on this
 * database works the queue (a server, or `sticky renditions`), as pg-boss's instance registry says
 * (job-queue.ts, `hasWorkerElsewhere`). The CLI import asks, to leave them to it.
 */
export async function isRenditionWorkerRunningElsewhere(jobs: JobQueue): Promise<boolean> {
  return jobs.hasWorkerElsewhere(RENDITIONS_QUEUE);
}

/** An item whose later renditions could not be made now; its job stays queued. */
export interface UnmadeRenditions {
  itemId: string;
  reason: string;
}

/**
 * Makes the `later` renditions of these items, and only these, in this process: as many at once
 * as there are decoder workers, each read from its original only when its turn comes. Each item's
 * job is then marked done, so no worker makes them again; an item that failed keeps its job, for
 * a server to retry. Interrupted (Ctrl-C ends the process), the rest stay queued for the next
 * server start. `onItemDone` is told how many are done.
 */
export async function makeLaterRenditionsOf(
  deps: LaterRenditionsDeps & { jobs: JobQueue },
  itemIds: readonly string[],
  options: { onItemDone?: (done: number) => void } = {},
): Promise<UnmadeRenditions[]> {
  const limit = pLimit(Math.max(1, deps.config.importLimits.workers));
  const unmade: UnmadeRenditions[] = [];
  let done = 0;
  await Promise.all(
    itemIds.map((itemId) =>
      limit(async () => {
        try {
          const outcome = await makeLaterRenditions(deps, itemId);
          if (outcome.status === 'rejected') unmade.push({ itemId, reason: outcome.reason });
          // A refusal is final, as the job's own run would find it (startRenditionWorker).
          await deps.jobs.completeWaitingFor(RENDITIONS_QUEUE, 'itemId', [itemId]);
        } catch (error) {
          unmade.push({ itemId, reason: (error as Error).message });
        }
        done += 1;
        options.onItemDone?.(done);
      }),
    ),
  );
  return unmade;
}

/**
 * Resolves once none of these items has a rendition job left to finish, whoever runs it (done,
 * or failed for good): `sticky import --wait` beside a running server. Other items' jobs, the
 * catalog's backlog, are not waited for. Polls, since the queue lives in the database.
 */
export async function waitForRenditionJobsOf(
  jobs: JobQueue,
  itemIds: readonly string[],
  options: { onProgress?: (left: number) => void; intervalMs?: number } = {},
): Promise<void> {
  for (;;) {
    const left = await jobs.listUnfinishedFor(RENDITIONS_QUEUE, 'itemId', itemIds);
    options.onProgress?.(left.length);
    if (left.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}

/**
 * The `seed` and `renditions` commands' and the bench's last step: runs this process's share of rendition jobs until none
 * is left, telling how many are. Interrupted, the rest stays queued for the next server.
 */
export async function makeRemainingRenditions(
  deps: LaterRenditionsDeps & { jobs: JobQueue; log?: JobLogger },
  options: { signal?: AbortSignal; onProgress?: (left: number) => void } = {},
): Promise<void> {
  await startRenditionWorker(deps);
  await waitForRenditionJobs(deps.jobs, options);
}
