import type { StoredRenditionName } from '@sticky/contracts';
import type { MediaFormat } from '../../storage/media-paths.ts';
import { playedDelayMs } from './encode-video.ts';
import type { MediaInfo } from './inspect-media.ts';
import { spanFrames } from './raw-frames.ts';
import type { Span } from './raw-frames.ts';
import { fitHeight, fitLongestSide, fitWidth } from './rendition-sizes.ts';
import type { Size } from './rendition-sizes.ts';
import type { RenderedFile } from './stage-renditions.ts';

const DOWNSIZED_MAX_BYTES = 2 * 1024 * 1024;
const DOWNSIZED_MEDIUM_MAX_BYTES = 5 * 1024 * 1024;
const DOWNSIZED_LARGE_MAX_BYTES = 8 * 1024 * 1024;
const DOWNSIZED_SMALL_MAX_BYTES = 200 * 1024;
const PREVIEW_TARGET_BYTES = 50 * 1024;
/** GIPHY's `looping` plays the animation over and over for about 15 s. */
const LOOPING_MS = 15_000;
/** GIPHY's downsampled tiles: a handful of frames spread over the loop, for fast scrolling. */
const DOWNSAMPLED_FRAMES = 6;

/** The sizes GIPHY (and Tenor, for `tiny` and `nano`) gives each name. */
export const namedSizes = {
  fixed_width: (info: Size) => fitWidth(info, 200),
  fixed_height: (info: Size) => fitHeight(info, 200),
  fixed_width_small: (info: Size) => fitWidth(info, 100),
  fixed_height_small: (info: Size) => fitHeight(info, 100),
  fixed_width_downsampled: (info: Size) => fitWidth(info, 200),
  fixed_height_downsampled: (info: Size) => fitHeight(info, 200),
  tiny: (info: Size) => fitWidth(info, 220),
  nano: (info: Size) => fitHeight(info, 90),
} as const;

export type SizedName = keyof typeof namedSizes;

export function isSizedName(name: string): name is SizedName {
  return name in namedSizes;
}

export interface VideoPlan {
  size: Size;
  span: Span;
  repeat?: number;
  crf?: number;
}

/** How far a preview plays and its longer side. */
export interface PreviewPlan {
  span: Span;
  side: number;
}

/**
 * What a recipe asks of the renderer (render-renditions.ts): renditions by name, made once
 * and shared, and the encoders, which reuse a file of the same content.
 */
export interface RenditionMaker {
  readonly info: MediaInfo;
  readonly fullSize: Size;
  readonly isAnimated: boolean;
  /** The source's own timeline: a delay for every frame. */
  readonly sourceDelays: number[];
  /** The decoded frames' timeline (repeats merged) once decoded, else the source's. */
  readonly timeline: number[];
  /** Kept by the preview recipes for the render (planPreview). */
  previewPlan: PreviewPlan | undefined;
  get(name: StoredRenditionName, format: MediaFormat): Promise<RenderedFile | undefined>;
  /** The source file itself, as `original` in its own format. */
  stageOriginal(): Promise<RenderedFile>;
  renderImage(
    name: StoredRenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span?: Span,
  ): Promise<RenderedFile>;
  renderVideo(
    name: StoredRenditionName,
    format: 'mp4' | 'webm',
    plan: VideoPlan,
  ): Promise<RenderedFile | undefined>;
  /** A GIF's first frame as it is in the file; undefined when the file does not allow it. */
  copyFirstGifFrame(): Promise<RenderedFile> | undefined;
  copy(file: RenderedFile, name: StoredRenditionName): Promise<RenderedFile>;
  discard(file: RenderedFile): Promise<void>;
  /** The largest video size the memory budget allows. */
  videoSize(): Size;
}

/** How one rendition is made in a format; undefined when it has none in that format. */
export type Recipe = (
  maker: RenditionMaker,
  name: StoredRenditionName,
  format: MediaFormat,
) => Promise<RenderedFile | undefined>;

function isImageFormat(format: MediaFormat): format is 'gif' | 'webp' {
  return format === 'gif' || format === 'webp';
}

function isVideoFormat(format: MediaFormat): format is 'mp4' | 'webm' {
  return format === 'mp4' || format === 'webm';
}

/** The file as imported, or the whole animation at full size in another format. */
const makeOriginal: Recipe = async (maker, name, format) => {
  if (format === maker.info.format) return maker.stageOriginal();
  if (isImageFormat(format)) return maker.renderImage(name, format, maker.fullSize);
  if (isVideoFormat(format)) {
    return maker.renderVideo(name, format, { size: maker.videoSize(), span: 'all' });
  }
  return undefined;
};

