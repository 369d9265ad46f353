import type { GiphyItem, GiphyUser, Images, Rendition } from '@sticky/contracts';
import { neverDateTime } from '@sticky/contracts';
import { inArray } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.ts';
import { creators, renditions } from '../../db/schema.ts';
import { loadItemsByIds } from './items.ts';
import type { CatalogDeps, CatalogItemRow } from './items.ts';
import type { QueryDeps, SerializedItems } from './query-caches.ts';

export type { SerializedItems } from './query-caches.ts';

type RenditionRow = typeof renditions.$inferSelect;
type CreatorRow = typeof creators.$inferSelect;

/** GIPHY's date-time format, in UTC: `2016-07-14 13:16:13`. */
export function formatGiphyDateTime(date: Date | null | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return neverDateTime;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function mediaUrl(config: AppConfig, filePath: string): string {
  const encoded = filePath
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${config.publicUrl}/media/${encoded}`;
}

/** The page on our site for an item: `/:type/:slug` (docs/web.md, "Screens and routes"). */
export function itemPageUrl(config: AppConfig, item: Pick<CatalogItemRow, 'type' | 'slug'>) {
  return `${config.publicUrl}/${item.type}/${encodeURIComponent(item.slug)}`;
}

function sourceHost(source: string): string {
  try {
    return source ? new URL(source).hostname : '';
  } catch {
    return '';
  }
}

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** The still formats a `url` may point at, best first; webp only when nothing else exists. */
const urlFormats = ['gif', 'png', 'jpeg', 'webp'] as const;

/**
 * One GIPHY rendition object from the rows of one rendition name (one row per format): `url`
 * is the GIF (or the still image), `webp` and `mp4` sit beside it, every number a string.
 */
function toRendition(
  config: AppConfig,
  byFormat: Map<string, RenditionRow>,
  extras: Partial<Rendition> = {},
): Rendition | undefined {
  const main = urlFormats.map((format) => byFormat.get(format)).find(Boolean);
  const webp = byFormat.get('webp');
  const mp4 = byFormat.get('mp4');
  const base = main ?? mp4;
  if (!base) return undefined;
  const rendition: Rendition = { width: String(base.width), height: String(base.height) };
  if (main) {
    rendition.url = mediaUrl(config, main.path);
    rendition.size = String(main.bytes);
  }
  Object.assign(rendition, extras);
  if (mp4) {
    rendition.mp4 = mediaUrl(config, mp4.path);
    rendition.mp4_size = String(mp4.bytes);
  }
  if (webp && webp !== main) {
    rendition.webp = mediaUrl(config, webp.path);
    rendition.webp_size = String(webp.bytes);
  }
  return rendition;
}

function toImages(
  config: AppConfig,
  item: CatalogItemRow,
  rows: readonly RenditionRow[],
): Images | undefined {
  const byName = new Map<string, Map<string, RenditionRow>>();
  for (const row of rows) {
    const formats = byName.get(row.name) ?? new Map<string, RenditionRow>();
    formats.set(row.format, row);
    byName.set(row.name, formats);
  }
  const images: Record<string, Rendition> = {};
  for (const [name, byFormat] of byName) {
    const extras: Partial<Rendition> =
      name === 'original'
        ? { frames: String(byFormat.get('gif')?.frames ?? item.frames), hash: item.sha256 }
        : {};
    const rendition = toRendition(config, byFormat, extras);
    if (rendition) images[name] = rendition;
  }
  // GIPHY's companion names, derived from files that exist: no rendition points nowhere.
  const originalMp4 = byName.get('original')?.get('mp4');
  if (originalMp4 && !images.original_mp4) {
    images.original_mp4 = {
      width: String(originalMp4.width),
      height: String(originalMp4.height),
      mp4: mediaUrl(config, originalMp4.path),
      mp4_size: String(originalMp4.bytes),
    };
  }
  const previewWebp = byName.get('preview_gif')?.get('webp');
  if (previewWebp && !images.preview_webp) {
    images.preview_webp = {
      url: mediaUrl(config, previewWebp.path),
      width: String(previewWebp.width),
      height: String(previewWebp.height),
      size: String(previewWebp.bytes),
    };
  }
  // The SDK sizes grid cells from fixed_width; an item too small to have one uses its original.
  if (!images.fixed_width && images.original) images.fixed_width = { ...images.original };
  if (!images.original || !images.fixed_width) return undefined;
  return images as Images;
}

function toUser(creator: CreatorRow): GiphyUser {
  return {
    avatar_url: creator.avatarUrl,
    banner_image: '',
    banner_url: '',
    profile_url: creator.profileUrl,
    username: creator.username,
    display_name: creator.displayName,
    description: creator.description,
    instagram_url: '',
    website_url: creator.websiteUrl,
    is_verified: creator.isVerified,
  };
}

/** One item without a database round trip, given its renditions and creator. */
export function serializeItem(
  config: AppConfig,
  item: CatalogItemRow,
  itemRenditions: readonly RenditionRow[],
  creator: CreatorRow | undefined,
): GiphyItem | undefined {
  const images = toImages(config, item, itemRenditions);
  if (!images) return undefined;
  const url = itemPageUrl(config, item);
  const serialized: GiphyItem = {
    type: item.type,
    id: item.id,
    url,
    slug: item.slug,
    // No link shortener and no embed page: the item page is the short link.
    bitly_gif_url: url,
    bitly_url: url,
    embed_url: '',
    username: creator?.username ?? '',
    source: item.sourceUrl,
    title: item.title,
    rating: item.rating,
    content_url: '',
    tags: item.tags,
    source_tld: sourceHost(item.sourceUrl),
    source_post_url: item.sourceUrl,
    alt_text: item.altText,
    // Animated text is a transparent overlay, shown on a checkerboard like a sticker.
    is_sticker: flag(item.type !== 'gif'),
    is_indexable: flag(item.isIndexable),
    is_dynamic: flag(item.isDynamic),
    is_hidden: 0,
    is_removed: 0,
    is_community: 0,
    is_anonymous: 0,
    is_featured: 0,
    is_realtime: 0,
    is_nsfw: 0,
    import_datetime: formatGiphyDateTime(item.createdAt),
    trending_datetime: formatGiphyDateTime(item.trendingAt),
    create_datetime: formatGiphyDateTime(item.createdAt),
    update_datetime: formatGiphyDateTime(item.updatedAt),
    images,
  };
  if (creator) serialized.user = toUser(creator);
  return serialized;
}

/**
 * Items in GIPHY's wire shape, in the order given, with one batched query for all their
 * renditions and one for their creators. An item without its `original` rendition (an import
 * in progress, a broken row) is left out rather than sent half-formed.
 */
export async function serializeItems(
  deps: CatalogDeps,
  rows: readonly CatalogItemRow[],
): Promise<GiphyItem[]> {
  if (rows.length === 0) return [];
  const { db } = deps.database;
  const ids = rows.map((row) => row.id);
  const creatorIds = [...new Set(rows.flatMap((row) => (row.creatorId ? [row.creatorId] : [])))];
  const [renditionRows, creatorRows] = await Promise.all([
    db.select().from(renditions).where(inArray(renditions.itemId, ids)),
    creatorIds.length > 0
      ? db.select().from(creators).where(inArray(creators.id, creatorIds))
      : Promise.resolve([] as CreatorRow[]),
  ]);
  const renditionsByItem = new Map<string, RenditionRow[]>();
  for (const row of renditionRows) {
    const list = renditionsByItem.get(row.itemId) ?? [];
    list.push(row);
    renditionsByItem.set(row.itemId, list);
  }
  const creatorsById = new Map(creatorRows.map((creator) => [creator.id, creator]));
  return rows.flatMap((row) => {
    const creator = row.creatorId ? creatorsById.get(row.creatorId) : undefined;
    const item = serializeItem(deps.config, row, renditionsByItem.get(row.id) ?? [], creator);
    return item ? [item] : [];
  });
}

/**
 * `data` for these ids, serialized, in the order given (unknown ids left out): each item's
 * JSON is kept (per app, services.itemJson) while the catalog version has not moved, so a
 * page of items everyone sees (a popular search, a favorite list, an item's related row)
 * costs neither the rendition query nor serializing 17 renditions per item again. Counting
 * views and favorites does not empty it (docs/catalog.md, "Caches and versions").
 */
export async function serializeItemsJson(
  deps: QueryDeps,
  ids: readonly string[],
): Promise<SerializedItems> {
  if (ids.length === 0) return { json: '[]', count: 0 };
  const cache = deps.services.itemJson;
  const versions = await deps.services.versions.read();
  const jsonById = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const json = cache.get(id, versions);
    if (json === undefined) missing.push(id);
    else jsonById.set(id, json);
  }
  if (missing.length > 0) {
    for (const item of await serializeItems(deps, await loadItemsByIds(deps, missing))) {
      const json = JSON.stringify(item);
      jsonById.set(item.id, json);
      cache.set(item.id, versions, json);
    }
  }
  const parts = ids.flatMap((id) => jsonById.get(id) ?? []);
  return { json: `[${parts.join(',')}]`, count: parts.length };
}
