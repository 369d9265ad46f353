import fsp from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { formatBytes } from '@sticky/contracts';
import type { ItemVisibility, Rating } from '@sticky/contracts';
import type { AppConfig } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { creators, itemCategories, items, renditions } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { encodeCategoryName } from '../category-names.ts';
import { hashContent } from '../../storage/media-paths.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import { buildDefaultAltText } from '../alt-text.ts';
import {
  buildSlug,
  generateItemId,
  isValidItemId,
  normaliseTags,
  ratingRanks,
} from './item-naming.ts';
import {
  createStagingDir,
  lockMediaFilesShared,
  placeFiles,
  removeUnreferencedFiles,
  toRenditionRows,
} from './media-files.ts';
import { scheduleLaterRenditions } from './later-renditions.ts';
import { scheduleCaptionRead } from '../captions/caption-job.ts';
import type { Media } from './media-services.ts';
import type { ImportLimits } from './inspect-media.ts';
import type { CommitNotice } from '../query/catalog-versions.ts';
import { isTransparentType } from './rendition-plan.ts';
import type { RenderPhase } from './rendition-plan.ts';
import { isAnyHashBlocked } from '../../moderation/block-list.ts';
import { stripMetadata } from './strip-metadata.ts';
import { isUniqueViolation } from '../../db/database-errors.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { Transaction } from '../../db/transaction.ts';

/** A blocked file's rejection: the same neutral words an upload gets (contracts' moderation). */
const blockedImportReason = "this file can't be uploaded here";

export interface ItemMetadata {
  title: string;
  tags: string[];
  type: 'gif' | 'sticker' | 'text';
  /** Default 'g'. */
  rating?: Rating;
  altText?: string;
  /**
   * The words written inside the image, when known (the starter plan's): the item is then not
   * read by the caption job (docs/catalog.md, "Captions").
   */
  caption?: string;
  sourceUrl?: string;
  license?: string;
  attribution?: string;
  /** Display names; 'Parent/Sub' for a subcategory ('Reactions/Happy'); created if missing. */
  categories?: string[];
  creator?: {
    username: string;
    displayName: string;
    avatarUrl?: string;
    description?: string;
    profileUrl?: string;
    websiteUrl?: string;
    isVerified?: boolean;
  };
  /**
   * An upload of no given type: a sticker when the file has a transparent pixel, else a GIF
   * (`type` is then ignored).
   */
  isTypeFromTransparency?: boolean;
  /** The person who uploaded it (docs/uploads.md); none for imported and starter items. */
  ownerId?: string;
  /**
   * Who sees it (docs/uploads.md, "Visibility"); public unless given. An unlisted or private
   * item is never indexable, so it is in no list.
   */
  visibility?: ItemVisibility;
  /** Animated-text renderings made on demand: isDynamic true, isIndexable false. */
  isDynamic?: boolean;
  isIndexable?: boolean;
  trendScore?: number;
}

export type ImportOutcome =
  | { status: 'imported'; itemId: string; slug: string }
  /** The same bytes (sha256) are already in the catalog, or the given id already exists. */
  | { status: 'duplicate'; itemId: string }
  /** A clear, human reason: shown to whoever imports the file. */
  | { status: 'rejected'; reason: string };

export interface ImportDeps extends CommitNotice {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where the files go, and the decoders that make them (media-services.ts). */
  media: Media;
  /**
   * The app's job queue: with it, an item is stored as soon as what the grid and the item page
   * show exists, and the rest is made by a job (later-renditions.ts). Without it, everything
   * is made before the item appears.
   */
  jobs?: JobQueue;
}

export interface ImportInput {
  bytes: Buffer;
  /** Only for messages: the format is read from the bytes, never from the name. */
  fileName: string;
  metadata: ItemMetadata;
}

export interface ImportOptions {
  /**
   * Use this item id instead of a random one (base62, 6–64 characters), e.g. a deterministic
   * id for content-addressed text renderings. An item with that id already there is a duplicate.
   */
  itemId?: string;
  /**
   * Which renditions to make before the item is stored: default `ready` with a job queue (the
   * rest follows as a job), `all` without one. `all` with a queue makes everything up front.
   */
  phase?: Extract<RenderPhase, 'ready' | 'all'>;
  /** What is left of the uploader's daily decoding allowance (inspect-media.ts, ImportLimits). */
  megapixelAllowance?: ImportLimits['megapixelAllowance'];
  /** Test hook: runs inside the transaction after every row is written, before commit. */
  beforeCommit?: () => Promise<void> | void;
}