/** One of GIPHY's named sizes (namedSizes), the whole animation or `span` of it. */
function makeSized(span: Span = 'all'): Recipe {
  return async (maker, name, format) => {
    const size = namedSizes[name as SizedName](maker.fullSize);
    if (isImageFormat(format)) return maker.renderImage(name, format, size, span);
    if (isVideoFormat(format)) return maker.renderVideo(name, format, { size, span });
    return undefined;
  };
}

/** GIPHY's `_s.gif`: the first frame of its rendition, at that rendition's size. */
function makeStill(source: StoredRenditionName): Recipe {
  return async (maker, name, format) => {
    if (!isImageFormat(format)) return undefined;
    if (name === 'original_still' && format === 'gif') {
      const copied = await maker.copyFirstGifFrame();
      if (copied) return copied;
    }
    let size = maker.fullSize;
    if (isSizedName(source)) size = namedSizes[source](maker.fullSize);
    if (source === 'downsized') {
      const downsized = await maker.get('downsized', 'gif');
      if (downsized) size = { width: downsized.width, height: downsized.height };
    }
    return maker.renderImage(name, format, size, 'first');
  };
}

/** GIPHY's `downsized`: the largest GIF under 2 MB, the original itself when it qualifies. */
const makeDownsized: Recipe = async (maker, name, format) => {
  if (format !== 'gif') return undefined;
  const originalGif = await maker.get('original', 'gif');
  if (!originalGif) return undefined;
  if (originalGif.bytes <= DOWNSIZED_MAX_BYTES) return maker.copy(originalGif, name);
  let side = Math.min(480, Math.max(maker.info.width, maker.info.height));
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const rendered = await maker.renderImage(name, 'gif', fitLongestSide(maker.fullSize, side));
    if (rendered.bytes <= DOWNSIZED_MAX_BYTES) return rendered;
    await maker.discard(rendered);
    side = Math.floor(side * 0.7);
  }
  // Still too big: the 100 px wide GIF, the smallest full-length one we make.
  return maker.renderImage(name, 'gif', fitWidth(maker.fullSize, 100));
};

/** GIPHY's `downsized_medium` and `downsized_large`: the original GIF under a limit, else `downsized`. */
function makeDownsizedUnder(limit: number): Recipe {
  return async (maker, name, format) => {
    if (format !== 'gif') return undefined;
    const original = await maker.get('original', 'gif');
    const pick =
      original && original.bytes <= limit ? original : await maker.get('downsized', 'gif');
    return pick && maker.copy(pick, name);
  };
}

/**
 * GIPHY's `downsized_small`: the largest video under 200 KB, 480 px at most. The first size
 * tried is estimated from the original video's bytes per pixel, so one encode usually does.
 */
const makeSmallVideo: Recipe = async (maker, name, format) => {
  if (!isVideoFormat(format)) return undefined;
  const longest = Math.max(maker.info.width, maker.info.height);
  const original = await maker.get('original', format);
  if (original && original.bytes < DOWNSIZED_SMALL_MAX_BYTES && longest <= 480) {
    return maker.copy(original, name);
  }
  let side = Math.min(480, longest);
  if (original) {
    const scale = Math.sqrt((DOWNSIZED_SMALL_MAX_BYTES * 0.8) / original.bytes);
    side = Math.max(
      48,
      Math.min(side, Math.floor(Math.max(original.width, original.height) * scale)),
    );
  }
  let crf: number | undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const rendered = await maker.renderVideo(name, format, {
      size: fitLongestSide(maker.fullSize, side),
      span: 'all',
      crf,
    });
    if (!rendered || rendered.bytes < DOWNSIZED_SMALL_MAX_BYTES) return rendered;
    await maker.discard(rendered);
    side = Math.max(48, Math.floor(side * 0.7));
    crf = (crf ?? (format === 'mp4' ? 25 : 32)) + 4;
  }
  return maker.renderVideo(name, format, {
    size: fitLongestSide(maker.fullSize, 100),
    span: 'all',
    crf: format === 'mp4' ? 35 : 44,
  });
};

/** Preview spans: about two seconds, the first frame of a still. */
function readPreviewSpan(maker: RenditionMaker): Span {
  return maker.isAnimated ? (maker.previewPlan ?? { span: { ms: 2000 }, side: 150 }).span : 'first';
}

/**
 * GIPHY's previews are small and short, about 50 KB. Their size is estimated from the bytes
 * per pixel and frame of the 100 px GIF, so one encode usually lands near the target.
 */
