import type { ItemType } from '@sticky/contracts';
import { pickRendition, pickVideoSource, tileRenditions } from '@sticky/contracts/first-screen';
import { getTileAspectRatio } from '@sticky/contracts/tile-layout';
import type { RenditionMedia } from '@sticky/contracts/first-screen';
import type { MediaSupport } from '@/lib/media-support.ts';
import type { ContentItem, ContentRendition, ContentUser } from './content-types.ts';
import { itemTypes } from './content-types.ts';

export function isItemType(value: string | undefined): value is ItemType {
  return (itemTypes as readonly string[]).includes(value ?? '');
}

/**
 * The route segment for an item: GIPHY marks stickers by `type` or by `is_sticker`; animated
 * text is transparent too (`is_sticker` set) but its `type` says text.
 */
export function getItemType(item: ContentItem): ItemType {
  const type = item.type as string;
  if (type === 'text') return 'text';
  if (type === 'sticker' || item.is_sticker) return 'sticker';
  return 'gif';
}

/** `/:type/:slug`; the slug always ends with the id, which the item page reads back. */
export function getItemPath(item: ContentItem): string {
  const id = String(item.id);
  const slug = item.slug && item.slug.endsWith(id) ? item.slug : id;
  return `/${getItemType(item)}/${encodeURIComponent(slug)}`;
}

/**
 * The item id is the last dash-separated segment of the slug (docs/web.md, "The spec's rules the
 * web keeps").
 */
export function getIdFromSlug(slug: string): string {
  return slug.split('-').pop() ?? slug;
}

/**
 * The words written inside the image ('' for none): Sticky's own field, not in the SDK's type
 * (docs/catalog.md, "Captions").
 */
export function getCaption(item: ContentItem): string {
  const caption = (item as { caption?: unknown }).caption;
  return typeof caption === 'string' ? caption.trim() : '';
}

/** What a screen reader says: the alt text (else the title), then the caption unless it has it. */
export function getAltText(item: ContentItem): string {
  const alt =
    item.alt_text?.trim() ||
    item.title?.trim() ||
    (getItemType(item) === 'sticker' ? 'Sticker' : 'GIF');
  const caption = getCaption(item);
  if (!caption || alt.toLowerCase().includes(caption.toLowerCase())) return alt;
  return `${alt} “${caption}”`;
}

export function getItemUser(item: ContentItem): ContentUser | undefined {
  const user = item.user as ContentUser | undefined;
  if (!user || (!user.username && !user.display_name)) return undefined;
  return user;
}

/**
 * An item's renditions by name. The SDK's type lists GIPHY's names one by one; tiles and the
 * item page choose among them by name (contracts' `tileRenditions`, `detailCandidates` here).
 */
function renditionsOf(item: ContentItem): Record<string, ContentRendition | undefined> {
  return item.images as unknown as Record<string, ContentRendition | undefined>;
}

/** Width over height of the grid rendition, so the tile's box is right before it loads. */
export function getAspectRatio(item: ContentItem): number {
  return getTileAspectRatio(renditionsOf(item));
}

/** GIPHY's `webp`, which the SDK's type of every rendition lacks. */
type RenditionWithWebp = ContentRendition & { webp?: string };

export interface ImageSources {
  /** Animated WebP, when the rendition has one. */
  webp: string | undefined;
  /** GIF (or whatever the rendition's `url` is), the fallback every browser shows. */
  url: string | undefined;
  width: number;
  height: number;
}

export function getRenditionSources(rendition: ContentRendition | undefined): ImageSources | null {
  if (!rendition || (!rendition.url && !(rendition as RenditionWithWebp).webp)) return null;
  const webp = (rendition as RenditionWithWebp).webp || undefined;
  return {
    webp,
    url: rendition.url || webp,
    width: Number(rendition.width) || 0,
    height: Number(rendition.height) || 0,
  };
}

