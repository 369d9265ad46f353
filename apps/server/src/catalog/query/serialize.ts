import type { GiphyItem, GiphyUser, Images, Rendition, RenditionName } from '@sticky/contracts';
import { neverDateTime, renditionFallbacks, renditionNames } from '@sticky/contracts';
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

/** Where a media file is fetched: MEDIA_PUBLIC_URL (a CDN, a public bucket) or our /media. */
export function mediaUrl(config: AppConfig, filePath: string): string {
  const encoded = filePath
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return config.mediaPublicUrl
    ? `${config.mediaPublicUrl}/${encoded}`
    : `${config.publicUrl}/media/${encoded}`;
}

/** The page on our site for an item: `/:type/:slug` (docs/web.md, "Screens and routes"). */
export function itemPageUrl(config: AppConfig, item: Pick<CatalogItemRow, 'type' | 'slug'>) {
  return `${config.publicUrl}/${item.type}/${encodeURIComponent(item.slug)}`;
}

/** Where a client reports that an item was seen, clicked or sent (docs/api.md, "Pingbacks"). */
function pingbackUrl(config: AppConfig, itemId: string, action: 'SEEN' | 'CLICK' | 'SENT') {
  return `${config.publicUrl}/v1/pingback_simple?gif_id=${encodeURIComponent(itemId)}&action_type=${action}`;
}

function sourceHost(source: string): string {
  try {
    return source ? new URL(source).hostname : '';
  } catch {
    return '';
  }
}

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** The image formats a `url` may point at, best first; webp only when nothing else exists. */
const urlFormats = ['gif', 'png', 'jpeg', 'webp'] as const;

/**
 * The fields GIPHY gives each slot (docs/api.md, "Renditions"): `all` is url + webp + video,
 * `image` a url alone, `image+webp` a url and a webp, `video` the video alone. A transparent
 * item's video is a WebM (`webm` beside, never instead of, GIPHY's fields).
 */
const slotFields: Record<RenditionName, 'all' | 'image' | 'image+webp' | 'video'> = {
  original: 'all',
  original_still: 'image',
  original_mp4: 'video',
  fixed_width: 'all',
  fixed_width_still: 'image',
  fixed_width_downsampled: 'image+webp',
  fixed_width_small: 'all',
  fixed_width_small_still: 'image',
  fixed_height: 'all',
  fixed_height_still: 'image',
  fixed_height_downsampled: 'image+webp',
  fixed_height_small: 'all',
  fixed_height_small_still: 'image',
  downsized: 'image',
  downsized_still: 'image',
  downsized_medium: 'image',
  downsized_large: 'image',
  downsized_small: 'video',
  preview: 'video',
  preview_gif: 'image',
  preview_webp: 'image',
  looping: 'video',
};

/** GIPHY's `original_mp4` is the MP4 of `original`: stored under that name. */
function storedNameOf(slot: RenditionName): string {
  return slot === 'original_mp4' ? 'original' : slot;
}

type RowsByName = Map<string, Map<string, RenditionRow>>;

/** The first row of these formats under these names, names first (nearest first). */
function pick(
  byName: RowsByName,
  names: readonly string[],
  formats: readonly string[],
): RenditionRow | undefined {
  for (const name of names) {
    const byFormat = byName.get(name);
    if (!byFormat) continue;
    for (const format of formats) {
      const row = byFormat.get(format);
      if (row) return row;
    }
  }
  return undefined;
}

/**
 * One GIPHY slot, every number a string. A rendition not made yet (a job makes it after the
 * item appears) is answered with the nearest that is: the same name in another format, then
 * the names of `renditionFallbacks`; width and height always describe the file the URL names.
 */
function toSlot(
  config: AppConfig,
  byName: RowsByName,
  slot: RenditionName,
  item: CatalogItemRow,
): Rendition | undefined {
  const names = [slot, ...renditionFallbacks[slot]].map(storedNameOf);
  const fields = slotFields[slot];
  const imageFormats = slot === 'preview_webp' ? ['webp', ...urlFormats] : urlFormats;
  const image = pick(byName, names, imageFormats);
  const mp4 = pick(byName, names, ['mp4']);
  const webm = pick(byName, names, ['webm']);
  const addVideo = (rendition: Rendition) => {
    if (mp4) {
      rendition.mp4 = mediaUrl(config, mp4.path);
      rendition.mp4_size = String(mp4.bytes);
    }
    if (webm) {
      rendition.webm = mediaUrl(config, webm.path);
      rendition.webm_size = String(webm.bytes);
    }
  };
  const video = mp4 ?? webm;
  if (fields === 'video' && video) {
    const rendition: Rendition = { width: String(video.width), height: String(video.height) };
    addVideo(rendition);
    return rendition;
  }
  // A video slot with no video yet (or a still, which never has one) shows the nearest image.
  const shown = image ?? pick(byName, ['fixed_width', 'original'], urlFormats);
  if (!shown) return undefined;
  const rendition: Rendition = {
    url: mediaUrl(config, shown.path),
    width: String(shown.width),
    height: String(shown.height),
    size: String(shown.bytes),
  };
  if (slot === 'original') {
    rendition.frames = String(byName.get('original')?.get('gif')?.frames ?? item.frames);
    rendition.hash = item.sha256;
  }
  if (fields === 'image' && slot.endsWith('_still')) {
    // Ours beside GIPHY's fields: the still as WebP, when one was made (a poster a tenth the
    // bytes of the GIF; docs/api.md, "Renditions").
    const webp = pick(byName, [names[0]!], ['webp']);
    if (webp) {
      rendition.webp = mediaUrl(config, webp.path);
      rendition.webp_size = String(webp.bytes);
    }
  }
  if (fields === 'all' || fields === 'image+webp') {
    // A WebP of the same size when there is one yet, else the image itself (browsers read it).
    const webp = pick(byName, [names[0]!], ['webp']) ?? shown;
    rendition.webp = mediaUrl(config, webp.path);
    rendition.webp_size = String(webp.bytes);
  }
  if (fields === 'all') addVideo(rendition);
  return rendition;
}

function toImages(
  config: AppConfig,
  item: CatalogItemRow,
  rows: readonly RenditionRow[],
): Images | undefined {
  const byName: RowsByName = new Map();
  for (const row of rows) {
    const formats = byName.get(row.name) ?? new Map<string, RenditionRow>();
    formats.set(row.format, row);
    byName.set(row.name, formats);
  }
  // Items imported before `preview_webp` had its own name kept it as preview_gif's WebP.
  const legacyPreviewWebp = byName.get('preview_gif')?.get('webp');
  if (legacyPreviewWebp && !byName.has('preview_webp')) {
    byName.set('preview_webp', new Map([['webp', legacyPreviewWebp]]));
  }
  const images: Record<string, Rendition> = {};
  for (const slot of renditionNames) {
    const rendition = toSlot(config, byName, slot, item);
    if (rendition) images[slot] = rendition;
  }
  if (!images.original || !images.fixed_width) return undefined;
  return images as Images;
}

export function toUser(creator: CreatorRow): GiphyUser {
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
    analytics: {
      onload: { url: pingbackUrl(config, item.id, 'SEEN') },
      onclick: { url: pingbackUrl(config, item.id, 'CLICK') },
      onsent: { url: pingbackUrl(config, item.id, 'SENT') },
    },
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
