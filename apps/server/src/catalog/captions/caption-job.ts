import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.ts';
import { items, renditions } from '../../db/schema.ts';
import type { SqlExecutor } from '../../db/transaction.ts';
import type { JobLogger, JobQueue } from '../../jobs/job-queue.ts';
import type { Media } from '../import/media-services.ts';
import type { CommitNotice } from '../query/catalog-versions.ts';
import { createCaptionReader } from './caption-reader.ts';
import type { CaptionReader } from './caption-reader.ts';

/** The queue of items whose caption is still to be read (docs/catalog.md, "Captions"). */
export const CAPTIONS_QUEUE = 'read-captions';

export interface CaptionJob {
  itemId: string;
}

/** pg-boss priorities (higher first): a new item's read goes before the upgrade's backlog. */
const newItemPriority = 10;
const backlogPriority = 0;
/** Unread items the backlog queues at a time; topped up when the queue runs dry. */
const backlogBatch = 200;
/** How long a read waits for uploads to leave the decoders before reading anyway. */
const maxYieldMs = 120_000;

async function createCaptionsQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(CAPTIONS_QUEUE, {
    heartbeatSeconds: 10,
    expireInSeconds: 3600,
    retryLimit: 2,
    retryDelay: 30,
    retryBackoff: true,
  });
}

/** Queues the read of a new item's caption, in the transaction that stores it. */
export async function scheduleCaptionRead(
  jobs: JobQueue,
  itemId: string,
  db: SqlExecutor,
): Promise<void> {
  await createCaptionsQueue(jobs);
  await jobs.send<CaptionJob>(CAPTIONS_QUEUE, { itemId }, { db, priority: newItemPriority });
}

export interface ReadCaptionDeps extends CommitNotice {
  database: DatabaseHandle;
  media: Pick<Media, 'store'>;
  reader: CaptionReader;
}

export type ReadCaptionOutcome =
  | { status: 'read'; caption: string; frames: number; cpuMs: number }
  /** Read already (by another worker, the CLI, or a person's edit), or the item is gone. */
  | { status: 'skipped' };

/**
 * Reads an unread item's caption from its original and stores it, unless a person or another
 * reader set it meanwhile (only a row still unread is written). A file the decoder refuses
 * leaves the item read with no caption: it would refuse it again.
 */