function validateMetadata(metadata: ItemMetadata): string | undefined {
  if (!metadata || typeof metadata !== 'object') return 'no metadata was given';
  if (typeof metadata.title !== 'string' || metadata.title.trim() === '') {
    return 'the title is empty';
  }
  if (metadata.title.length > 200) return 'the title is longer than 200 characters';
  if (!['gif', 'sticker', 'text'].includes(metadata.type)) {
    return `the type must be gif, sticker or text, not ${JSON.stringify(metadata.type)}`;
  }
  if (metadata.rating !== undefined && !(metadata.rating in ratingRanks)) {
    return `the rating must be g, pg, pg-13 or r, not ${JSON.stringify(metadata.rating)}`;
  }
  if (!Array.isArray(metadata.tags) || metadata.tags.some((tag) => typeof tag !== 'string')) {
    return 'the tags must be a list of words';
  }
  for (const category of metadata.categories ?? []) {
    const parts = category.split('/').map((part) => part.trim());
    if (parts.length > 2 || parts.some((part) => encodeCategoryName(part) === '')) {
      return `the category ${JSON.stringify(category)} is not "Name" or "Parent/Sub"`;
    }
  }
  if (metadata.creator && !/^[A-Za-z0-9_.-]{1,64}$/.test(metadata.creator.username ?? '')) {
    return `the creator username ${JSON.stringify(metadata.creator.username)} is not valid (letters, digits, . _ -)`;
  }
  return undefined;
}

/** The category (and its parent) by display name, created when missing; returns the leaf id. */
export async function ensureCategory(tx: Transaction, displayPath: string): Promise<number> {
  let parentId: number | null = null;
  for (const part of displayPath.split('/').map((name) => name.trim())) {
    const result: { rows: Array<{ id: number }> } = await tx.execute<{ id: number }>(sql`
      INSERT INTO categories (name, name_encoded, parent_id)
      VALUES (${part}, ${encodeCategoryName(part)}, ${parentId})
      ON CONFLICT ((coalesce(parent_id, 0)), name_encoded) DO UPDATE SET name = categories.name
      RETURNING id`);
    parentId = Number(result.rows[0]!.id);
  }
  return parentId!;
}

async function upsertCreator(
  tx: Transaction,
  creator: NonNullable<ItemMetadata['creator']>,
): Promise<number> {
  const values = {
    username: creator.username,
    displayName: creator.displayName || creator.username,
    avatarUrl: creator.avatarUrl ?? '',
    description: creator.description ?? '',
    profileUrl: creator.profileUrl ?? '',
    websiteUrl: creator.websiteUrl ?? '',
    isVerified: creator.isVerified ?? false,
  };
  const { username: _username, ...updates } = values;
  const [row] = await tx
    .insert(creators)
    .values(values)
    .onConflictDoUpdate({ target: creators.username, set: updates })
    .returning({ id: creators.id });
  return row!.id;
}

async function findItemBySha(database: DatabaseHandle, sha256: string) {
  const [row] = await database.db
    .select({ id: items.id })
    .from(items)
    .where(eq(items.sha256, sha256))
    .limit(1);
  return row;
}

/**
 * Validates a file, renders GIPHY's renditions, and stores the item: files first (moved into
 * their content-addressed place), then the item, its renditions, creator and categories in one
 * transaction. It either all appears or none of it does. With a job queue only the renditions
 * the grid and the item page show are made first; a job sent in that transaction makes the rest
 * (docs/catalog.md, "Renditions"). Never throws for a bad file (that is a rejection with a
 * reason); throws only when storage itself fails (disk, database).
 */
