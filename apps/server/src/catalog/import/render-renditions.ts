import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StoredRenditionName } from '@sticky/contracts';
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { Sharp, WebpOptions } from 'sharp';
import { hashContent } from '../../storage/media-paths.ts';
import type { MediaFormat } from '../../storage/media-paths.ts';
import { encodeVideo, playedDelayMs } from './encode-video.ts';
import { extractFirstGifFrame, isGifNeverCleared } from './gif-blocks.ts';
import type { VideoCodec } from './encode-video.ts';
import type { MediaInfo } from './inspect-media.ts';
import { renditionsFor } from './rendition-plan.ts';
import type { ItemKind, RenderPhase } from './rendition-plan.ts';

export interface RenderedFile {
  name: StoredRenditionName;
  format: MediaFormat;
  width: number;
  height: number;
  /** Frames in the file (a video's frames at its constant rate). */
  frames: number;
  bytes: number;
  sha256: string;
  /** Absolute path of the staged file (inside the import's temporary folder). */
  file: string;
}

export interface RenderOptions {
  info: MediaInfo;
  /** Staging folder for this import; every file is written and fsynced there. */
  outputDir: string;
  /** ffmpeg (from @ffmpeg-installer/ffmpeg): video renditions are made only when it is there. */
  ffmpegPath?: string | undefined;
  /** Stickers and animated text: transparency kept everywhere, so WebM rather than MP4. */
  isTransparent: boolean;
  /** Which renditions to make (rendition-plan.ts); default every one. */
  phase?: RenderPhase;
  /**
   * Renditions the item has already (`name.format`), left out of the phase: a job run again,
   * or renditions a newer plan added, make only what is missing.
   */
  existing?: readonly string[];
  /** Encoder threads (the share of the cores this worker has). */
  threads?: number;
  /** Hard memory ceiling of each ffmpeg process. */
  videoMemoryBytes?: number;
  /** Holds the pids of running encoders, so the worker can stop them with itself. */
  encoderPids?: Set<number>;
  /** Told how long each rendition took (the bench's breakdown). */
  onRendition?: (file: RenderedFile, ms: number) => void;
  /**
   * Renditions made at once (default 1): 2 lets one file use a second core while another
   * worker has nothing to do (the last file of an import), and overlaps flushing files to disk
   * and ffmpeg's encoding with the next rendition.
   */
  parallelism?: number;
}

const DOWNSIZED_MAX_BYTES = 2 * 1024 * 1024;
const DOWNSIZED_MEDIUM_MAX_BYTES = 5 * 1024 * 1024;
const DOWNSIZED_LARGE_MAX_BYTES = 8 * 1024 * 1024;
const DOWNSIZED_SMALL_MAX_BYTES = 200 * 1024;
const PREVIEW_TARGET_BYTES = 50 * 1024;
/** GIPHY's `looping` plays the animation over and over for about 15 s. */
const LOOPING_MS = 15_000;
/** GIPHY's downsampled tiles: a handful of frames spread over the loop, for fast scrolling. */
const DOWNSAMPLED_FRAMES = 6;
/** Video never goes larger than this on its longer side (GIPHY's `hd` stops at 1920 too). */
const MAX_VIDEO_SIDE = 1920;

/**
 * `original` in WebP (made from a GIF, PNG or JPEG) stays close to its source: full quality
 * alpha, quality 80. Effort 2 costs half of the default for files about 3 % larger.
 */
export const ORIGINAL_WEBP_OPTIONS = { quality: 80, alphaQuality: 100, effort: 2 } as const;

/**
 * Every other WebP rendition is what the grid and the pickers load, so it is sized for the
 * wire: about half the bytes of the original settings, no visible difference at 200 px (colour
 * PSNR about 1 dB lower). Alpha quality 70 is libwebp's 16 quantised alpha levels, where the
 * alpha plane stops costing a third of a sticker's file. Effort 2: over ../shared/data/gifs'
 * 200 px tiles, 28 % less CPU than effort 3 for 5 % more bytes (the grid's tile is made before
 * the item shows, so its time is the import's).
 */
export const SMALL_WEBP_OPTIONS = { quality: 60, alphaQuality: 70, effort: 2 } as const;

/** Lossless at effort 1: the same bytes as effort 3 on palette art, 2–8 times less CPU. */
const LOSSLESS_WEBP_OPTIONS = { lossless: true, effort: 1 } as const;

/**
 * When a WebP rendition outweighs the original file, more tries and the smallest is kept:
 * lower quality wins on a source that was lossy WebP already, lossless on flat palette art (a
 * 1-bit clock, a terminal recording) where lossy VP8 spends bytes on edges. `original` only
 * tries lossless, which loses nothing.
 */
export const RETRY_WEBP_OPTIONS: readonly WebpOptions[] = [
  { quality: 45, alphaQuality: 50, effort: 3 },
  LOSSLESS_WEBP_OPTIONS,
];

/**
 * GIF: effort 1 quantises several times faster than the default for nearly the same size.
 * Pixels that change by less than 8 between frames are left to the previous frame (transparent,
 * which LZW packs into little), and a frame reuses the previous palette when that costs less than
 * 12 in error: a terminal recording shrinks to a quarter, a 3D sticker by a tenth.
 */
export const GIF_OPTIONS = { effort: 1, interFrameMaxError: 8, interPaletteMaxError: 12 } as const;

interface Size {
  width: number;
  height: number;
}

/** Decoded frames, RGBA or RGB, stacked vertically (sharp's layout for animations). */
interface RawFrames {
  data: Buffer;
  width: number;
  pageHeight: number;
  frames: number;
  /** 4 (RGBA, the default), or 3 (RGB) when every frame is opaque. */
  channels?: 3 | 4;
  /** Per frame, in ms (after merging repeated frames). */
  delays: number[];
}

