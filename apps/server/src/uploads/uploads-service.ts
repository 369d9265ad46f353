import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  blockedFileReason,
  formatBytes,
  titleFromFileName,
  uploadFieldsSchema,
  uploadMediaTypes,
  uploadTagsSchema,
} from '@sticky/contracts';
import type {
  CreateUploadsResponse,
  ItemVisibility,
  ListUploadsQuery,
  ListUploadsResponse,
  Rating,
  UploadItemType,
  UploadLimitsResponse,
  UploadReceipt,
  UploadState,
} from '@sticky/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import { importMedia } from '../catalog/import/import-media.ts';
import type { ImportDeps, ItemMetadata } from '../catalog/import/import-media.ts';
import type { Media } from '../catalog/import/media-services.ts';
import { stripMetadata } from '../catalog/import/strip-metadata.ts';
import { withTransaction } from '../db/transaction.ts';
import type { SqlExecutor, Transaction } from '../db/transaction.ts';
import { hashContent } from '../storage/media-paths.ts';
import type { CommitNotice } from '../catalog/query/catalog-versions.ts';
import { itemPageUrl, mediaUrl } from '../catalog/query/serialize.ts';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { items, uploadFiles, uploads } from '../db/schema.ts';
import type { JobLogger, JobQueue } from '../jobs/job-queue.ts';
import { categoryNameSql, previewPathSql, toItemDetails } from '../items/item-details.ts';
import type { ItemDetailsRow } from '../items/item-details.ts';
import { AppError } from '../lib/app-error.ts';
import { isAnyHashBlocked } from '../moderation/block-list.ts';
import { findCategoryId, unknownCategoryMessage } from '../moderation/managed-categories.ts';
import { describeUploadBan, findUploadBanReason } from '../moderation/upload-bans.ts';
import { sweepTemporaryFiles } from './receive-files.ts';
import type { ReceivedRequest, RefusalCause } from './receive-files.ts';
import {
  readDecodedMegapixels,
  readMegapixelAllowance,
  readMegapixelsUsedToday,
  readQueuePriority,
} from './upload-quota.ts';

/** The queue of accepted uploads waiting to become items (docs/uploads.md, "Processing"). */
export const UPLOADS_QUEUE = 'process-uploads';

/** pg-boss retries a job whose handler threw (a disk or database error) this many times. */
const RETRY_LIMIT = 3;

export interface UploadsDeps extends CommitNotice {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where uploads become files, and the decoders (media-services.ts). */
  media: Media;
  jobs?: JobQueue;
}

/** What a person sent beside the files, as stored on each upload row until it is an item. */
interface UploadMetadata {
  title?: string;
  tags: string[];
  type?: UploadItemType;
  category?: string;
  rating?: Rating;
  source?: string;
  /** Decided when the upload is accepted (docs/uploads.md, "Visibility"); older rows: public. */
  visibility?: ItemVisibility;
}

interface UploadJob {
  uploadId: string;
}

/** Where requests' files wait while the rest of the request arrives. */
export function uploadTempDir(config: AppConfig): string {
  return path.join(config.dataDir, 'tmp', 'uploads');
}