export async function readItemCaption(
  deps: ReadCaptionDeps,
  itemId: string,
): Promise<ReadCaptionOutcome> {
  const [item] = await deps.database.db
    .select({ originalFormat: items.originalFormat, readAt: items.captionReadAt })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  if (!item || item.readAt) return { status: 'skipped' };
  const [source] = await deps.database.db
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
  const bytes = source ? await deps.media.store.read(source.path) : undefined;
  let caption = '';
  let frames = 0;
  const startedCpu = process.cpuUsage();
  if (bytes) {
    try {
      ({ caption, frames } = await deps.reader.read(bytes));
    } catch {
      caption = '';
    }
  }
  const used = process.cpuUsage(startedCpu);
  const updated = await deps.database.db
    .update(items)
    .set({ caption, captionReadAt: new Date() })
    .where(and(eq(items.id, itemId), isNull(items.captionReadAt)))
    .returning({ id: items.id });
  if (updated.length === 0) return { status: 'skipped' };
  deps.services?.versions.noteCommittedChange();
  return { status: 'read', caption, frames, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Queues up to `limit` unread items (id order) not queued yet, at the backlog's priority: what
 * an upgrade has to read, a batch at a time, so the queue never holds the whole catalog.
 */
export async function queueUnreadCaptions(
  deps: { database: DatabaseHandle; jobs: JobQueue },
  limit = backlogBatch,
): Promise<number> {
  await createCaptionsQueue(deps.jobs);
  const { rows } = await deps.database.pool.query<{ id: string }>(
    `SELECT id FROM items WHERE caption_read_at IS NULL ORDER BY id LIMIT $1`,
    [limit * 2],
  );
  const ids = rows.map((row) => row.id);
  const queued = new Set(await deps.jobs.listUnfinishedFor(CAPTIONS_QUEUE, 'itemId', ids));
  let sent = 0;
  for (const id of ids) {
    if (queued.has(id) || sent >= limit) continue;
    await deps.jobs.send<CaptionJob>(CAPTIONS_QUEUE, { itemId: id }, { priority: backlogPriority });
    sent += 1;
  }
  return sent;
}

/** Counts the items whose caption is still to be read. */
export async function countUnreadCaptions(database: DatabaseHandle): Promise<number> {
  const [row] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(items)
    .where(isNull(items.captionReadAt));
  return row?.count ?? 0;
}

export interface CaptionWorker {
  close(): Promise<void>;
}

/**
 * Runs caption reads in this process, one at a time (the engine takes a core while it reads),
 * each waiting while uploads are in the decoders (media-processor.ts, `hasUrgentWork`), so
 * people's uploads never wait on it; queues the upgrade's backlog at start and whenever the
 * queue runs dry.
 */
export async function startCaptionWorker(
  deps: Omit<ReadCaptionDeps, 'reader'> & { media: Media; jobs: JobQueue; log?: JobLogger },
): Promise<CaptionWorker> {
  const reader = createCaptionReader();
  let isClosed = false;
  await createCaptionsQueue(deps.jobs);
  const topUp = async () => {
    if (isClosed) return;
    if ((await deps.jobs.countQueued(CAPTIONS_QUEUE)) > 0) return;
    await queueUnreadCaptions(deps);
  };
  await deps.jobs.work<CaptionJob>(
    CAPTIONS_QUEUE,
    { concurrency: 1, pollingIntervalSeconds: 2 },
    async ({ itemId }) => {
      const waitUntil = Date.now() + maxYieldMs;
      while (!isClosed && deps.media.processor.hasUrgentWork() && Date.now() < waitUntil) {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      if (isClosed) throw new Error('the caption reader closed');
      await readItemCaption({ ...deps, reader }, itemId);
      await topUp().catch((error: unknown) =>
        deps.log?.warn({ err: error }, 'could not queue unread captions'),
      );
    },
  );
  await topUp().catch((error: unknown) =>
    deps.log?.warn({ err: error }, 'could not queue unread captions'),
  );
  return {
    async close() {
      isClosed = true;
      await reader.close();
    },
  };
}

/** What `readUnreadCaptions` did. */
export interface UnreadCaptionsSummary {
  read: number;
  withText: number;
  /** CPU milliseconds of each read, in order (the bench's figures). */
  cpuMs: number[];
}

/**
 * Reads every unread item's caption in this process, in id order, a batch at a time: `sticky
 * captions`. Each read is stored as it is made, so an interrupted run resumes where it stopped;
 * jobs queued for these items find them read and do nothing.
 */
export async function readUnreadCaptions(
  deps: Omit<ReadCaptionDeps, 'reader'>,
  options: { signal?: AbortSignal; onItemDone?: (done: number) => void; batchSize?: number } = {},
): Promise<UnreadCaptionsSummary> {
  const reader = createCaptionReader();
  const summary: UnreadCaptionsSummary = { read: 0, withText: 0, cpuMs: [] };
  let after = '';
  try {
    for (;;) {
      const { rows } = await deps.database.pool.query<{ id: string }>(
        `SELECT id FROM items WHERE caption_read_at IS NULL AND id > $1 ORDER BY id LIMIT $2`,
        [after, options.batchSize ?? 100],
      );
      if (rows.length === 0) return summary;
      for (const { id } of rows) {
        if (options.signal?.aborted) return summary;
        const outcome = await readItemCaption({ ...deps, reader }, id);
        if (outcome.status === 'read') {
          summary.read += 1;
          if (outcome.caption) summary.withText += 1;
          summary.cpuMs.push(outcome.cpuMs);
        }
        options.onItemDone?.(summary.read);
        after = id;
      }
    }
  } finally {
    await reader.close();
  }
}