/**
 * Which part of the animation a rendition shows: all of it, its first frame, what plays within
 * some milliseconds, or a few frames sampled evenly over the loop.
 */
type Span = 'all' | 'first' | { ms: number } | { sample: number };

function spanKey(span: Span): string {
  if (typeof span === 'string') return span;
  return 'ms' in span ? `ms${span.ms}` : `sample${span.sample}`;
}

/** How many frames of a timeline play within `ms` (at least one). */
function framesWithin(delays: readonly number[], ms: number): number {
  let elapsed = 0;
  let frames = 0;
  for (const delay of delays) {
    frames += 1;
    elapsed += playedDelayMs(delay);
    if (elapsed >= ms) break;
  }
  return Math.max(1, frames);
}

function spanFrames(delays: readonly number[], total: number, span: Span): number {
  if (span === 'first') return 1;
  if (span === 'all' || 'sample' in span) return total;
  return Math.min(total, framesWithin(delays, span.ms));
}

/**
 * Consecutive identical frames (a terminal recording waiting for input, a pause) become one
 * frame showing for their summed delays: it plays the same, and the encoders, GIF's palette
 * quantiser above all, have far fewer frames to work through. Compacts in place.
 */
export function mergeRepeatedFrames(raw: RawFrames): RawFrames {
  const frameBytes = raw.width * raw.pageHeight * (raw.channels ?? 4);
  const kept: number[] = [];
  const delays: number[] = [];
  for (let index = 0; index < raw.frames; index += 1) {
    const delay = raw.delays[index] ?? 100;
    const previous = kept[kept.length - 1];
    const isRepeat =
      previous !== undefined &&
      raw.data.compare(
        raw.data,
        previous * frameBytes,
        (previous + 1) * frameBytes,
        index * frameBytes,
        (index + 1) * frameBytes,
      ) === 0;
    if (isRepeat) {
      delays[delays.length - 1]! += delay;
    } else {
      kept.push(index);
      delays.push(delay);
    }
  }
  if (kept.length === raw.frames) return raw;
  kept.forEach((from, to) => {
    if (from !== to)
      raw.data.copy(raw.data, to * frameBytes, from * frameBytes, (from + 1) * frameBytes);
  });
  return {
    ...raw,
    data: raw.data.subarray(0, kept.length * frameBytes),
    frames: kept.length,
    delays,
  };
}

/**
 * `count` frames spread evenly over the time the animation plays (GIPHY's `_downsampled`): the
 * frame showing at each k/count of the loop, each held for a count-th of it, so the tile keeps
 * the loop's length. An animation with no more frames than that is kept whole.
 */
export function sampleFrames(raw: RawFrames, count: number): RawFrames {
  if (raw.frames <= count) return raw;
  const played = raw.delays.map(playedDelayMs);
  const total = played.reduce((sum, delay) => sum + delay, 0);
  const picks: number[] = [];
  let frame = 0;
  let start = 0;
  for (let k = 0; k < count; k += 1) {
    const time = (k * total) / count;
    while (frame + 1 < raw.frames && start + played[frame]! <= time) {
      start += played[frame]!;
      frame += 1;
    }
    picks.push(frame);
  }
  // GIF counts in hundredths of a second: a whole number of them per frame.
  const delay = Math.max(20, Math.round(total / count / 10) * 10);
  const frameBytes = raw.width * raw.pageHeight * (raw.channels ?? 4);
  const data = Buffer.alloc(frameBytes * picks.length);
  picks.forEach((pick, index) =>
    raw.data.copy(data, index * frameBytes, pick * frameBytes, (pick + 1) * frameBytes),
  );
  return mergeRepeatedFrames({
    data,
    width: raw.width,
    pageHeight: raw.pageHeight,
    channels: raw.channels,
    frames: picks.length,
    delays: picks.map(() => delay),
  });
}

/**
 * Frames up to this size (a 720 × 480 tile) are checked for transparency when decoded: an
 * opaque animation's tiles are then made from RGB.
 */
const MAX_OPACITY_CHECK_PIXELS = 350_000;

/** Whether every pixel of RGBA frames is fully opaque. */
function isOpaqueRgba(frames: Buffer): boolean {
  // A word per pixel where the buffer allows it: about 2 ns a pixel.
  if (frames.byteOffset % 4 === 0 && os.endianness() === 'LE') {
    const pixels = new Uint32Array(frames.buffer, frames.byteOffset, frames.length >> 2);
    // Little-endian RGBA: alpha is the top byte.
    for (let index = 0; index < pixels.length; index += 1) {
      if (pixels[index]! < 0xff000000) return false;
    }
    return true;
  }
  for (let index = 3; index < frames.length; index += 4) if (frames[index] !== 255) return false;
  return true;
}

/**
 * Decoding is the expensive part, so each file is decoded once into memory (full size when it
 * fits this budget and a rendition needs it, else at the largest size the small renditions need)
 * and every rendition is made from that. Only what does not fit streams from the source.
 */
const RAW_BUDGET_BYTES = 768 * 1024 * 1024;

/**
 * Full-size frames decoded at once before the repeats among them are dropped and resized. An
 * animation whose frames all fit in DECODE_WHOLE_BYTES is decoded in one go (decodeWhole): each
 * slice reopens the file, and a GIF's decoder may have to decode every frame before the slice's
 * first again (five slices of a 512 px, 72-frame emoji cost twice its decoding). A longer one
 * goes in slices under glibc's largest mmap threshold (32 MB), each reusing the memory of the
 * one before instead of faulting in fresh pages: 64 MB slices spent a quarter of a screen
 * recording's decoding in the kernel; 16 MB ones cost 16 % less CPU over ../shared/data/gifs'
 * recordings.
 */
const DECODE_SLICE_BYTES = 16 * 1024 * 1024;
const DECODE_WHOLE_BYTES = 128 * 1024 * 1024;

