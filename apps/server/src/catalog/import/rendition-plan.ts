import type { StoredRenditionName } from '@sticky/contracts';
import type { MediaFormat } from '../../storage/media-paths.ts';
import type { SourceFormat } from './inspect-media.ts';

/**
 * When a rendition is made (docs/catalog.md, "Renditions"): `ready` ones before the item is
 * visible (what the grid and the item page show), `later` ones by the job queue afterwards.
 */
export type RenditionTier = 'ready' | 'later';

/** Which tiers an import or a job makes; `all` is every rendition up front (the old path). */
export type RenderPhase = RenditionTier | 'all';

export interface PlannedRendition {
  name: StoredRenditionName;
  format: MediaFormat;
  tier: RenditionTier;
}

/** Stickers and animated text are shown over the page, so never flattened onto a colour. */
export function isTransparentType(type: string): boolean {
  return type !== 'gif';
}

export interface ItemKind {
  sourceFormat: SourceFormat;
  isAnimated: boolean;
  /** `isTransparentType` of the item's type. */
  isTransparent: boolean;
}

/**
 * The video format of an item's renditions: H.264 has no alpha, so transparent items get WebM
 * (VP9 with alpha). A GIF's grid tile has a VP9 WebM beside its MP4 (planRenditions).
 */
export function videoFormatOf(kind: ItemKind): 'mp4' | 'webm' {
  return kind.isTransparent ? 'webm' : 'mp4';
}

/**
 * Every rendition an item gets, GIPHY's names first (docs/api.md, "Renditions"), then Tenor's
 * `tiny` and `nano`. The grid shows `fixed_width` (WebP, or MP4) over its still, the item page
 * `original` over its still: those are `ready`; the rest is made later, by a job.
 */
export function planRenditions(kind: ItemKind): PlannedRendition[] {
  const plan: PlannedRendition[] = [];
  const add = (tier: RenditionTier, name: StoredRenditionName, ...formats: MediaFormat[]) => {
    for (const format of formats) {
      if (!plan.some((entry) => entry.name === name && entry.format === format)) {
        plan.push({ name, format, tier });
      }
    }
  };
  const video = kind.isAnimated ? [videoFormatOf(kind)] : [];
  const { sourceFormat } = kind;

  // The tiles' video is up front for GIFs (H.264 costs little); a transparent item's tile is
  // its WebP, its WebM (several times dearer) comes later.
  const readyVideo = kind.isTransparent ? [] : video;
  add('ready', 'original', sourceFormat);
  add('ready', 'original_still', 'gif', 'webp');
  add('ready', 'fixed_width', 'webp', ...readyVideo);
  add('ready', 'fixed_width_still', 'gif', 'webp');

  // Until made, `original`'s GIF is answered with the original file itself (serialize.ts).
  add('later', 'original', 'gif', 'webp', ...video);
  add('later', 'fixed_width', 'gif', ...video);
  // A GIF's grid tile also as VP9, which browsers that play it are shown instead of the MP4
  // (contracts' pickVideoSource): about half the H.264 tile's bytes at the same SSIM, for five
  // times the encoding (docs/catalog.md, "Renditions"), so only the tile, and later.
  if (kind.isAnimated && !kind.isTransparent) add('later', 'fixed_width', 'webm');
  // `fixed_height` is for rows of equal height, which neither our grid nor the item page
  // shows: until made, it is answered with `fixed_width` (serialize.ts). Decoding only to the
  // tile the grid shows makes the ready tier of a wide item a quarter of the pixels.
  add('later', 'fixed_height', 'webp', 'gif', ...video);
  add('later', 'fixed_height_still', 'gif', 'webp');
  add('later', 'fixed_width_small', 'gif', 'webp', ...video);
  add('later', 'fixed_width_small_still', 'gif');
  add('later', 'fixed_height_small', 'gif', 'webp', ...video);
  add('later', 'fixed_height_small_still', 'gif');
  add('later', 'fixed_width_downsampled', 'gif', 'webp');
  add('later', 'fixed_height_downsampled', 'gif', 'webp');
  add('later', 'downsized', 'gif');
  add('later', 'downsized_still', 'gif');
  add('later', 'downsized_medium', 'gif');
  add('later', 'downsized_large', 'gif');
  add('later', 'preview_gif', 'gif');
  add('later', 'preview_webp', 'webp');
  if (kind.isAnimated) {
    add('later', 'downsized_small', ...video);
    add('later', 'preview', ...video);
    // GIPHY's 15-second loop is for players that cannot loop an MP4 themselves; a transparent
    // item's WebM plays where `loop` works, and 15 s of it cost seconds of VP9 for megabytes.
    if (!kind.isTransparent) add('later', 'looping', ...video);
  }
  add('later', 'tiny', 'gif', 'webp', ...video);
  add('later', 'nano', 'gif', 'webp', ...video);
  return plan;
}

/** The renditions a phase makes. */
export function renditionsFor(kind: ItemKind, phase: RenderPhase): PlannedRendition[] {
  const plan = planRenditions(kind);
  return phase === 'all' ? plan : plan.filter((entry) => entry.tier === phase);
}