const detailCandidates = [
  'original',
  'downsized_large',
  'downsized_medium',
  'downsized',
  'fixed_width',
  'fixed_height',
  'fixed_width_small',
  'fixed_height_small',
] as const;

/**
 * The rendition the item page draws at `maxWidth` (CSS pixels times the device ratio): the
 * smallest at least that wide, so the page never scales a rendition up; when the space is wider
 * than every rendition, the largest (the original, the item's own size). docs/web.md, "Media".
 */
export function pickDetailRendition(
  item: ContentItem,
  maxWidth: number,
): { name: string; rendition: ContentRendition } | null {
  const images = renditionsOf(item);
  const available = detailCandidates
    .map((name) => ({ name, rendition: images?.[name] }))
    .filter(
      (entry): entry is { name: (typeof detailCandidates)[number]; rendition: ContentRendition } =>
        Boolean(entry.rendition?.url) && Number(entry.rendition?.width) > 0,
    )
    // Widest first; among equal widths the earlier candidate (the original before its copies).
    .sort((a, b) => Number(b.rendition.width) - Number(a.rendition.width));
  if (available.length === 0) return null;
  const sharp = available.filter((entry) => Number(entry.rendition.width) >= maxWidth);
  const width = Number((sharp.at(-1) ?? available[0]!).rendition.width);
  return available.find((entry) => Number(entry.rendition.width) === width)!;
}

/** The still frame that matches a rendition, for paused and reduced-motion views. */
export function getStillFor(item: ContentItem, name: string): ContentRendition | undefined {
  const images = renditionsOf(item);
  const base = name === 'downsized_large' || name === 'downsized_medium' ? 'downsized' : name;
  return images?.[`${base}_still`] ?? images?.original_still;
}

/**
 * Stickers and animated text are drawn over the page: their media must keep its transparency,
 * so they never play an MP4 (H.264 has no alpha; GIPHY's sticker MP4s sit on a flat colour).
 */
export function isTransparentItem(item: ContentItem): boolean {
  return getItemType(item) !== 'gif';
}

export type ItemMediaSource =
  | {
      kind: 'video';
      src: string;
      type: 'video/mp4' | 'video/webm';
      /** The rendition's still, shown until the first frame and while paused. */
      poster: string | undefined;
      /** The image to show instead if the video cannot play. */
      fallback: ImageSources | null;
      width: number;
      height: number;
    }
  | ({ kind: 'image' } & ImageSources);

/**
 * A rendition as the browser shows it best (docs/web.md, "Media"): its video when
 * `pickVideoSource` says so (the lighter of video and WebP that keeps transparency; contracts'
 * first-screen.ts, shared with the server's preloads), else its animated WebP with the GIF as
 * fallback, as GIPHY serves them.
 */
export function pickAnimatedSource(
  item: ContentItem,
  rendition: ContentRendition | undefined,
  still: ContentRendition | undefined,
  support: MediaSupport,
  videoFallbacks: ReadonlyArray<RenditionMedia | undefined> = [],
): ItemMediaSource | null {
  const image = getRenditionSources(rendition);
  const video = pickVideoSource(
    rendition as RenditionMedia | undefined,
    still as RenditionMedia | undefined,
    { ...support, isTransparent: isTransparentItem(item) },
    videoFallbacks,
  );
  if (!video) return image ? { kind: 'image', ...image } : null;
  return {
    kind: 'video',
    ...video,
    fallback: image,
    width: Number(rendition?.width) || 0,
    height: Number(rendition?.height) || 0,
  };
}

/** The grid's 200 px wide rendition (the masonry's columns have a fixed width) and its still. */
export function pickTileSources(
  item: ContentItem,
  support: MediaSupport,
): { animated: ItemMediaSource | null; still: ImageSources | null } {
  const images = renditionsOf(item);
  const rendition = pickRendition(images, tileRenditions.animated);
  const stillRendition = pickRendition(images, tileRenditions.still);
  return {
    animated: pickAnimatedSource(item, rendition, stillRendition, support),
    still: getRenditionSources(stillRendition),
  };
}