/** Scale to a width (or height), never above the original, at least one pixel. */
function fitWidth(info: Size, width: number): Size {
  const target = Math.min(width, info.width);
  return { width: target, height: Math.max(1, Math.round((info.height * target) / info.width)) };
}

function fitHeight(info: Size, height: number): Size {
  const target = Math.min(height, info.height);
  return { width: Math.max(1, Math.round((info.width * target) / info.height)), height: target };
}

function fitLongestSide(info: Size, side: number): Size {
  return info.width >= info.height ? fitWidth(info, side) : fitHeight(info, side);
}

/** H.264 and VP9 in 4:2:0 need even dimensions: one pixel less (or two at least). */
function evenSize(size: Size): Size {
  const even = (value: number) => Math.max(2, value - (value % 2));
  return { width: even(size.width), height: even(size.height) };
}

/** The sizes GIPHY (and Tenor, for `tiny` and `nano`) gives each name. */
const namedSizes = {
  fixed_width: (info: Size) => fitWidth(info, 200),
  fixed_height: (info: Size) => fitHeight(info, 200),
  fixed_width_small: (info: Size) => fitWidth(info, 100),
  fixed_height_small: (info: Size) => fitHeight(info, 100),
  fixed_width_downsampled: (info: Size) => fitWidth(info, 200),
  fixed_height_downsampled: (info: Size) => fitHeight(info, 200),
  tiny: (info: Size) => fitWidth(info, 220),
  nano: (info: Size) => fitHeight(info, 90),
} as const;

type SizedName = keyof typeof namedSizes;

const stillOf: Partial<Record<StoredRenditionName, StoredRenditionName>> = {
  original_still: 'original',
  fixed_width_still: 'fixed_width',
  fixed_height_still: 'fixed_height',
  fixed_width_small_still: 'fixed_width_small',
  fixed_height_small_still: 'fixed_height_small',
  downsized_still: 'downsized',
};

/**
 * What makes two renditions the same file. A WebP `original` made from another format is
 * encoded for fidelity, the rest for the wire, so a 200 px sticker's `fixed_width` WebP is its
 * own, lighter file; GIFs are encoded alike whatever their name.
 */
function renditionKey(format: MediaFormat, size: Size, span: Span, profile = '') {
  return `${format}:${size.width}x${size.height}:${spanKey(span)}${profile}`;
}

/**
 * Flushes a staged file to disk, in the background: render() waits for every flush before it
 * returns its files, and the next rendition is made meanwhile (each flush took 2–8 ms here,
 * a tenth of a small file's rendering when made one after another).
 */