async function planPreview(maker: RenditionMaker): Promise<PreviewPlan> {
  if (maker.previewPlan) return maker.previewPlan;
  const reference = await maker.get('fixed_width_small', 'gif');
  const timeline = maker.timeline;
  const bytesPerPixelFrame = reference
    ? reference.bytes / (reference.width * reference.height * reference.frames)
    : 0.5;
  const { info } = maker;
  const area = info.width * info.height;
  const plan = (span: Span) => {
    const frames = spanFrames(timeline, timeline.length, span);
    const pixels = PREVIEW_TARGET_BYTES / (bytesPerPixelFrame * frames);
    const longest = Math.max(info.width, info.height);
    const side = Math.round(longest * Math.sqrt(pixels / area));
    return { span, side: Math.min(150, side) };
  };
  let attempt = plan(maker.isAnimated ? { ms: 2000 } : 'first');
  if (attempt.side < 64 && maker.isAnimated) attempt = plan({ ms: 1000 });
  attempt.side = Math.max(48, attempt.side);
  maker.previewPlan = attempt;
  return attempt;
}

const makePreviewGif: Recipe = async (maker, name, format) => {
  if (format !== 'gif') return undefined;
  const attempt = await planPreview(maker);
  let gif = await maker.renderImage(
    name,
    'gif',
    fitLongestSide(maker.fullSize, attempt.side),
    attempt.span,
  );
  if (gif.bytes > PREVIEW_TARGET_BYTES * 1.5 && attempt.side > 48) {
    await maker.discard(gif);
    attempt.side = Math.max(48, Math.round(attempt.side * 0.7));
    gif = await maker.renderImage(
      name,
      'gif',
      fitLongestSide(maker.fullSize, attempt.side),
      attempt.span,
    );
  }
  return gif;
};

/** The preview GIF's frames and size in WebP. */
const makePreviewWebp: Recipe = async (maker, name, format) => {
  const gif = await maker.get('preview_gif', 'gif');
  if (!gif || format !== 'webp') return undefined;
  const size = { width: gif.width, height: gif.height };
  return maker.renderImage(name, 'webp', size, readPreviewSpan(maker));
};

/** GIPHY's `preview`: a video of the first two seconds or so, about 50 KB. */
const makePreviewVideo: Recipe = async (maker, name, format) => {
  if (!isVideoFormat(format)) return undefined;
  let side = Math.min(200, Math.max(maker.info.width, maker.info.height));
  let span: Span = { ms: 2000 };
  let crf: number | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const rendered = await maker.renderVideo(name, format, {
      size: fitLongestSide(maker.fullSize, side),
      span,
      crf,
    });
    if (!rendered || rendered.bytes <= PREVIEW_TARGET_BYTES * 1.5 || attempt === 2) {
      return rendered;
    }
    await maker.discard(rendered);
    side = Math.max(48, Math.floor(side * 0.75));
    span = { ms: 1000 };
    crf = (crf ?? (format === 'mp4' ? 25 : 32)) + 4;
  }
  return undefined;
};

/** GIPHY's `looping`: the animation repeated for about 15 s, 480 px at most. */
const makeLooping: Recipe = async (maker, name, format) => {
  if (!isVideoFormat(format)) return undefined;
  const played = maker.sourceDelays.reduce((sum, delay) => sum + playedDelayMs(delay), 0);
  const repeat = Math.max(1, Math.ceil(LOOPING_MS / Math.max(1, played)));
  const size = fitLongestSide(maker.videoSize(), 480);
  return maker.renderVideo(name, format, { size, span: 'all', repeat });
};

/** A name stored under another: `original_mp4` is `original`'s MP4. */
const makeNone: Recipe = async () => undefined;

/**
 * How each rendition is made (docs/catalog.md, "Renditions"); which ones an item gets, and
 * when, is rendition-plan.ts.
 */
export const renditionRecipes: Record<StoredRenditionName, Recipe> = {
  original: makeOriginal,
  original_still: makeStill('original'),
  original_mp4: makeNone,
  fixed_width: makeSized(),
  fixed_width_still: makeStill('fixed_width'),
  fixed_width_downsampled: makeSized({ sample: DOWNSAMPLED_FRAMES }),
  fixed_width_small: makeSized(),
  fixed_width_small_still: makeStill('fixed_width_small'),
  fixed_height: makeSized(),
  fixed_height_still: makeStill('fixed_height'),
  fixed_height_downsampled: makeSized({ sample: DOWNSAMPLED_FRAMES }),
  fixed_height_small: makeSized(),
  fixed_height_small_still: makeStill('fixed_height_small'),
  downsized: makeDownsized,
  downsized_still: makeStill('downsized'),
  downsized_medium: makeDownsizedUnder(DOWNSIZED_MEDIUM_MAX_BYTES),
  downsized_large: makeDownsizedUnder(DOWNSIZED_LARGE_MAX_BYTES),
  downsized_small: makeSmallVideo,
  preview: makePreviewVideo,
  preview_gif: makePreviewGif,
  preview_webp: makePreviewWebp,
  looping: makeLooping,
  tiny: makeSized(),
  nano: makeSized(),
};
