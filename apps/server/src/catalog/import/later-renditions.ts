import fsp from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { items, renditions } from '../../db/schema.ts';
import type { JobLogger, JobQueue, SqlExecutor } from '../../jobs/job-queue.ts';
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
import { withTransaction } from './transaction.ts';

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

/** Queues the later renditions of an item, in the transaction that stores it. */
export async function scheduleLaterRenditions(
  jobs: JobQueue,
  itemId: string,
  db: SqlExecutor,
): Promise<void> {
  await createRenditionsQueue(jobs);
  await jobs.send<RenditionJob>(RENDITIONS_QUEUE, { itemId }, { db });
}

export type LaterRenditionsOutcome =
  | { status: 'made'; renditions: number }
  /** The item (or its original file) is gone: nothing to do. */
  | { status: 'gone' }
  /** The decoder refused (a budget): the item keeps what it has, served by the fallbacks. */
  | { status: 'rejected'; reason: string };

/**
 * Makes an item's `later` renditions from its stored original, at low priority in the decoder
 * pool, and adds them in one transaction. Safe to run again (a retried job): a rendition that
 * exists is kept, files nobody refers to are removed.
 */
export async function makeLaterRenditions(
  deps: LaterRenditionsDeps,
  itemId: string,
): Promise<LaterRenditionsOutcome> {
  const { config, database, media } = deps;
  const [item] = await database.db
    .select({ type: items.type, originalFormat: items.originalFormat })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  if (!item) return { status: 'gone' };
  const [source] = await database.db
    .select({ path: renditions.path })
    .from(renditions)
    .where(
      and(
        eq(renditions.itemId, itemId),
        eq(renditions.name, 'original'),
        eq(renditions.format, item.originalFormat),
      ),
    )
    .limit(1);
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
      isTransparent: item.type !== 'gif',
      ffmpegPath: resolveFfmpegPath(),
      phase: 'later',
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
 * The CLI's and the bench's last step: runs this process's share of rendition jobs until none
 * is left, telling how many are. Interrupted, the rest stays queued for the next server.
 */
export async function makeRemainingRenditions(
  deps: LaterRenditionsDeps & { jobs: JobQueue; log?: JobLogger },
  options: { signal?: AbortSignal; onProgress?: (left: number) => void } = {},
): Promise<void> {
  await startRenditionWorker(deps);
  await waitForRenditionJobs(deps.jobs, options);
}