function flushLater(syncs: Array<Promise<unknown>>, file: string): void {
  syncs.push(
    (async () => {
      const handle = await fs.open(file, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    })().then(
      () => undefined,
      // Kept, not thrown here: render() throws it once every rendition is done. A candidate
      // discarded meanwhile (discard()) has nothing left to flush.
      (error: unknown) =>
        (error as NodeJS.ErrnoException)?.code === 'ENOENT'
          ? undefined
          : (error ?? new Error(`could not flush ${file}`)),
    ),
  );
}

/** Writes a rendition into the staging folder (flushed to disk before render() returns). */
async function stage(
  outputDir: string,
  name: StoredRenditionName,
  format: MediaFormat,
  data: Buffer,
  size: Size,
  frames: number,
  syncs: Array<Promise<unknown>>,
): Promise<RenderedFile> {
  const file = path.join(outputDir, `${name}.${format}`);
  await fs.writeFile(file, data, { flag: 'wx', mode: 0o644 });
  flushLater(syncs, file);
  return {
    name,
    format,
    width: size.width,
    height: size.height,
    frames,
    bytes: data.length,
    sha256: hashContent(data),
    file,
  };
}

interface VideoPlan {
  size: Size;
  span: Span;
  repeat?: number;
  crf?: number;
}

/**
 * Makes an item's renditions (rendition-plan.ts) from its decoded frames: GIF and WebP with
 * sharp, MP4 and WebM with ffmpeg fed raw frames (encode-video.ts). Each rendition is made at
 * most once, and one that another needs (the GIF `downsized` copies, the preview's reference)
 * is made on demand.
 */
export class MediaRenderer {
  private readonly info: MediaInfo;
  private readonly isAnimated: boolean;
  private readonly kind: ItemKind;
  /** Full-size decoded frames, when they fit the budget. */
  private full: RawFrames | undefined;
  /** Decoded frames at the working size of the small renditions (may be `full`). */
  private work: RawFrames | undefined;
  /** By content (renditionKey): a rendition identical to one made (or being made) copies it. */
  private readonly made = new Map<string, Promise<RenderedFile>>();
  /** The content key of each file made, so a discarded one is forgotten. */
  private readonly keyOf = new Map<RenderedFile, string>();
  /** Files staged and being flushed (stage()); each settles to undefined or its error. */
  private readonly syncs: Array<Promise<unknown>> = [];
  /** By `name.format`: each rendition once, whoever asks for it. */
  private readonly byName = new Map<string, Promise<RenderedFile | undefined>>();

  constructor(
    private readonly bytes: Buffer,
    private readonly options: RenderOptions,
  ) {
    this.info = options.info;
    this.isAnimated = options.info.frames > 1;
    this.kind = {
      sourceFormat: options.info.format,
      isAnimated: this.isAnimated,
      isTransparent: options.isTransparent,
    };
  }

  private get fullSize(): Size {
    return { width: this.info.width, height: this.info.height };
  }

  /** The source's own timeline: a delay for every frame. */
  private get sourceDelays(): number[] {
    return Array.from({ length: this.info.frames }, (_, index) => this.info.delays[index] ?? 100);
  }

  /** A pipeline over the source file itself: its first `frames` frames. */
  private source(frames = this.info.frames): Sharp {
    const { info } = this;
    return sharp(this.bytes, {
      animated: this.isAnimated && frames > 1,
      pages: this.isAnimated ? frames : 1,
      // Dimensions and frames were validated before we got here; this is the backstop.
      limitInputPixels: info.width * info.height * frames + 1,
      failOn: 'error',
      autoOrient: !this.isAnimated,
    }).ensureAlpha();
  }

  /**
   * Every frame at `size`, repeated frames merged. An animation is decoded in slices of frames
   * at full size, and only the frames that differ from the one before are resized: a screen
   * recording where most frames repeat costs its decoding, not hundreds of resizes. Resized
   * frames that are all opaque (a screen recording's GIF declares transparency for its
   * unchanged pixels, but shows none) lose their alpha channel: every rendition made from them
   * then skips the work alpha costs (premultiplying to resize, flattening for H.264).
   */
  private async decode(size: Size): Promise<RawFrames> {
    const { info } = this;
    const isResized = size.width !== info.width || size.height !== info.height;
    if (!this.isAnimated) {
      let pipeline = this.source();
      if (isResized) {
        pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
      }
      const { data, info: out } = await pipeline.raw().toBuffer({ resolveWithObject: true });
      return { data, width: out.width, pageHeight: out.height, frames: 1, delays: [] };
    }
    const delays = this.sourceDelays;
    const parts: Buffer[] = [];
    const keptDelays: number[] = [];
    let previous: Buffer | undefined;
    // A GIF whose first frame is opaque and whose frames never clear the canvas shows no
    // transparency (gif-blocks.ts): decoded as RGB, its frames are compared and resized
    // without an alpha channel (resizing RGBA premultiplies it in floating point, four times
    // the work).
    const isRgb = await this.isKnownOpaque();
    const isWhole = info.width * info.height * 4 * info.frames <= DECODE_WHOLE_BYTES;
    if (isWhole && !isRgb) return this.decodeWhole(size);
    // Otherwise checked on the small frames only: on full-size ones, checking and dropping the
    // channel would cost more than it saves.
    let isOpaque = isRgb || size.width * size.height <= MAX_OPACITY_CHECK_PIXELS;
    // Decoded as the file has it (RGB when it has no transparency): adding the alpha channel
    // to every frame of a large recording costs more than decoding it; only kept frames get one.
    let slice = isWhole
      ? info.frames
      : Math.max(1, Math.floor(DECODE_SLICE_BYTES / (info.width * info.height * 4)));
    // Advanced by the frames each slice asked for: the next slice's size follows the channels
    // decoded (RGB slices hold a third more frames), and must not skip any.
    for (let page = 0, pages = 0; page < info.frames; page += pages) {
      pages = Math.min(slice, info.frames - page);
      const decoder = sharp(this.bytes, {
        page,
        pages,
        animated: pages > 1,
        limitInputPixels: info.width * info.height * pages + 1,
        failOn: 'error',
      });
      const { data, info: decodedInfo } = await (isRgb ? decoder.removeAlpha() : decoder)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const channels = decodedInfo.channels;
      const frameBytes = info.width * info.height * channels;
      if (!isWhole) slice = Math.max(1, Math.floor(DECODE_SLICE_BYTES / frameBytes));
      const decoded = Math.floor(data.length / frameBytes);
      const unique: Buffer[] = [];
      for (let index = 0; index < decoded; index += 1) {
        const frame = data.subarray(index * frameBytes, (index + 1) * frameBytes);
        const delay = delays[page + index] ?? 100;
        if (previous && previous.equals(frame)) {
          keptDelays[keptDelays.length - 1]! += delay;
          continue;
        }
        unique.push(frame);
        keptDelays.push(delay);
        previous = frame;
      }
      // The slice's buffer goes with the next one: keep the last frame for the comparison.
      if (previous) previous = Buffer.from(previous);
      if (unique.length === 0) continue;
      // No repeats: the decoded frames themselves, not a copy.
      const strip =
        unique.length === decoded
          ? data.subarray(0, decoded * frameBytes)
          : unique.length === 1
            ? unique[0]!
            : Buffer.concat(unique);
      let pipeline = sharp(strip, {
        animated: unique.length > 1,
        raw: {
          width: info.width,
          height: info.height * unique.length,
          channels,
          ...(unique.length > 1 ? { pageHeight: info.height } : {}),
        },
      });
      if (isResized) {
        // Lanczos 2 in one step from full size: closer to Lanczos 3 (PSNR about 50 dB against
        // it over ../shared/data/gifs' tiles) than bilinear followed by Lanczos 3 at the
        // rendition's size (42–46 dB), for about the CPU of bilinear.
        pipeline = pipeline.resize({
          width: size.width,
          height: size.height,
          fit: 'fill',
          kernel: 'lanczos2',
        });
      }
      const part = await (isRgb ? pipeline : pipeline.ensureAlpha()).raw().toBuffer();
      if (!isRgb && isOpaque && !isOpaqueRgba(part)) isOpaque = false;
      parts.push(part);
    }
    if (keptDelays.length === 0) throw new Error('no frames could be decoded');
    const frames: RawFrames = {
      data: parts.length === 1 ? parts[0]! : Buffer.concat(parts),
      width: size.width,
      pageHeight: size.height,
      channels: isRgb ? 3 : 4,
      frames: keptDelays.length,
      delays: keptDelays,
    };
    if (isRgb || !isOpaque) return frames;
    return MediaRenderer.dropAlpha(frames);
  }

  /**
   * A short animation (all its frames within DECODE_WHOLE_BYTES) decoded and resized in one
   * pipeline: its full-size frames never sit in memory (faulting in 75 MB of fresh pages cost
   * a 512 px emoji a quarter of its decoding), and repeats are merged once resized (a short
   * animation has few).
   */
  private async decodeWhole(size: Size): Promise<RawFrames> {
    const { info } = this;
    let pipeline = sharp(this.bytes, {
      animated: true,
      limitInputPixels: info.width * info.height * info.frames + 1,
      failOn: 'error',
    });
    if (size.width !== info.width || size.height !== info.height) {
      pipeline = pipeline.resize({
        width: size.width,
        height: size.height,
        fit: 'fill',
        kernel: 'lanczos2',
      });
    }
    const data = await pipeline.ensureAlpha().raw().toBuffer();
    const frames = mergeRepeatedFrames({
      data,
      width: size.width,
      pageHeight: size.height,
      channels: 4,
      frames: Math.floor(data.length / (size.width * size.height * 4)),
      delays: this.sourceDelays,
    });
    if (frames.frames === 0) throw new Error('no frames could be decoded');
    const isOpaque =
      size.width * size.height <= MAX_OPACITY_CHECK_PIXELS && isOpaqueRgba(frames.data);
    return isOpaque ? MediaRenderer.dropAlpha(frames) : frames;
  }

  /** RGBA frames whose every pixel is opaque, as RGB. */
  private static async dropAlpha(frames: RawFrames): Promise<RawFrames> {
    const rgb = await MediaRenderer.fromRaw(frames, frames.frames).removeAlpha().raw().toBuffer();
    return { ...frames, data: rgb, channels: 3 };
  }

  /** Whether every frame of the file is opaque, as its structure and first frame tell. */
  private async isKnownOpaque(): Promise<boolean> {
    const { info } = this;
    if (info.format !== 'gif' || !isGifNeverCleared(this.bytes)) return false;
    const first = await sharp(this.bytes, {
      pages: 1,
      limitInputPixels: info.width * info.height + 1,
      failOn: 'error',
    })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Decoded alone, a first frame may come without alpha though later ones declare some: RGB
    // then says enough only when no frame of the file has transparency.
    if (first.info.channels === 3) return !info.hasAlpha;
    return first.info.channels === 4 && isOpaqueRgba(first.data);
  }

  private static fromRaw(raw: RawFrames, frames: number): Sharp {
    const channels = raw.channels ?? 4;
    const frameBytes = raw.width * raw.pageHeight * channels;
    return sharp(raw.data.subarray(0, frameBytes * frames), {
      // Without it sharp resizes the frame strip as one tall image.
      animated: frames > 1,
      raw: {
        width: raw.width,
        height: raw.pageHeight * frames,
        channels,
        ...(frames > 1 ? { pageHeight: raw.pageHeight } : {}),
      },
    });
  }

  private rawFor(size: Size): RawFrames | undefined {
    const fits = (raw: RawFrames | undefined) =>
      raw !== undefined && raw.width >= size.width && raw.pageHeight >= size.height;
    return fits(this.work) ? this.work : fits(this.full) ? this.full : undefined;
  }

  /**
   * The cheapest pipeline for a size and span: decoded frames large enough when we have them,
   * else the source. Returns the frames' timeline alongside, since merged frames change it.
   */
  private async select(size: Size, span: Span): Promise<{ pipeline: Sharp; delays: number[] }> {
    let raw = this.rawFor(size);
    if (typeof span === 'object' && 'sample' in span) {
      // Sampling picks frames by time, so it needs them decoded (at this size, if nothing fits).
      raw = sampleFrames(raw ?? (await this.decode(size)), span.sample);
    }
    const timeline = raw ? raw.delays : this.sourceDelays;
    const frames = spanFrames(timeline, raw ? raw.frames : this.info.frames, span);
    const from = raw ? { width: raw.width, height: raw.pageHeight } : this.info;
    let pipeline = raw ? MediaRenderer.fromRaw(raw, frames) : this.source(frames);
    if (from.width !== size.width || from.height !== size.height) {
      pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
    }
    return { pipeline, delays: timeline.slice(0, frames) };
  }

  /** Encodes one GIF or WebP rendition, or reuses an identical one already made. */
  private async renderImage(
    name: StoredRenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span: Span = 'all',
  ): Promise<RenderedFile> {
    const isOriginal = name === 'original';
    const key = renditionKey(
      format,
      size,
      span,
      format === 'webp' && isOriginal ? ':original' : '',
    );
    const same = this.made.get(key);
    if (same) return this.copy(await same, name);
    return this.remember(key, this.encodeImage(name, format, size, span));
  }

  /** Registers a rendition being made under its content key, before it is done. */
  private remember(key: string, making: Promise<RenderedFile>): Promise<RenderedFile> {
    const made = making.then((file) => {
      this.keyOf.set(file, key);
      return file;
    });
    // Whoever waits for it sees the error; the map alone must not make it unhandled.
    made.catch(() => {});
    this.made.set(key, made);
    return made;
  }

  private async encodeImage(
    name: StoredRenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span: Span,
  ): Promise<RenderedFile> {
    const isOriginal = name === 'original';
    const selected = await this.select(size, span);
    const { delays } = selected;
    const animation = delays.length > 1 ? { loop: this.info.loop, delay: delays } : {};
    const encode = async (sharpPipeline: Sharp, webpOptions: WebpOptions) => {
      const encoded =
        format === 'gif'
          ? sharpPipeline.gif({ ...GIF_OPTIONS, ...animation })
          : sharpPipeline.webp({ ...webpOptions, ...animation });
      return encoded.toBuffer({ resolveWithObject: true });
    };
    let { data, info } = await encode(
      selected.pipeline,
      isOriginal ? ORIGINAL_WEBP_OPTIONS : SMALL_WEBP_OPTIONS,
    );
    if (format === 'webp' && data.length > this.bytes.length) {
      // A rendition that outweighs the file it was made from helps no one: try harder.
      for (const options of isOriginal ? [LOSSLESS_WEBP_OPTIONS] : RETRY_WEBP_OPTIONS) {
        const retry = await encode((await this.select(size, span)).pipeline, options);
        if (retry.data.length < data.length) ({ data, info } = retry);
        if (data.length <= this.bytes.length) break;
      }
    }
    const pageHeight = info.pageHeight ?? info.height;
    // Encoders merge identical consecutive frames too: count what is in the file (a header read).
    const frames =
      delays.length > 1
        ? ((await sharp(data, { animated: true, limitInputPixels: false }).metadata()).pages ?? 1)
        : 1;
    return stage(
      this.options.outputDir,
      name,
      format,
      data,
      { width: info.width, height: pageHeight },
      frames,
      this.syncs,
    );
  }

  /**
   * Encodes one video rendition: H.264 MP4 flattened onto black (GIPHY's look for a GIF with
   * holes), or VP9 WebM, keeping the alpha channel of a transparent item and flattened like the
   * MP4 for a GIF. Undefined without ffmpeg or for a still.
   */
  private async renderVideo(
    name: StoredRenditionName,
    format: 'mp4' | 'webm',
    plan: VideoPlan,
  ): Promise<RenderedFile | undefined> {
    const ffmpegPath = this.options.ffmpegPath;
    if (!ffmpegPath || !this.isAnimated) return undefined;
    const size = evenSize(plan.size);
    const key = renditionKey(format, size, plan.span, `:x${plan.repeat ?? 1}:q${plan.crf ?? ''}`);
    const same = this.made.get(key);
    if (same) return this.copy(await same, name);
    return this.remember(key, this.encodeVideo(name, format, size, plan, ffmpegPath));
  }

  private async encodeVideo(
    name: StoredRenditionName,
    format: 'mp4' | 'webm',
    size: Size,
    plan: VideoPlan,
    ffmpegPath: string,
  ): Promise<RenderedFile> {
    const { pipeline, delays } = await this.select(size, plan.span);
    // H.264 has no alpha, and a GIF's WebM shows what its MP4 shows: flattened onto black (sRGB,
    // a grey source included). A transparent item's WebM keeps its alpha.
    const hasAlpha = format === 'webm' && this.kind.isTransparent;
    const flat = hasAlpha ? pipeline.ensureAlpha() : pipeline.flatten({ background: '#000000' });
    const { data, info: out } = await flat
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const channels = out.channels === 3 ? 3 : 4;
    const codec: VideoCodec = format === 'mp4' ? 'h264' : 'vp9';
    const target = path.join(this.options.outputDir, `${name}.${format}.encoding`);
    try {
      const encoded = await encodeVideo({
        ffmpegPath,
        codec,
        frames: {
          data,
          channels,
          width: size.width,
          height: size.height,
          frames: delays.length,
          delays,
        },
        outputFile: target,
        keepAlpha: hasAlpha,
        repeat: plan.repeat,
        crf: plan.crf,
        threads: this.options.threads,
        memoryLimitBytes: this.options.videoMemoryBytes,
        runningPids: this.options.encoderPids,
      });
      return await stage(
        this.options.outputDir,
        name,
        format,
        await fs.readFile(target),
        size,
        encoded.frames,
        this.syncs,
      );
    } finally {
      await fs.rm(target, { force: true });
    }
  }

  /**
   * A GIF's `original_still` as its own first frame, copied (gif-blocks.ts): the same picture
   * its decoding gives, without quantising it again. Undefined when the file does not allow it.
   */
  private copyFirstGifFrame(): Promise<RenderedFile> | undefined {
    if (this.info.format !== 'gif') return undefined;
    const key = renditionKey('gif', this.fullSize, 'first');
    const same = this.made.get(key);
    if (same) return same.then((file) => this.copy(file, 'original_still'));
    const frame = extractFirstGifFrame(this.bytes);
    if (!frame) return undefined;
    const { outputDir } = this.options;
    return this.remember(
      key,
      stage(outputDir, 'original_still', 'gif', frame, this.fullSize, 1, this.syncs),
    );
  }

  /** The same bytes under another rendition name (content addressing stores them once). */
  private async copy(file: RenderedFile, name: StoredRenditionName): Promise<RenderedFile> {
    if (file.name === name) return file;
    const target = path.join(this.options.outputDir, `${name}.${file.format}`);
    await fs.copyFile(file.file, target);
    flushLater(this.syncs, target);
    return { ...file, name, file: target };
  }

  /** Drops a staged candidate that was not kept. */
  private async discard(file: RenderedFile): Promise<void> {
    const key = this.keyOf.get(file);
    if (key !== undefined) this.made.delete(key);
    this.keyOf.delete(file);
    await fs.rm(file.file, { force: true });
  }

  /** One rendition by name and format, made once however many ask for it. */
  private get(name: StoredRenditionName, format: MediaFormat): Promise<RenderedFile | undefined> {
    const key = `${name}.${format}`;
    let made = this.byName.get(key);
    if (!made) {
      const started = performance.now();
      made = this.make(name, format).then((file) => {
        if (file) this.options.onRendition?.(file, performance.now() - started);
        return file;
      });
      this.byName.set(key, made);
    }
    return made;
  }

  private async make(
    name: StoredRenditionName,
    format: MediaFormat,
  ): Promise<RenderedFile | undefined> {
    const { info } = this;
    const isVideo = format === 'mp4' || format === 'webm';
    const isImage = format === 'gif' || format === 'webp';
    if (name === 'original') {
      if (format === info.format) {
        return stage(
          this.options.outputDir,
          name,
          format,
          this.bytes,
          this.fullSize,
          info.frames,
          this.syncs,
        );
      }
      if (isImage) return this.renderImage(name, format, this.fullSize);
      if (isVideo) return this.renderVideo(name, format, { size: this.videoSize(), span: 'all' });
      return undefined;
    }
    const stillSource = stillOf[name];
    if (stillSource) {
      if (!isImage) return undefined;
      if (name === 'original_still' && format === 'gif') {
        const copied = await this.copyFirstGifFrame();
        if (copied) return copied;
      }
      // GIPHY's `_s.gif` is the first frame of its rendition, at that rendition's size.
      let size = this.fullSize;
      if (stillSource in namedSizes) size = namedSizes[stillSource as SizedName](this.fullSize);
      if (stillSource === 'downsized') {
        const downsized = await this.get('downsized', 'gif');
        if (downsized) size = { width: downsized.width, height: downsized.height };
      }
      return this.renderImage(name, format, size, 'first');
    }
    if (name in namedSizes) {
      const size = namedSizes[name as SizedName](this.fullSize);
      const span: Span = name.endsWith('_downsampled') ? { sample: DOWNSAMPLED_FRAMES } : 'all';
      if (isImage) return this.renderImage(name, format, size, span);
      if (isVideo) return this.renderVideo(name, format, { size, span });
      return undefined;
    }
    switch (name) {
      case 'downsized':
        return format === 'gif' ? this.renderDownsized() : undefined;
      case 'downsized_medium':
      case 'downsized_large': {
        if (format !== 'gif') return undefined;
        const limit =
          name === 'downsized_medium' ? DOWNSIZED_MEDIUM_MAX_BYTES : DOWNSIZED_LARGE_MAX_BYTES;
        const original = await this.get('original', 'gif');
        const pick =
          original && original.bytes <= limit ? original : await this.get('downsized', 'gif');
        return pick && this.copy(pick, name);
      }
      case 'downsized_small':
        return isVideo ? this.renderSmallVideo(format) : undefined;
      case 'preview':
        return isVideo ? this.renderPreviewVideo(format) : undefined;
      case 'preview_gif':
        return format === 'gif' ? this.renderPreviewGif() : undefined;
      case 'preview_webp': {
        const gif = await this.get('preview_gif', 'gif');
        if (!gif || format !== 'webp') return undefined;
        const size = { width: gif.width, height: gif.height };
        return this.renderImage(name, 'webp', size, this.previewSpan);
      }
      case 'looping': {
        if (!isVideo) return undefined;
        const played = this.sourceDelays.reduce((sum, delay) => sum + playedDelayMs(delay), 0);
        const repeat = Math.max(1, Math.ceil(LOOPING_MS / Math.max(1, played)));
        const size = fitLongestSide(this.videoSize(), 480);
        return this.renderVideo(name, format, { size, span: 'all', repeat });
      }
      default:
        return undefined;
    }
  }

  /**
   * The largest video size the budget allows: full size (at most MAX_VIDEO_SIDE on its longer
   * side) when its raw frames fit in memory, else scaled down until they do.
   */
  private videoSize(): Size {
    const capped = fitLongestSide(this.fullSize, MAX_VIDEO_SIDE);
    // Frames decoded from the source at this size are not merged yet: count them all.
    const frames = this.full ? this.full.frames : this.info.frames;
    const rawBytes = capped.width * capped.height * 4 * frames;
    if (rawBytes <= RAW_BUDGET_BYTES) return capped;
    const scale = Math.sqrt(RAW_BUDGET_BYTES / rawBytes);
    return fitLongestSide(capped, Math.floor(Math.max(capped.width, capped.height) * scale));
  }

  /** GIPHY's `downsized`: the largest GIF under 2 MB, the original itself when it qualifies. */
  private async renderDownsized(): Promise<RenderedFile | undefined> {
    const originalGif = await this.get('original', 'gif');
    if (!originalGif) return undefined;
    if (originalGif.bytes <= DOWNSIZED_MAX_BYTES) return this.copy(originalGif, 'downsized');
    let side = Math.min(480, Math.max(this.info.width, this.info.height));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const rendered = await this.renderImage(
        'downsized',
        'gif',
        fitLongestSide(this.fullSize, side),
      );
      if (rendered.bytes <= DOWNSIZED_MAX_BYTES) return rendered;
      await this.discard(rendered);
      side = Math.floor(side * 0.7);
    }
    // Still too big: the 100 px wide GIF, the smallest full-length one we make.
    return this.renderImage('downsized', 'gif', fitWidth(this.fullSize, 100));
  }

  /**
   * GIPHY's `downsized_small`: the largest video under 200 KB, 480 px at most. The first size
   * tried is estimated from the original video's bytes per pixel, so one encode usually does.
   */
  private async renderSmallVideo(format: 'mp4' | 'webm'): Promise<RenderedFile | undefined> {
    const longest = Math.max(this.info.width, this.info.height);
    const original = await this.get('original', format);
    if (original && original.bytes < DOWNSIZED_SMALL_MAX_BYTES && longest <= 480) {
      return this.copy(original, 'downsized_small');
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
      const rendered = await this.renderVideo('downsized_small', format, {
        size: fitLongestSide(this.fullSize, side),
        span: 'all',
        crf,
      });
      if (!rendered || rendered.bytes < DOWNSIZED_SMALL_MAX_BYTES) return rendered;
      await this.discard(rendered);
      side = Math.max(48, Math.floor(side * 0.7));
      crf = (crf ?? (format === 'mp4' ? 25 : 32)) + 4;
    }
    return this.renderVideo('downsized_small', format, {
      size: fitLongestSide(this.fullSize, 100),
      span: 'all',
      crf: format === 'mp4' ? 35 : 44,
    });
  }

  /** Preview spans: about two seconds, the first frame of a still. */
  private get previewSpan(): Span {
    return this.isAnimated ? this.previewPlan.span : 'first';
  }

  private previewPlanCache: { span: Span; side: number } | undefined;

  /**
   * GIPHY's previews are small and short, about 50 KB. Their size is estimated from the bytes
   * per pixel and frame of the 100 px GIF, so one encode usually lands near the target.
   */
  private get previewPlan(): { span: Span; side: number } {
    return this.previewPlanCache ?? { span: { ms: 2000 }, side: 150 };
  }

  private async planPreview(): Promise<{ span: Span; side: number }> {
    if (this.previewPlanCache) return this.previewPlanCache;
    const reference = await this.get('fixed_width_small', 'gif');
    const timeline = (this.work ?? this.full)?.delays ?? this.sourceDelays;
    const bytesPerPixelFrame = reference
      ? reference.bytes / (reference.width * reference.height * reference.frames)
      : 0.5;
    const area = this.info.width * this.info.height;
    const plan = (span: Span) => {
      const frames = spanFrames(timeline, timeline.length, span);
      const pixels = PREVIEW_TARGET_BYTES / (bytesPerPixelFrame * frames);
      const longest = Math.max(this.info.width, this.info.height);
      const side = Math.round(longest * Math.sqrt(pixels / area));
      return { span, side: Math.min(150, side) };
    };
    let attempt = plan(this.isAnimated ? { ms: 2000 } : 'first');
    if (attempt.side < 64 && this.isAnimated) attempt = plan({ ms: 1000 });
    attempt.side = Math.max(48, attempt.side);
    this.previewPlanCache = attempt;
    return attempt;
  }

  private async renderPreviewGif(): Promise<RenderedFile> {
    const attempt = await this.planPreview();
    let gif = await this.renderImage(
      'preview_gif',
      'gif',
      fitLongestSide(this.fullSize, attempt.side),
      attempt.span,
    );
    if (gif.bytes > PREVIEW_TARGET_BYTES * 1.5 && attempt.side > 48) {
      await this.discard(gif);
      attempt.side = Math.max(48, Math.round(attempt.side * 0.7));
      gif = await this.renderImage(
        'preview_gif',
        'gif',
        fitLongestSide(this.fullSize, attempt.side),
        attempt.span,
      );
    }
    return gif;
  }

  /** GIPHY's `preview`: a video of the first two seconds or so, about 50 KB. */
  private async renderPreviewVideo(format: 'mp4' | 'webm'): Promise<RenderedFile | undefined> {
    let side = Math.min(200, Math.max(this.info.width, this.info.height));
    let span: Span = { ms: 2000 };
    let crf: number | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const rendered = await this.renderVideo('preview', format, {
        size: fitLongestSide(this.fullSize, side),
        span,
        crf,
      });
      if (!rendered || rendered.bytes <= PREVIEW_TARGET_BYTES * 1.5 || attempt === 2) {
        return rendered;
      }
      await this.discard(rendered);
      side = Math.max(48, Math.floor(side * 0.75));
      span = { ms: 1000 };
      crf = (crf ?? (format === 'mp4' ? 25 : 32)) + 4;
    }
    return undefined;
  }

  /**
   * Decodes what the phase needs once: the whole animation at full size when a full-size
   * rendition is to be made and it fits the budget, else at the working size of the small ones.
   */
  private async prepare(wanted: ReadonlyArray<{ name: string; format: MediaFormat }>) {
    const { info } = this;
    const needsFull = wanted.some(
      ({ name, format }) =>
        (name === 'original' && format !== info.format) ||
        name.startsWith('downsized') ||
        name === 'looping',
    );
    const fullSize = this.fullSize;
    const rawBytes = (size: Size) => size.width * size.height * info.frames * 4;
    if (needsFull && rawBytes(fullSize) <= RAW_BUDGET_BYTES) {
      this.full = await this.decode(fullSize);
      this.work = this.full;
      return;
    }
    // The small renditions to make decide the working size, each dimension the largest of
    // theirs: the largest (`fixed_height` of a wide item, the one `fixed_width` and
    // `fixed_height` of a square one) is then made from it as it is, without a second resize.
    // `tiny`, wider than `fixed_width`, counts only when it is made (later).
    const sized = wanted
      .map(({ name }) => name)
      .filter((name): name is SizedName => name in namedSizes);
    const sizes = (
      sized.length > 0 ? sized : (['tiny', 'fixed_width', 'fixed_height'] as const)
    ).map((name) => namedSizes[name](fullSize));
    const working = {
      width: Math.max(...sizes.map((size) => size.width)),
      height: Math.max(...sizes.map((size) => size.height)),
    };
    if (rawBytes(working) <= RAW_BUDGET_BYTES) this.work = await this.decode(working);
  }

  /** The renditions of a phase (default: all), written into the staging folder. */
  async render(phase: RenderPhase = this.options.phase ?? 'all'): Promise<RenderedFile[]> {
    const existing = new Set(this.options.existing);
    const wanted = renditionsFor(this.kind, phase).filter(
      ({ name, format }) => !existing.has(`${name}.${format}`),
    );
    let made: Array<PromiseSettledResult<RenderedFile | undefined>> = [];
    let flushed: unknown[] = [];
    try {
      await this.prepare(wanted);
      // Started in the plan's order, so which of two identical renditions is encoded and which
      // copies it does not depend on timing. Settled, all of them: nothing of this file is
      // still running when its result (or error) goes back.
      const limit = pLimit(Math.max(1, this.options.parallelism ?? 1));
      made = await Promise.allSettled(
        wanted.map(({ name, format }) => limit(() => this.get(name, format))),
      );
    } finally {
      this.full = undefined;
      this.work = undefined;
      // Every file is on disk (or failed to be) before the staging folder is handed on.
      flushed = await Promise.all(this.syncs.splice(0));
    }
    const files: RenderedFile[] = [];
    for (const result of made) {
      if (result.status === 'rejected') throw result.reason;
      if (result.value) files.push(result.value);
    }
    const failure = flushed.find((error) => error !== undefined);
    if (failure !== undefined) throw failure;
    return files;
  }

  /** Every rendition up front (the path before the job queue, and text rendered on demand). */
  renderAll(): Promise<RenderedFile[]> {
    return this.render('all');
  }
}
