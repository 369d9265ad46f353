import type { GiphyItem, GiphyUser, Images, Rendition, RenditionName } from '@sticky/contracts';
import { neverDateTime, renditionFallbacks, renditionNames } from '@sticky/contracts';
import { sql } from 'drizzle-orm';
import type { AppConfig } from '../../config/env.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { creators, renditions } from '../../db/schema.ts';
import type { CatalogDeps, CatalogItemRow } from './items.ts';
import { buildDefaultAltText } from '../alt-text.ts';

export type RenditionRow = typeof renditions.$inferSelect;
export type CreatorRow = Omit<typeof creators.$inferSelect, 'documentVersion'>;

/**
 * The item columns an item's JSON shows. Its dates are Dates, or text already in GIPHY's
 * format when a raw read formatted them in SQL (readItemsWithCreators).
 */
export type SerializableItemRow = Omit<
  ItemColumnsShown,
  'createdAt' | 'updatedAt' | 'trendingAt'
> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  trendingAt: Date | string | null;
};

type ItemColumnsShown = Pick<
  CatalogItemRow,
  | 'id'
  | 'type'
  | 'slug'
  | 'title'
  | 'tags'
  | 'altText'
  | 'caption'
  | 'rating'
  | 'sourceUrl'
  | 'creatorId'
  | 'frames'
  | 'sha256'
  | 'isIndexable'
  | 'isDynamic'
  | 'createdAt'
  | 'updatedAt'
  | 'trendingAt'
>;

