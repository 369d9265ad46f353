import type {
  GiphyItem,
  Rendition,
  TenorFormatName,
  TenorMedia,
  TenorResult,
} from '@sticky/contracts';
import type {
  StoredFile,
  TenorSizeFormat,
  TenorSizeName,
  TenorSizes,
} from '../../catalog/query/tenor-sizes.ts';

type Field = 'url' | 'mp4' | 'webm' | 'webp';
type Slot = keyof GiphyItem['images'];

/** Where a Tenor format is taken from: the first of these slots with a file that fits. */
interface Source {
  /** The file made for Tenor's own size, when there is one (catalog/query/tenor-sizes.ts). */
  stored?: readonly [TenorSizeName, TenorSizeFormat];
  slots: readonly Slot[];
  field: Field;
  extension: string;
  /** Tenor's tiny formats are about 220 px wide, its nano formats about 90 px high. */
  maxWidth?: number;
  maxHeight?: number;
}

const tiny = { maxWidth: 260 } as const;
const nano = { maxHeight: 120 } as const;
/** Slots near Tenor's tiny size, then smaller ones, then the item itself when it is small. */
const tinySlots: readonly Slot[] = [
  'fixed_width',
  'fixed_height',
  'downsized',
  'original',
  'fixed_width_small',
  'fixed_height_small',
];
const nanoSlots: readonly Slot[] = [
  'fixed_height_small',
  'fixed_width_small',
  'fixed_height',
  'fixed_width',
  'original',
];

/**
 * Each Tenor format from the GIPHY rendition nearest Tenor's size (docs/api.md, "/v2 (Tenor)",
 * "Formats"): a format is left out when no rendition has a file of the format's type within
 * its size, never answered with another type's file. Tenor's clients read `gif` and `tinygif`
 * of every result, so those fall back to the item's own file when it is small enough.
 */
const formatSources: Record<TenorFormatName, Source> = {
  gif: { slots: ['original'], field: 'url', extension: '.gif' },
  mediumgif: { slots: ['downsized_medium', 'original'], field: 'url', extension: '.gif' },
  tinygif: { stored: ['tiny', 'gif'], slots: tinySlots, field: 'url', extension: '.gif', ...tiny },
  nanogif: { stored: ['nano', 'gif'], slots: nanoSlots, field: 'url', extension: '.gif', ...nano },
  mp4: { slots: ['original_mp4'], field: 'mp4', extension: '.mp4' },
  tinymp4: { stored: ['tiny', 'mp4'], slots: tinySlots, field: 'mp4', extension: '.mp4', ...tiny },
  nanomp4: { stored: ['nano', 'mp4'], slots: nanoSlots, field: 'mp4', extension: '.mp4', ...nano },
  webm: { slots: ['original'], field: 'webm', extension: '.webm' },
  tinywebm: {
    stored: ['tiny', 'webm'],
    slots: tinySlots,
    field: 'webm',
    extension: '.webm',
    ...tiny,
  },
  nanowebm: {
    stored: ['nano', 'webm'],
    slots: nanoSlots,
    field: 'webm',
    extension: '.webm',
    ...nano,
  },
  gif_transparent: { slots: ['original'], field: 'url', extension: '.gif' },
  tinygif_transparent: {
    stored: ['tiny', 'gif'],
    slots: tinySlots,
    field: 'url',
    extension: '.gif',
    ...tiny,
  },
  nanogif_transparent: {
    stored: ['nano', 'gif'],
    slots: nanoSlots,
    field: 'url',
    extension: '.gif',
    ...nano,
  },
  webp_transparent: { slots: ['original'], field: 'webp', extension: '.webp' },
  tinywebp_transparent: {
    stored: ['tiny', 'webp'],
    slots: tinySlots,
    field: 'webp',
    extension: '.webp',
    ...tiny,
  },
  nanowebp_transparent: {
    stored: ['nano', 'webp'],
    slots: nanoSlots,
    field: 'webp',
    extension: '.webp',
    ...nano,
  },
  preview: { slots: ['original_still'], field: 'url', extension: '' },
};

const transparentFormats = new Set<TenorFormatName>([
  'gif_transparent',
  'tinygif_transparent',
  'nanogif_transparent',
  'webp_transparent',
  'tinywebp_transparent',
  'nanowebp_transparent',
]);

function sizeOf(rendition: Rendition, field: Field): number {
  const text = field === 'url' ? rendition.size : rendition[`${field}_size`];
  return Number(text ?? 0) || 0;
}

type ItemSizes = NonNullable<ReturnType<TenorSizes['get']>>;

function fromStored(file: StoredFile): TenorMedia {
  return { url: file.url, dims: [file.width, file.height], duration: 0, size: file.bytes };
}

function toMedia(
  item: GiphyItem,
  source: Source,
  stored: ItemSizes | undefined,
): TenorMedia | undefined {
  if (source.stored) {
    const [name, format] = source.stored;
    const file = stored?.[name]?.[format];
    if (file) return fromStored(file);
  }
  for (const slot of source.slots) {
    const rendition = item.images[slot] as Rendition | undefined;
    const url = rendition?.[source.field];
    if (!rendition || !url) continue;
    if (source.extension && !new URL(url, 'http://x').pathname.endsWith(source.extension)) continue;
    const width = Number(rendition.width);
    const height = Number(rendition.height);
    // A slot answered with a bigger fallback (docs/api.md, "Renditions") is not Tenor's size.
    if (source.maxWidth && width > source.maxWidth) continue;
    if (source.maxHeight && height > source.maxHeight) continue;
    return {
      url,
      dims: [width, height],
      // GIPHY's renditions do not carry a duration; Tenor sends 0 for its GIFs too.
      duration: 0,
      size: sizeOf(rendition, source.field),
    };
  }
  return undefined;
}

function toEpochSeconds(giphyDateTime: string): number {
  const millis = Date.parse(`${giphyDateTime.replace(' ', 'T')}Z`);
  return Number.isNaN(millis) ? 0 : millis / 1000;
}

/** The description, then the caption in quotes unless the description has its words. */
function describeWithCaption(description: string, caption: string): string {
  const words = caption.trim();
  if (!words || description.toLowerCase().includes(words.toLowerCase())) return description;
  return `${description} “${words}”`;
}

/** One item as Tenor v2's result object, its formats limited to `mediaFilter` when given. */
export function toTenorResult(
  item: GiphyItem,
  mediaFilter?: readonly string[],
  tenorSizes?: TenorSizes,
): TenorResult {
  const stored = tenorSizes?.get(item.id);
  const isSticker = item.type !== 'gif';
  const mediaFormats: TenorResult['media_formats'] = {};
  for (const [name, source] of Object.entries(formatSources) as Array<[TenorFormatName, Source]>) {
    if (mediaFilter && !mediaFilter.includes(name)) continue;
    if (transparentFormats.has(name) && !isSticker) continue;
    const media = toMedia(item, source, stored);
    if (media) mediaFormats[name] = media;
  }
  return {
    id: item.id,
    title: item.title,
    // The alt text, with the words written in the image when it does not say them already
    // (docs/catalog.md, "Captions").
    content_description: describeWithCaption(item.alt_text || item.title, item.caption),
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
