import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rating } from '@sticky/contracts';
import { ratingOrder } from '@sticky/contracts';
import { encodeCategoryName } from '../catalog/category-names.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { categories, creators, itemCategories, items, renditions } from '../db/schema.ts';

/** `../shared` beside the repository: data and fixtures tests read, never copy. */
export const sharedDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared',
);

/**
 * Catalog rows written straight into the database, for tests of everything that reads the
 * catalog: no image work, no files (media URLs point at paths that need not exist).
 */
export interface FixtureItem {
  id?: string;
  type?: 'gif' | 'sticker' | 'text';
  title: string;
  tags?: readonly string[];
  altText?: string;
  rating?: Rating;
  sourceUrl?: string;
  /** Username of a creator made with `insertCreator` (or created here on first use). */
  creator?: string;
  isIndexable?: boolean;
  isDynamic?: boolean;
  trendScore?: number;
  trendingAt?: Date | null;
  createdAt?: Date;
  width?: number;
  height?: number;
  frames?: number;
  /** Which renditions to write: GIPHY's usual set (default), or none at all. */
  renditions?: 'standard' | 'none';
  /** Also an MP4 beside each animated rendition (as when ffmpeg is installed). */
  hasMp4?: boolean;
}

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createFixtureId(): string {
  return [...randomBytes(12)].map((byte) => base62[byte % 62]).join('');
}

export function slugFor(title: string, id: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return words ? `${words}-${id}` : id;
}

type RenditionRow = typeof renditions.$inferInsert;

/** GIPHY's usual renditions for one item, sized like the import pipeline sizes them. */
export function standardRenditions(
  itemId: string,
  width: number,
  height: number,
  frames: number,
  hasMp4 = false,
): RenditionRow[] {
  const scaleTo = (targetWidth?: number, targetHeight?: number) =>
    targetWidth
      ? { width: targetWidth, height: Math.max(1, Math.round((height * targetWidth) / width)) }
      : { width: Math.max(1, Math.round((width * targetHeight!) / height)), height: targetHeight! };
  const sizes: Array<[name: string, size: { width: number; height: number }, isStill: boolean]> = [
    ['original', { width, height }, false],
    ['original_still', { width, height }, true],
    ['fixed_width', scaleTo(200), false],
    ['fixed_width_still', scaleTo(200), true],
    ['fixed_width_small', scaleTo(100), false],
    ['fixed_height', scaleTo(undefined, 200), false],
    ['fixed_height_still', scaleTo(undefined, 200), true],
    ['downsized', { width, height }, false],
    ['preview_gif', scaleTo(100), false],
  ];
  return sizes.flatMap(([name, size, isStill]) => {
    const formats =
      isStill || name === 'downsized'
        ? (['gif'] as const)
        : hasMp4
          ? (['gif', 'webp', 'mp4'] as const)
          : (['gif', 'webp'] as const);
    return formats.map((format) => ({
      itemId,
      name,
      format,
      width: size.width,
      height: size.height,
      frames: isStill ? 1 : frames,
      bytes: size.width * size.height * (format === 'gif' ? 2 : 1),
      path: `${itemId.slice(0, 2)}/${itemId}/${name}.${format}`,
    }));
  });
}

export async function insertCreator(
  database: DatabaseHandle,
  creator: {
    username: string;
    displayName?: string;
    avatarUrl?: string;
    description?: string;
    profileUrl?: string;
    websiteUrl?: string;
    isVerified?: boolean;
  },
): Promise<number> {
  const [row] = await database.db
    .insert(creators)
    .values({ displayName: creator.username, ...creator })
    .onConflictDoUpdate({ target: creators.username, set: { username: creator.username } })
    .returning({ id: creators.id });
  return row!.id;
}

/** Inserts items with their renditions; returns their ids in the order given. */
export async function insertCatalogItems(
  database: DatabaseHandle,
  fixtures: readonly FixtureItem[],
): Promise<string[]> {
  const creatorIds = new Map<string, number>();
  for (const username of new Set(fixtures.flatMap((item) => item.creator ?? []))) {
    creatorIds.set(username, await insertCreator(database, { username }));
  }
  const ids: string[] = [];
  const batchSize = 500;
  for (let start = 0; start < fixtures.length; start += batchSize) {
    const batch = fixtures.slice(start, start + batchSize).map((fixture) => {
      const id = fixture.id ?? createFixtureId();
      const width = fixture.width ?? 480;
      const height = fixture.height ?? 360;
      const frames = fixture.frames ?? 12;
      const rating = fixture.rating ?? 'g';
      ids.push(id);
      return {
        row: {
          id,
          type: fixture.type ?? 'gif',
          slug: slugFor(fixture.title, id),
          title: fixture.title,
          tags: [...(fixture.tags ?? [])],
          altText: fixture.altText ?? '',
          rating,
          ratingRank: ratingOrder.indexOf(rating),
          sourceUrl: fixture.sourceUrl ?? '',
          creatorId: fixture.creator ? creatorIds.get(fixture.creator) : undefined,
          width,
          height,
          frames,
          durationMs: frames * 100,
          bytes: width * height * 2,
          sha256: randomBytes(32).toString('hex'),
          originalFormat: 'gif' as const,
          isDynamic: fixture.isDynamic ?? false,
          isIndexable: fixture.isIndexable ?? true,
          trendScore: fixture.trendScore ?? 0,
          trendingAt: fixture.trendingAt ?? null,
          ...(fixture.createdAt
            ? { createdAt: fixture.createdAt, updatedAt: fixture.createdAt }
            : {}),
        },
        renditions:
          fixture.renditions === 'none'
            ? []
            : standardRenditions(id, width, height, frames, fixture.hasMp4),
      };
    });
    await database.db.insert(items).values(batch.map((entry) => entry.row));
    const renditionRows = batch.flatMap((entry) => entry.renditions);
    for (let offset = 0; offset < renditionRows.length; offset += 2000) {
      await database.db.insert(renditions).values(renditionRows.slice(offset, offset + 2000));
    }
  }
  return ids;
}

/** A category (top-level, or under `parentId`) with the items filed under it. */
export async function insertCategory(
  database: DatabaseHandle,
  category: {
    name: string;
    parentId?: number;
    featuredItemId?: string;
    position?: number;
    itemIds?: readonly string[];
  },
): Promise<{ id: number; nameEncoded: string }> {
  const nameEncoded = encodeCategoryName(category.name);
  const [row] = await database.db
    .insert(categories)
    .values({
      name: category.name,
      nameEncoded,
      parentId: category.parentId ?? null,
      featuredItemId: category.featuredItemId ?? null,
      position: category.position ?? 0,
    })
    .returning({ id: categories.id });
  const id = row!.id;
  if (category.itemIds && category.itemIds.length > 0) {
    await database.db
      .insert(itemCategories)
      .values(category.itemIds.map((itemId) => ({ itemId, categoryId: id })));
  }
  return { id, nameEncoded };
}