/** GIPHY's date-time format, in UTC: `2016-07-14 13:16:13`. */
export function formatGiphyDateTime(date: Date | null | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return neverDateTime;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function giphyDateTimeOf(value: Date | string | null): string {
  return typeof value === 'string' ? value : formatGiphyDateTime(value);
}

/** A path that encodeURIComponent leaves as it is, segment by segment (every stored one). */
const plainPath = /^[\w.~-]+(?:\/[\w.~-]+)*$/;

/** Where a media file is fetched: MEDIA_PUBLIC_URL (a CDN, a public bucket) or our /media. */
export function mediaUrl(config: AppConfig, filePath: string): string {
  const encoded = plainPath.test(filePath)
    ? filePath
    : filePath
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

/** What each slot looks for, worked out once rather than per item and slot. */
const slotPlans = renditionNames.map((slot) => ({
  slot,
  /** The stored names it may show, nearest first. */
  names: [slot, ...renditionFallbacks[slot]].map(storedNameOf),
  fields: slotFields[slot],
  imageFormats: slot === 'preview_webp' ? (['webp', ...urlFormats] as const) : urlFormats,
  isStill: slot.endsWith('_still'),
}));
type SlotPlan = (typeof slotPlans)[number];

const mp4Formats = ['mp4'] as const;
const webmFormats = ['webm'] as const;
const webpFormats = ['webp'] as const;
const shownFallbackNames = ['fixed_width', 'original'] as const;

type RowsByName = Map<string, Map<string, RenditionRow>>;

/** One item's renditions by name and format, and each one's URL made once. */
interface ItemRenditions {
  byName: RowsByName;
  urlOf: (row: RenditionRow) => string;
}

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
  { byName, urlOf }: ItemRenditions,
  plan: SlotPlan,
  item: SerializableItemRow,
): Rendition | undefined {
  const { slot, names, fields } = plan;
  const mp4 = pick(byName, names, mp4Formats);
  const webm = pick(byName, names, webmFormats);
  const addVideo = (rendition: Rendition) => {
    if (mp4) {
      rendition.mp4 = urlOf(mp4);
      rendition.mp4_size = String(mp4.bytes);
    }
    if (webm) {
      rendition.webm = urlOf(webm);
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
  const shown =
    pick(byName, names, plan.imageFormats) ?? pick(byName, shownFallbackNames, urlFormats);
  if (!shown) return undefined;
  const rendition: Rendition = {
    url: urlOf(shown),
    width: String(shown.width),
    height: String(shown.height),
    size: String(shown.bytes),
  };
  if (slot === 'original') {
    rendition.frames = String(byName.get('original')?.get('gif')?.frames ?? item.frames);
    rendition.hash = item.sha256;
  }
  if (fields === 'image' && plan.isStill) {
    // Ours beside GIPHY's fields: the still as WebP, when one was made (a poster a tenth the
    // bytes of the GIF; docs/api.md, "Renditions").
    const webp = byName.get(names[0]!)?.get('webp');
    if (webp) {
      rendition.webp = urlOf(webp);
      rendition.webp_size = String(webp.bytes);
    }
  }
  if (fields === 'all' || fields === 'image+webp') {
    // A WebP of the same size when there is one yet, else the image itself (browsers read it).
    const webp = pick(byName, [names[0]!], webpFormats) ?? shown;
    rendition.webp = urlOf(webp);
    rendition.webp_size = String(webp.bytes);
  }
  if (fields === 'all') addVideo(rendition);
  return rendition;
}

function toImages(
  config: AppConfig,
  item: SerializableItemRow,
  rows: readonly RenditionRow[],
): Images | undefined {
  const byName: RowsByName = new Map();
  for (const row of rows) {
    let formats = byName.get(row.name);
    if (!formats) {
      formats = new Map<string, RenditionRow>();
      byName.set(row.name, formats);
    }
    formats.set(row.format, row);
  }
  // Items imported before `preview_webp` had its own name kept it as preview_gif's WebP.
  const legacyPreviewWebp = byName.get('preview_gif')?.get('webp');
  if (legacyPreviewWebp && !byName.has('preview_webp')) {
    byName.set('preview_webp', new Map([['webp', legacyPreviewWebp]]));
  }
  // A file serves several slots (fallbacks, the WebP of a still): its URL is made once.
  const urls = new Map<RenditionRow, string>();
  const urlOf = (row: RenditionRow) => {
    let url = urls.get(row);
    if (url === undefined) {
      url = mediaUrl(config, row.path);
      urls.set(row, url);
    }
    return url;
  };
  const images: Record<string, Rendition> = {};
  for (const plan of slotPlans) {
    const rendition = toSlot({ byName, urlOf }, plan, item);
    if (rendition) images[plan.slot] = rendition;
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

/**
 * The alt text people hear: the item's own, or, when it has none of its own (empty, or the one
 * Sticky wrote from its title), the title's and then the words written in it, as GIPHY answers
 * `alt_text` (docs/catalog.md, "Captions").
 */
export function describeItem(
  item: Pick<SerializableItemRow, 'altText' | 'caption' | 'title' | 'type' | 'frames'>,
): string {
  const caption = item.caption.trim();
  const base = buildDefaultAltText(item.title, item.type, item.frames > 1);
  const isOwn = item.altText.trim() !== '' && item.altText !== base;
  if (isOwn || !caption) return item.altText || base;
  return `${base} “${caption}”`;
}

/** One item without a database round trip, given its renditions and creator. */
export function serializeItem(
  config: AppConfig,
  item: SerializableItemRow,
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
    alt_text: describeItem(item),
    caption: item.caption,
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
    import_datetime: giphyDateTimeOf(item.createdAt),
    trending_datetime: giphyDateTimeOf(item.trendingAt),
    create_datetime: giphyDateTimeOf(item.createdAt),
    update_datetime: giphyDateTimeOf(item.updatedAt),
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

const creatorColumns = sql.raw(`c.id AS "creatorId", c.username AS "creatorUsername",
  c.display_name AS "creatorDisplayName", c.avatar_url AS "creatorAvatarUrl",
  c.description AS "creatorDescription", c.profile_url AS "creatorProfileUrl",
  c.website_url AS "creatorWebsiteUrl", c.is_verified AS "creatorIsVerified"`);

type CreatorColumns = {
  creatorId: number | null;
  creatorUsername: string | null;
  creatorDisplayName: string;
  creatorAvatarUrl: string;
  creatorDescription: string;
  creatorProfileUrl: string;
  creatorWebsiteUrl: string;
  creatorIsVerified: boolean;
};

function creatorOf(row: CreatorColumns): CreatorRow | undefined {
  if (row.creatorId === null || row.creatorUsername === null) return undefined;
  return {
    id: row.creatorId,
    username: row.creatorUsername,
    displayName: row.creatorDisplayName,
    avatarUrl: row.creatorAvatarUrl,
    description: row.creatorDescription,
    profileUrl: row.creatorProfileUrl,
    websiteUrl: row.creatorWebsiteUrl,
    isVerified: row.creatorIsVerified,
  };
}

/** Creators by id. */
async function readCreators(
  deps: CatalogDeps,
  creatorIds: readonly number[],
): Promise<Map<number, CreatorRow>> {
  if (creatorIds.length === 0) return new Map();
  const result = await executePrepared<CreatorColumns>(
    deps.database.db,
    sql`
    SELECT ${creatorColumns} FROM creators c WHERE c.id = ANY(${sql.param(creatorIds)}::int[])`,
  );
  const byId = new Map<number, CreatorRow>();
  for (const row of result.rows) {
    const creator = creatorOf(row);
    if (creator) byId.set(creator.id, creator);
  }
  return byId;
}

/** A timestamp column as GIPHY's date-time text, as formatGiphyDateTime makes it (null stays). */
const giphyDateTimeSql = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`);

/** An item read for its JSON, with the document versions of the snapshot it was read in. */
export interface ItemWithCreator {
  item: SerializableItemRow;
  creator: CreatorRow | undefined;
  itemVersion: number;
  creatorVersion: number;
}

/** A signed-in person asking for an item by id (docs/uploads.md, "Visibility"). */
export interface ItemViewer {
  userId: string;
  isAdmin: boolean;
}

/**
 * Which items a by-id read answers: without a viewer, those anyone may open (hidden and private
 * left out, as loadItemsByIds does); with one, also those withheld from everyone else that the
 * viewer owns, or any for an admin (docs/uploads.md, "Visibility").
 */
function byIdVisibilitySql(viewer: ItemViewer | undefined) {
  const isOpen = sql`i.hidden_at IS NULL AND i.visibility <> 'private'`;
  if (!viewer) return isOpen;
  if (viewer.isAdmin) return sql`TRUE`;
  return sql`(${isOpen} OR i.owner_id = ${viewer.userId})`;
}

/** These items (unknown ids left out, and those `viewer` may not open) with their creators. */
export async function readItemsWithCreators(
  deps: CatalogDeps,
  ids: readonly string[],
  viewer?: ItemViewer,
): Promise<ItemWithCreator[]> {
  const result = await executePrepared<
    SerializableItemRow & CreatorColumns & { itemVersion: number; creatorVersion: number }
  >(
    deps.database.db,
    sql`
    SELECT i.id, i.type, i.slug, i.title, i.tags, i.alt_text AS "altText", i.caption, i.rating,
      i.document_version AS "itemVersion",
      coalesce(c.document_version, 0) AS "creatorVersion",
      i.source_url AS "sourceUrl", i.frames, i.sha256, i.is_indexable AS "isIndexable",
      i.is_dynamic AS "isDynamic", ${giphyDateTimeSql('i.created_at')} AS "createdAt",
      ${giphyDateTimeSql('i.updated_at')} AS "updatedAt",
      ${giphyDateTimeSql('i.trending_at')} AS "trendingAt", ${creatorColumns}
    FROM items i LEFT JOIN creators c ON c.id = i.creator_id
    WHERE i.id = ANY(${sql.param(ids)}::text[]) AND ${byIdVisibilitySql(viewer)}`,
  );
  return result.rows.map((row) => ({
    item: row,
    creator: creatorOf(row),
    itemVersion: row.itemVersion,
    creatorVersion: row.creatorVersion,
  }));
}

/**
 * The renditions of these items, each row with its item's document version in this
 * statement's snapshot: a document is kept only when its renditions and its item were read
 * at the same version (item-documents.ts). The reads of a cold page (this one and its items)
 * are raw rows, aliased to the schema's field names: pg's rows need no second mapping per
 * column.
 */
export async function readRenditions(
  deps: CatalogDeps,
  itemIds: readonly string[],
): Promise<Array<RenditionRow & { itemVersion: number }>> {
  const result = await executePrepared<RenditionRow & { itemVersion: number }>(
    deps.database.db,
    sql`
    SELECT r.item_id AS "itemId", r.name, r.format, r.width, r.height, r.frames,
      r.bytes::float8 AS bytes, r.path, i.document_version AS "itemVersion"
    FROM renditions r JOIN items i ON i.id = r.item_id
    WHERE r.item_id = ANY(${sql.param(itemIds)}::text[])`,
  );
  return result.rows;
}

export function groupByItem<Row extends RenditionRow>(rows: readonly Row[]): Map<string, Row[]> {
  const byItem = new Map<string, Row[]>();
  for (const row of rows) {
    const list = byItem.get(row.itemId);
    if (list) list.push(row);
    else byItem.set(row.itemId, [row]);
  }
  return byItem;
}

/**
 * Items in GIPHY's wire shape, in the order given, with one batched query for all their
 * renditions and one for their creators. An item without its `original` rendition (an import
 * in progress, a broken row) is left out rather than sent half-formed.
 */
export async function serializeItems(
  deps: CatalogDeps,
  rows: readonly SerializableItemRow[],
): Promise<GiphyItem[]> {
  if (rows.length === 0) return [];
  const creatorIds = [...new Set(rows.flatMap((row) => (row.creatorId ? [row.creatorId] : [])))];
  const [renditionRows, creatorsById] = await Promise.all([
    readRenditions(
      deps,
      rows.map((row) => row.id),
    ),
    readCreators(deps, creatorIds),
  ]);
  const renditionsByItem = groupByItem(renditionRows);
  return rows.flatMap((row) => {
    const creator = row.creatorId ? creatorsById.get(row.creatorId) : undefined;
    const item = serializeItem(deps.config, row, renditionsByItem.get(row.id) ?? [], creator);
    return item ? [item] : [];
  });
}