export async function importMedia(
  deps: ImportDeps,
  input: ImportInput,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const { config, database, media } = deps;
  const { metadata } = input;
  const problem = validateMetadata(metadata);
  if (problem) return { status: 'rejected', reason: problem };
  if (options.itemId !== undefined && !isValidItemId(options.itemId)) {
    return {
      status: 'rejected',
      reason: `the item id ${JSON.stringify(options.itemId)} is not base62`,
    };
  }
  const limits: ImportLimits = options.megapixelAllowance
    ? { ...config.importLimits, megapixelAllowance: options.megapixelAllowance }
    : config.importLimits;
  if (input.bytes.length > limits.maxBytes) {
    return {
      status: 'rejected',
      reason: `the file is ${formatBytes(input.bytes.length)}, over the limit of ${formatBytes(limits.maxBytes)}`,
    };
  }

  // What others fetch carries no EXIF, GPS, XMP or comments (docs/uploads.md, "Cleaned
  // originals"); the hash is of the cleaned file, so a copy that differs only there is the same.
  // A file whose structure cannot be followed is refused, never kept as sent.
  const cleaned = stripMetadata(input.bytes);
  if (!cleaned.ok) return { status: 'rejected', reason: cleaned.reason };
  const { bytes } = cleaned;
  const sha256 = hashContent(bytes);
  // An upload's job and the CLI alike: a file an admin blocked, as sent or as stored, is not
  // taken (docs/security.md, "Moderation").
  if (await isAnyHashBlocked(database.db, [hashContent(input.bytes), sha256])) {
    return { status: 'rejected', reason: blockedImportReason };
  }
  const existing = await findItemBySha(database, sha256);
  if (existing) return { status: 'duplicate', itemId: existing.id };
  if (options.itemId) {
    const [byId] = await database.db
      .select({ id: items.id })
      .from(items)
      .where(eq(items.id, options.itemId))
      .limit(1);
    if (byId) return { status: 'duplicate', itemId: byId.id };
  }

  const phase = options.phase ?? (deps.jobs ? 'ready' : 'all');
  const stagingDir = await createStagingDir(config.mediaDir);
  let created: string[] = [];
  try {
    const result = await media.processor.process({
      bytes,
      limits,
      outputDir: stagingDir,
      isTransparent: metadata.isTypeFromTransparency ? 'auto' : isTransparentType(metadata.type),
      ffmpegPath: resolveFfmpegPath(),
      phase,
      priority: 'high',
    });
    if (!result.ok) return { status: 'rejected', reason: result.reason };
    const { info } = result;
    const type = metadata.isTypeFromTransparency
      ? result.isTransparent
        ? 'sticker'
        : 'gif'
      : metadata.type;

    const itemId = options.itemId ?? generateItemId();
    const title = metadata.title.trim();
    const slug = buildSlug(title, itemId);
    const rating = metadata.rating ?? 'g';
    const isAnimated = info.frames > 1;
    // Animated text's words are its title, and a rendering on demand is never listed.
    const isCaptionKnown =
      metadata.caption !== undefined || type === 'text' || Boolean(metadata.isDynamic);

    await withTransaction(database, async ({ tx, executor }) => {
      await tx.execute(lockMediaFilesShared);
      const placement = await placeFiles(media.store, result.files).catch((error: unknown) => {
        created = (error as { createdPaths?: string[] }).createdPaths ?? [];
        throw error;
      });
      created = placement.created;
      const creatorId = metadata.creator ? await upsertCreator(tx, metadata.creator) : null;
      await tx.insert(items).values({
        id: itemId,
        type,
        slug,
        title,
        tags: normaliseTags(metadata.tags),
        altText: metadata.altText?.trim() || buildDefaultAltText(title, type, isAnimated),
        caption: metadata.caption?.trim() ?? '',
        captionReadAt: isCaptionKnown ? new Date() : null,
        rating,
        ratingRank: ratingRanks[rating],
        sourceUrl: metadata.sourceUrl ?? '',
        creatorId,
        width: info.width,
        height: info.height,
        frames: info.frames,
        durationMs: info.durationMs,
        bytes: bytes.length,
        sha256,
        ownerId: metadata.ownerId ?? null,
        originalFormat: info.format,
        isDynamic: metadata.isDynamic ?? false,
        visibility: metadata.visibility ?? 'public',
        isIndexable:
          (metadata.isIndexable ?? true) && (metadata.visibility ?? 'public') === 'public',
        license: metadata.license ?? '',
        attribution: metadata.attribution ?? '',
        trendScore: metadata.trendScore ?? 0,
      });
      await tx.insert(renditions).values(toRenditionRows(itemId, placement.files));
      const categoryIds = new Set<number>();
      for (const category of metadata.categories ?? []) {
        categoryIds.add(await ensureCategory(tx, category));
      }
      if (categoryIds.size > 0) {
        await tx
          .insert(itemCategories)
          .values([...categoryIds].map((categoryId) => ({ itemId, categoryId })))
          .onConflictDoNothing();
      }
      // Sent in the same transaction: the job exists exactly when the item does.
      if (phase === 'ready' && deps.jobs) {
        await scheduleLaterRenditions(deps.jobs, itemId, executor, {
          isUpload: Boolean(metadata.ownerId),
        });
      }
      // Read later, in the later tier, never on the way to Ready (docs/catalog.md, "Captions").
      if (deps.jobs && !isCaptionKnown) await scheduleCaptionRead(deps.jobs, itemId, executor);
      await options.beforeCommit?.();
    });
    deps.services?.versions.noteCommittedChange();
    created = [];
    return { status: 'imported', itemId, slug };
  } catch (error) {
    if (isUniqueViolation(error, 'items_sha256_unique')) {
      const winner = await findItemBySha(database, sha256);
      if (winner) return { status: 'duplicate', itemId: winner.id };
    }
    throw error;
  } finally {
    await removeUnreferencedFiles(database, media.store, created).catch(() => {});
    await fsp.rm(stagingDir, { recursive: true, force: true });
  }
}