function firstMessage(error: { issues: ReadonlyArray<{ message: string; path: PropertyKey[] }> }) {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Reads the text fields of an upload request; a bad one refuses the whole request, saying which. */
export function parseUploadFields(fields: Record<string, string>): UploadMetadata {
  const known = Object.fromEntries(
    Object.entries(fields).filter(
      ([name, value]) => name in uploadFieldsSchema.shape && value !== '',
    ),
  );
  const parsed = uploadFieldsSchema.safeParse(known);
  if (!parsed.success) throw new AppError('bad_request', firstMessage(parsed.error));
  const tags = uploadTagsSchema.safeParse(
    (parsed.data.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  );
  if (!tags.success) throw new AppError('bad_request', `tags: ${firstMessage(tags.error)}`);
  const { title, type, category, rating, source, visibility } = parsed.data;
  return {
    ...(visibility ? { visibility } : {}),
    tags: tags.data,
    ...(title ? { title } : {}),
    ...(type ? { type } : {}),
    ...(category ? { category } : {}),
    ...(rating ? { rating } : {}),
    ...(source ? { source } : {}),
  };
}

const startOfTodayUtc = sql`(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** What a person has uploaded since midnight UTC: every accepted file counts. */
async function readUsedToday(db: DatabaseHandle['db'] | Transaction, userId: string) {
  const [row] = await db
    .select({
      items: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)::bigint`,
    })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), sql`${uploads.createdAt} >= ${startOfTodayUtc}`));
  return { items: Number(row?.items ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export async function getUploadLimits(
  deps: UploadsDeps,
  user: { id: string; canUpload: boolean },
): Promise<UploadLimitsResponse> {
  const limits = deps.config.uploads;
  const [used, megapixelsUsed, banReason] = await Promise.all([
    readUsedToday(deps.database.db, user.id),
    readMegapixelsUsedToday(deps.database.db, user.id),
    findUploadBanReason(deps.database, user.id),
  ]);
  return {
    success: true,
    canUpload: user.canUpload && banReason === undefined,
    banReason: banReason === undefined ? null : describeUploadBan(banReason),
    maxFileBytes: limits.maxFileBytes,
    maxFilesPerRequest: limits.maxFilesPerRequest,
    bytesPerDay: limits.bytesPerDay,
    itemsPerDay: limits.itemsPerDay,
    bytesUsedToday: used.bytes,
    itemsUsedToday: used.items,
    megapixelsPerDay: limits.megapixelsPerDay,
    megapixelsUsedToday: Math.ceil(megapixelsUsed),
    mediaTypes: [...uploadMediaTypes],
    visibility: limits.visibility,
  };
}

async function createUploadsQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(UPLOADS_QUEUE, {
    // A worker that dies stops beating: its upload is picked up again by any server.
    heartbeatSeconds: 10,
    expireInSeconds: 3600,
    retryLimit: RETRY_LIMIT,
    retryDelay: 2,
    retryBackoff: true,
  });
}

/** Why a file is over the person's daily quota, and what to do (docs/uploads.md, "Receiving"). */
function describeQuota(
  config: AppConfig,
  used: { items: number; bytes: number },
  fileBytes: number,
): string {
  const { itemsPerDay, bytesPerDay } = config.uploads;
  if (used.items + 1 > itemsPerDay) {
    return `You have reached today's upload limit of ${itemsPerDay} files. It resets at midnight UTC.`;
  }
  const left = Math.max(0, bytesPerDay - used.bytes);
  return `${formatBytes(fileBytes)} is more than is left of today's upload limit (${formatBytes(left)} of ${formatBytes(bytesPerDay)}). Send a smaller file, or wait: the limit resets at midnight UTC.`;
}

/** Why a file was refused: by the reading, or because its bytes are blocked. */
type DecisionCause = RefusalCause | 'blocked';

const causeStatus: Record<DecisionCause, AppError['code']> = {
  not_an_image: 'unsupported_media_type',
  empty: 'bad_request',
  over_quota: 'rate_limited',
  blocked: 'forbidden',
};

interface FileDecision {
  fileName: string;
  receipt?: UploadReceipt;
  cause?: DecisionCause;
}

/**
 * Takes what a request brought in (docs/uploads.md, "Receiving"): every file kept is cleaned
 * of metadata and hashed; a file already in the catalog answers with that item; the others get
 * a row, their bytes and a job in one transaction, under the person's daily quota (held by a
 * lock per person, so two requests at once cannot both slip under it). Answers one receipt per
 * file in order; when no file made it, throws the refusal (413, 415, 429 or 400) with every
 * reason, so scripts that only look at the status learn it too.
 */
export async function acceptUploads(
  deps: UploadsDeps,
  user: { id: string; isAdmin?: boolean },
  received: ReceivedRequest,
  /** The visibility of uploads that name none: the API token's, when sent with one. */
  defaultVisibility?: ItemVisibility,
): Promise<CreateUploadsResponse> {
  const sent = parseUploadFields(received.fields);
  // docs/uploads.md, "Visibility": the field, else the token's default, else UPLOAD_VISIBILITY.
  const metadata: UploadMetadata = {
    ...sent,
    visibility: sent.visibility ?? defaultVisibility ?? deps.config.uploads.visibility,
  };
  if (received.files.length === 0) {
    throw new AppError('bad_request', 'Attach at least one file, as a `file` part of the form.');
  }
  // Only an app built without a queue (some tests) lands here; bad input is told first.
  const { jobs } = deps;
  if (!jobs) {
    throw new AppError('unavailable', 'Uploads are not processed by this server (no job queue).');
  }
  await createUploadsQueue(jobs);
  const limits = deps.config.uploads;
  if (
    metadata.category &&
    (await findCategoryId(deps.database.db, metadata.category)) === undefined
  ) {
    throw new AppError('bad_request', unknownCategoryMessage);
  }

  const decisions = await withTransaction(deps.database, async ({ tx, executor }) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`uploads:${user.id}`}))`);
    const used = await readUsedToday(tx, user.id);
    let priority = await readQueuePriority(tx, user.id);
    const decided: FileDecision[] = [];
    for (const file of received.files) {
      if (file.kind === 'refused') {
        decided.push({
          fileName: file.fileName,
          cause: file.cause,
          receipt: refusal(file.fileName, file.reason),
        });
        continue;
      }
      // One file in memory at a time, at most UPLOAD_MAX_BYTES.
      const received = await fsp.readFile(file.path);
      const receivedSha256 = hashContent(received);
      const cleaned = stripMetadata(received);
      if (!cleaned.ok) {
        // Its structure cannot be followed, so it cannot be cleaned: refused, never kept.
        decided.push({
          fileName: file.fileName,
          cause: 'not_an_image',
          receipt: refusal(file.fileName, `${file.fileName}: ${cleaned.reason}.`),
        });
        continue;
      }
      const { bytes } = cleaned;
      const sha256 = hashContent(bytes);
      // Before the duplicate check: the owner of a hidden item is refused like anyone, and the
      // reason says nothing of the item (docs/security.md, "Moderation").
      if (await isAnyHashBlocked(tx, [receivedSha256, sha256])) {
        decided.push({
          fileName: file.fileName,
          cause: 'blocked',
          receipt: refusal(file.fileName, `${file.fileName}: ${blockedFileReason}`),
        });
        continue;
      }
      const [existing] = await tx
        .select({
          id: items.id,
          hiddenAt: items.hiddenAt,
          type: items.type,
          slug: items.slug,
          ownerId: items.ownerId,
          visibility: items.visibility,
        })
        .from(items)
        .where(eq(items.sha256, sha256))
        .limit(1);
      // Someone else's unlisted or private item is not named to whoever holds the same bytes:
      // its link is for those its owner gives it to (docs/uploads.md, "Visibility").
      if (
        existing &&
        existing.visibility !== 'public' &&
        existing.ownerId !== user.id &&
        !user.isAdmin
      ) {
        decided.push({
          fileName: file.fileName,
          cause: 'empty',
          receipt: refusal(
            file.fileName,
            `${file.fileName}: this file is already on this Sticky, shared only by the person who uploaded it. Ask them for its link.`,
          ),
        });
        continue;
      }
      if (existing) {
        decided.push({
          fileName: file.fileName,
          receipt: {
            fileName: file.fileName,
            uploadId: null,
            itemId: existing.id,
            state: existing.hiddenAt ? 'hidden' : 'ready',
            reason: null,
            isDuplicate: true,
            url: existing.hiddenAt ? null : itemPageUrl(deps.config, existing),
          },
        });
        continue;
      }
      if (used.items + 1 > limits.itemsPerDay || used.bytes + bytes.length > limits.bytesPerDay) {
        decided.push({
          fileName: file.fileName,
          cause: 'over_quota',
          receipt: refusal(
            file.fileName,
            `${file.fileName}: ${describeQuota(deps.config, used, bytes.length)}`,
          ),
        });
        continue;
      }
      used.items += 1;
      used.bytes += bytes.length;
      const uploadId = randomUUID();
      const stored: UploadMetadata = {
        ...metadata,
        title: metadata.title ?? titleFromFileName(file.fileName),
      };
      await tx.insert(uploads).values({
        id: uploadId,
        userId: user.id,
        state: 'processing',
        fileName: file.fileName,
        bytes: bytes.length,
        sha256,
        receivedSha256,
        metadata: stored,
      });
      await tx.insert(uploadFiles).values({ uploadId, bytes });
      await sendUploadJob(jobs, uploadId, executor, priority);
      priority -= 1;
      decided.push({
        fileName: file.fileName,
        receipt: {
          fileName: file.fileName,
          uploadId,
          itemId: null,
          state: 'processing',
          reason: null,
          isDuplicate: false,
          url: uploadLinkUrl(deps.config, uploadId),
        },
      });
    }
    return decided;
  });

  const receipts = decisions.map((decision) => decision.receipt!);
  const isAnyTaken = receipts.some((receipt) => receipt.state !== 'failed');
  if (!isAnyTaken) {
    const causes = new Set(decisions.map((decision) => decision.cause ?? 'empty'));
    const code = causes.size === 1 ? causeStatus[[...causes][0]!] : 'bad_request';
    throw new AppError(code, receipts.map((receipt) => receipt.reason).join(' '));
  }
  return { success: true, uploads: receipts };
}

function refusal(fileName: string, reason: string): UploadReceipt {
  return {
    fileName,
    uploadId: null,
    itemId: null,
    state: 'failed',
    reason,
    isDuplicate: false,
    url: null,
  };
}

/** `/u/{uploadId}`: a link that works before the item exists (routes/upload-links.ts). */
export function uploadLinkUrl(config: AppConfig, uploadId: string): string {
  return `${config.publicUrl}/u/${uploadId}`;
}

/**
 * Where an upload's link leads: its item's page once ready and visible, `processing` while it
 * is made, nothing when it failed, is hidden or never existed.
 */
export async function resolveUploadLink(
  deps: UploadsDeps,
  uploadId: string,
): Promise<{ state: 'ready'; url: string } | { state: 'processing' } | { state: 'gone' }> {
  const [row] = await deps.database.db
    .select({
      state: uploads.state,
      type: items.type,
      slug: items.slug,
      hiddenAt: items.hiddenAt,
    })
    .from(uploads)
    .leftJoin(items, eq(items.id, uploads.itemId))
    .where(eq(uploads.id, uploadId))
    .limit(1);
  if (!row) return { state: 'gone' };
  if (row.state === 'processing') return { state: 'processing' };
  if (row.state === 'ready' && row.type && row.slug && !row.hiddenAt) {
    return { state: 'ready', url: itemPageUrl(deps.config, { type: row.type, slug: row.slug }) };
  }
  return { state: 'gone' };
}

async function sendUploadJob(
  jobs: JobQueue,
  uploadId: string,
  db: SqlExecutor,
  priority: number,
): Promise<void> {
  // pg-boss's priority orders this queue's own jobs: round-robin by person (readQueuePriority).
  // Later renditions are another queue; uploads go before them in the decoder pool instead
  // (docs/uploads.md, "Processing").
  await jobs.send<UploadJob>(UPLOADS_QUEUE, { uploadId }, { db, priority });
}

export type ProcessOutcome = 'ready' | 'failed' | 'gone';

/**
 * Makes an accepted upload an item (docs/uploads.md, "Processing"). Safe to run again after
 * any crash: the item is made in one transaction (importMedia), found again by its bytes when
 * the upload row was not updated yet, and the row and its staged bytes change together.
 */
export async function processUpload(
  deps: UploadsDeps & { log?: JobLogger },
  uploadId: string,
  options: { isLastAttempt?: boolean } = {},
): Promise<ProcessOutcome> {
  const { database } = deps;
  const [row] = await database.db
    .select({
      userId: uploads.userId,
      state: uploads.state,
      fileName: uploads.fileName,
      metadata: uploads.metadata,
      bytes: uploadFiles.bytes,
    })
    .from(uploads)
    .leftJoin(uploadFiles, eq(uploadFiles.uploadId, uploads.id))
    .where(eq(uploads.id, uploadId))
    .limit(1);
  if (!row || row.state !== 'processing') return 'gone';
  if (!row.bytes) {
    await finishUpload(database, uploadId, {
      state: 'failed',
      reason: 'The file was lost before it could be processed; upload it again.',
    });
    return 'failed';
  }
  const sent = row.metadata as UploadMetadata;
  const metadata: ItemMetadata = {
    title: sent.title ?? titleFromFileName(row.fileName),
    tags: sent.tags ?? [],
    type: sent.type ?? 'gif',
    isTypeFromTransparency: !sent.type,
    ...(sent.rating ? { rating: sent.rating } : {}),
    ...(sent.source ? { sourceUrl: sent.source } : {}),
    // A category an admin deleted since the upload was taken is left out, never made again.
    ...(sent.category && (await findCategoryId(database.db, sent.category)) !== undefined
      ? { categories: [sent.category] }
      : {}),
    ...(row.userId ? { ownerId: row.userId } : {}),
    visibility: sent.visibility ?? 'public',
  };
  const importDeps: ImportDeps = {
    config: deps.config,
    database,
    media: deps.media,
    jobs: deps.jobs,
    services: deps.services,
  };
  try {
    // A file that would cost more decoding than is left of its owner's day is refused from
    // its headers, never decoded, and never retried (docs/uploads.md, "Receiving").
    const megapixelAllowance = row.userId
      ? await readMegapixelAllowance(deps, row.userId)
      : undefined;
    const outcome = await importMedia(
      importDeps,
      { bytes: row.bytes, fileName: row.fileName, metadata },
      megapixelAllowance ? { megapixelAllowance } : {},
    );
    if (outcome.status === 'rejected') {
      await finishUpload(database, uploadId, {
        state: 'failed',
        reason: `${row.fileName}: ${outcome.reason}.`,
      });
      return 'failed';
    }
    await finishUpload(database, uploadId, {
      state: 'ready',
      itemId: outcome.itemId,
      isDecoded: outcome.status === 'imported',
    });
    return 'ready';
  } catch (error) {
    if (!options.isLastAttempt) throw error;
    deps.log?.error({ err: error, uploadId }, 'an upload could not be processed');
    await finishUpload(database, uploadId, {
      state: 'failed',
      reason: `${row.fileName} could not be processed (a server error); upload it again.`,
    });
    return 'failed';
  }
}

async function finishUpload(
  database: DatabaseHandle,
  uploadId: string,
  outcome:
    { state: 'ready'; itemId: string; isDecoded?: boolean } | { state: 'failed'; reason: string },
): Promise<void> {
  await withTransaction(database, async ({ tx }) => {
    // The file's decoding is charged to its owner's day; a duplicate decoded nothing.
    const megapixels =
      outcome.state === 'ready' && outcome.isDecoded
        ? await readDecodedMegapixels(tx, outcome.itemId)
        : 0;
    await tx
      .update(uploads)
      .set({
        state: outcome.state,
        megapixels,
        itemId: outcome.state === 'ready' ? outcome.itemId : null,
        reason: outcome.state === 'failed' ? outcome.reason : null,
        updatedAt: new Date(),
      })
      .where(and(eq(uploads.id, uploadId), eq(uploads.state, 'processing')));
    await tx.delete(uploadFiles).where(eq(uploadFiles.uploadId, uploadId));
  });
}

/**
 * Runs upload jobs in this process, UPLOAD_WORKERS at once; every server on the database
 * shares the queue. Also clears request folders a killed process left behind.
 */
export async function startUploadWorker(
  deps: UploadsDeps & { jobs: JobQueue; log?: JobLogger },
): Promise<void> {
  await sweepTemporaryFiles(uploadTempDir(deps.config)).catch(() => 0);
  await createUploadsQueue(deps.jobs);
  await deps.jobs.work<UploadJob>(
    UPLOADS_QUEUE,
    { concurrency: deps.config.uploads.workers, pollingIntervalSeconds: 0.5 },
    async ({ uploadId }, job: Job<UploadJob>) => {
      const outcome = await processUpload(deps, uploadId, {
        isLastAttempt: job.retryCount >= RETRY_LIMIT,
      });
      if (outcome === 'failed') deps.log?.info?.({ uploadId }, 'upload refused');
    },
  );
}

type UploadListRow = ItemDetailsRow & {
  id: string;
  item_id: string | null;
  state: 'processing' | 'ready' | 'failed';
  reason: string | null;
  file_name: string;
  bytes: string | number;
  created_at: Date | string;
  metadata: UploadMetadata;
  hidden_at: Date | null;
  visibility: ItemVisibility | null;
  has_item: boolean;
  preview_path: string | null;
  preview_still_path: string | null;
  uploader_id: string | null;
  uploader_name: string | null;
  uploader_email: string | null;
  /** created_at to the microsecond, for the cursor (a JS Date keeps milliseconds). */
  cursor_at: string;
};

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) {
    throw new AppError(
      'bad_request',
      'cursor: not a cursor this server gave; start from the first page.',
    );
  }
  return { createdAt, id };
}

const stateFilters: Record<UploadState, ReturnType<typeof sql>> = {
  processing: sql`u.state = 'processing'`,
  failed: sql`u.state = 'failed'`,
  ready: sql`u.state = 'ready' AND i.hidden_at IS NULL`,
  hidden: sql`u.state = 'ready' AND i.hidden_at IS NOT NULL`,
};

/**
 * Uploads newest first: one person's (`userId`), or everyone's with who sent them (admins).
 * The details are the item's once it exists (edits show), else what was sent.
 */
export async function listUploads(
  deps: UploadsDeps,
  scope: { userId: string } | { isEveryone: true },
  query: ListUploadsQuery,
): Promise<ListUploadsResponse> {
  const conditions = [sql`TRUE`];
  if ('userId' in scope) conditions.push(sql`u.user_id = ${scope.userId}`);
  if (query.state) conditions.push(stateFilters[query.state]);
  if (query.cursor) {
    const { createdAt, id } = decodeCursor(query.cursor);
    conditions.push(sql`(u.created_at, u.id) < (${createdAt}::timestamptz, ${id})`);
  }
  const result = await deps.database.db.execute<UploadListRow>(sql`
    SELECT u.id, u.created_at::text AS cursor_at, u.item_id, u.state, u.reason, u.file_name, u.bytes, u.created_at, u.metadata,
      i.id IS NOT NULL AS has_item, i.hidden_at, i.visibility, i.title, i.tags, i.type, i.rating, i.source_url, coalesce(i.caption, '') AS caption,
      ${categoryNameSql('i')} AS category, ${previewPathSql('i', 'fixed_width')} AS preview_path,
      ${previewPathSql('i', 'fixed_width_still')} AS preview_still_path,
      person.id AS uploader_id, person.name AS uploader_name, person.email AS uploader_email
    FROM uploads u
    LEFT JOIN items i ON i.id = u.item_id
    LEFT JOIN users person ON person.id = u.user_id
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY u.created_at DESC, u.id DESC
    LIMIT ${query.limit + 1}`);
  const rows = result.rows.slice(0, query.limit);
  const last = rows.at(-1);
  return {
    success: true,
    uploads: rows.map((row) => {
      const createdAt = new Date(row.created_at);
      const sent = row.metadata;
      return {
        id: row.id,
        itemId: row.item_id,
        state: row.state === 'ready' && row.hidden_at ? 'hidden' : row.state,
        reason: row.reason,
        fileName: row.file_name,
        bytes: Number(row.bytes),
        createdAt: createdAt.toISOString(),
        visibility: row.visibility ?? sent.visibility ?? null,
        previewUrl: row.preview_path ? mediaUrl(deps.config, row.preview_path) : null,
        previewStillUrl: row.preview_still_path
          ? mediaUrl(deps.config, row.preview_still_path)
          : null,
        details: row.has_item
          ? toItemDetails(row)
          : {
              title: sent.title ?? titleFromFileName(row.file_name),
              tags: sent.tags ?? [],
              type: sent.type ?? 'gif',
              category: sent.category ?? null,
              rating: sent.rating ?? 'g',
              sourceUrl: sent.source ?? '',
              caption: '',
            },
        uploader:
          'isEveryone' in scope && row.uploader_id
            ? { id: row.uploader_id, name: row.uploader_name!, email: row.uploader_email! }
            : null,
      };
    }),
    next: result.rows.length > query.limit && last ? encodeCursor(last.cursor_at, last.id) : null,
  };
}
