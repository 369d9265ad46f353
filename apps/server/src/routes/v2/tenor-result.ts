import type {
  GiphyItem,
  Rendition,
  TenorFormatName,
  TenorMedia,
  TenorResult,
} from '@sticky/contracts';

type Field = 'url' | 'mp4' | 'webm' | 'webp';
type Source = readonly [slot: keyof GiphyItem['images'], field: Field, extension: string];

/**
 * Each Tenor format from the GIPHY rendition whose size is nearest Tenor's (docs/api.md,
 * "/v2 (Tenor)", "Formats"): a format is left out when that rendition has no file of the
 * format's type, never answered with another type's file.
 */
const formatSources: Record<TenorFormatName, Source> = {
  gif: ['original', 'url', '.gif'],
  mediumgif: ['downsized_medium', 'url', '.gif'],
  tinygif: ['fixed_width', 'url', '.gif'],
  nanogif: ['fixed_height_small', 'url', '.gif'],
  mp4: ['original_mp4', 'mp4', '.mp4'],
  tinymp4: ['fixed_width', 'mp4', '.mp4'],
  nanomp4: ['fixed_height_small', 'mp4', '.mp4'],
  webm: ['original', 'webm', '.webm'],
  gif_transparent: ['original', 'url', '.gif'],
  tinygif_transparent: ['fixed_width', 'url', '.gif'],
  nanogif_transparent: ['fixed_height_small', 'url', '.gif'],
  webp_transparent: ['original', 'webp', '.webp'],
  tinywebp_transparent: ['fixed_width', 'webp', '.webp'],
  preview: ['original_still', 'url', ''],
};

const transparentFormats = new Set<TenorFormatName>([
  'gif_transparent',
  'tinygif_transparent',
  'nanogif_transparent',
  'webp_transparent',
  'tinywebp_transparent',
]);

function sizeOf(rendition: Rendition, field: Field): number {
  const text = field === 'url' ? rendition.size : rendition[`${field}_size`];
  return Number(text ?? 0) || 0;
}

function toMedia(item: GiphyItem, [slot, field, extension]: Source): TenorMedia | undefined {
  const rendition = item.images[slot] as Rendition | undefined;
  const url = rendition?.[field];
  if (!rendition || !url) return undefined;
  if (extension && !new URL(url, 'http://x').pathname.endsWith(extension)) return undefined;
  const width = Number(rendition.width);
  const height = Number(rendition.height);
  // A slot answered with a bigger fallback (docs/api.md, "Renditions") is not Tenor's size.
  if (slot === 'fixed_height_small' && height > 120) return undefined;
  if (slot === 'fixed_width' && width > 260) return undefined;
  return {
    url,
    dims: [width, height],
    // GIPHY's renditions do not carry a duration; Tenor sends 0 for its GIFs too.
    duration: 0,
    size: sizeOf(rendition, field),
  };
}

function toEpochSeconds(giphyDateTime: string): number {
  const millis = Date.parse(`${giphyDateTime.replace(' ', 'T')}Z`);
  return Number.isNaN(millis) ? 0 : millis / 1000;
}

/** One item as Tenor v2's result object, its formats limited to `mediaFilter` when given. */
export function toTenorResult(item: GiphyItem, mediaFilter?: readonly string[]): TenorResult {
  const isSticker = item.type !== 'gif';
  const mediaFormats: TenorResult['media_formats'] = {};
  for (const [name, source] of Object.entries(formatSources) as Array<[TenorFormatName, Source]>) {
    if (mediaFilter && !mediaFilter.includes(name)) continue;
    if (transparentFormats.has(name) && !isSticker) continue;
    const media = toMedia(item, source);
    if (media) mediaFormats[name] = media;
  }
  return {
    id: item.id,
    title: item.title,
    content_description: item.alt_text || item.title,
    itemurl: item.url,
    url: item.url,
    tags: item.tags,
    created: toEpochSeconds(item.create_datetime),
    flags: isSticker ? ['sticker'] : [],
    hasaudio: false,
    bg_color: '',
    media_formats: mediaFormats,
  };
}
