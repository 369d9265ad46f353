import type { GiphyItem, Rendition } from '@sticky/contracts';
import type { AppConfig } from '../config/env.ts';
import { loadItemsByIds } from '../catalog/query/items.ts';
import type { CatalogDeps, ItemType } from '../catalog/query/items.ts';
import { serializeItems } from '../catalog/query/serialize.ts';

/** One picture or video of an item, as a link preview names it. */
export interface PreviewMedia {
  url: string;
  width: number;
  height: number;
  /** Bytes, when known. */
  size?: number;
  type: string;
}

/** What a chat app shows for a Sticky link (docs/api.md, "Link previews"). */
export interface ItemPreview {
  pageUrl: string;
  title: string;
  description: string;
  /** The animated GIF (or the image the item has): what every client can show. */
  image: PreviewMedia;
  /** The same loop as a video, for clients that play one (Discord, Slack). */
  video?: PreviewMedia;
  /** Every size the item has as a GIF, largest first: oEmbed picks one within maxwidth/maxheight. */
  sizes: PreviewMedia[];
  authorName?: string;
  authorUrl?: string;
}

const itemPathPattern = /^\/(gif|sticker|text)\/([^/?#]{1,300})$/;
const itemIdPattern = /^[A-Za-z0-9_]{1,64}$/;

/** An item page of ours, `/:type/:slug` (docs/web.md, "Screens and routes"), or null. */
export function parseItemPath(pathname: string): { type: ItemType; slug: string } | null {
  const match = itemPathPattern.exec(pathname);
  if (!match) return null;
  try {
    return { type: match[1] as ItemType, slug: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

/**
 * Whether people who are not signed in (crawlers of chat apps) get previews: PUBLIC_PREVIEWS,
 * which is off by default when an allow-list makes the instance private.
 */
export function arePreviewsPublic(config: AppConfig): boolean {
  return config.publicPreviews && !config.giphy;
}

function toMedia(rendition: Rendition | undefined, field: 'url' | 'mp4' | 'webm' = 'url') {
  if (!rendition) return undefined;
  const url = rendition[field];
  const width = Number(rendition.width);
  const height = Number(rendition.height);
  if (!url || !(width > 0) || !(height > 0)) return undefined;
  const sizeField = field === 'url' ? rendition.size : rendition[`${field}_size`];
  const size = sizeField ? Number(sizeField) : undefined;
  const extension = field === 'url' ? (/\.(\w+)(?:$|\?)/.exec(url)?.[1] ?? 'gif') : field;
  const type =
    field === 'url' ? `image/${extension === 'jpg' ? 'jpeg' : extension}` : `video/${field}`;
  return { url, width, height, type, ...(size ? { size } : {}) } satisfies PreviewMedia;
}

/** GIF sizes a preview may use, largest first. `downsized` is GIPHY's under-2 MB one. */
const gifSlots = [
  'original',
  'downsized_large',
  'downsized',
  'fixed_width',
  'fixed_height',
  'fixed_width_small',
  'fixed_height_small',
] as const;

function toPreview(item: GiphyItem): ItemPreview | null {
  const images = item.images;
  const sizes = new Map<string, PreviewMedia>();
  for (const slot of gifSlots) {
    const media = toMedia(images[slot]);
    if (media && !sizes.has(media.url)) sizes.set(media.url, media);
  }
  const listed = [...sizes.values()].sort((a, b) => b.width * b.height - a.width * a.height);
  // A chat app fetches the whole image: the largest under 2 MB that exists, as GIPHY does.
  const image = toMedia(images.downsized) ?? listed.find((media) => (media.size ?? 0) <= 2_000_000);
  if (!image) return null;
  const original = images.original;
  const video =
    toMedia(images.original_mp4, 'mp4') ?? toMedia(original, 'mp4') ?? toMedia(original, 'webm');
  const title = item.title.trim() || 'Untitled';
  return {
    pageUrl: item.url,
    title,
    description: item.alt_text?.trim() || title,
    image,
    ...(video ? { video } : {}),
    sizes: listed,
    ...(item.user ? { authorName: item.user.display_name || item.user.username } : {}),
    ...(item.user?.profile_url ? { authorUrl: item.user.profile_url } : {}),
  };
}

/**
 * The preview of an item page, or null when there is no such visible item. The id is the last
 * dash-separated part of the slug, as the web reads it; the type must match the item's.
 */
export async function loadItemPreview(
  deps: CatalogDeps,
  path: { type: ItemType; slug: string },
): Promise<ItemPreview | null> {
  const id = path.slug.split('-').pop() ?? '';
  if (!itemIdPattern.test(id)) return null;
  const [row] = await loadItemsByIds(deps, [id]);
  if (!row || row.type !== path.type || row.hiddenAt) return null;
  const [item] = await serializeItems(deps, [row]);
  return item ? toPreview(item) : null;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * OpenGraph and Twitter card tags and the oEmbed discovery link for the item page's HTML:
 * Slack, Discord, Mastodon, Matrix and iMessage read them without running the app.
 */
export function renderPreviewTags(preview: ItemPreview, config: AppConfig): string {
  const oembedUrl = `${config.publicUrl}/oembed?url=${encodeURIComponent(preview.pageUrl)}&format=json`;
  const meta: Array<[string, string, string | number | undefined]> = [
    ['property', 'og:site_name', 'Sticky'],
    ['property', 'og:type', preview.video ? 'video.other' : 'website'],
    ['property', 'og:url', preview.pageUrl],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ['property', 'og:image', preview.image.url],
    ['property', 'og:image:type', preview.image.type],
    ['property', 'og:image:width', preview.image.width],
    ['property', 'og:image:height', preview.image.height],
    ['property', 'og:image:alt', preview.description],
  ];
  if (preview.video) {
    meta.push(
      ['property', 'og:video', preview.video.url],
      ['property', 'og:video:secure_url', preview.video.url],
      ['property', 'og:video:type', preview.video.type],
      ['property', 'og:video:width', preview.video.width],
      ['property', 'og:video:height', preview.video.height],
    );
  }
  meta.push(
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ['name', 'twitter:image', preview.image.url],
    ['name', 'twitter:image:alt', preview.description],
  );
  const tags = meta.map(
    ([attribute, key, value]) =>
      `<meta ${attribute}="${key}" content="${escapeHtml(String(value ?? ''))}">`,
  );
  tags.push(
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembedUrl)}" title="${escapeHtml(preview.title)}">`,
  );
  return tags.join('');
}
