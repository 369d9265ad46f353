import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Sharp, WebpOptions } from 'sharp';
import type { MediaFormat } from '../media-paths.ts';
import type { MediaInfo } from './inspect-media.ts';

const run = promisify(execFile);

/** GIPHY's rendition names that we make (reference §2.2). */
export type RenditionName =
  | 'original'
  | 'original_still'
  | 'fixed_width'
  | 'fixed_width_still'
  | 'fixed_width_small'
  | 'fixed_height'
  | 'fixed_height_still'
  | 'downsized'
  | 'preview_gif';

export interface RenderedFile {
  name: RenditionName;
  format: MediaFormat;
  width: number;
  height: number;
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
  /** ffmpeg on PATH: MP4 renditions are made only when it is. */
  ffmpegPath?: string | undefined;
  /** Stickers need their transparency; other items keep whatever alpha they have too. */
  isSticker: boolean;
}

const DOWNSIZED_MAX_BYTES = 2 * 1024 * 1024;
const PREVIEW_TARGET_BYTES = 50 * 1024;

/**
 * `original` in WebP (made from a GIF, PNG or JPEG) stays close to its source: full quality
 * alpha, quality 80. Effort 2 costs half of the default for files about 3 % larger.
 */
export const ORIGINAL_WEBP_OPTIONS = { quality: 80, alphaQuality: 100, effort: 2 } as const;

/**
 * Every other WebP rendition is what the grid and the pickers load, so it is sized for the
 * wire: about half the bytes of the original settings, no visible difference at 200 px (colour
 * PSNR about 1 dB lower). Alpha quality 70 is libwebp's 16 quantised alpha levels, where the
 * alpha plane stops costing a third of a sticker's file; effort 3 is as small as the default 4
 * for less CPU.
 */
export const SMALL_WEBP_OPTIONS = { quality: 60, alphaQuality: 70, effort: 3 } as const;

const LOSSLESS_WEBP_OPTIONS = { lossless: true, effort: 3 } as const;

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

/** Decoded frames, RGBA, stacked vertically (sharp's layout for animations). */
interface RawFrames {
  data: Buffer;
  width: number;
  pageHeight: number;
  frames: number;
  /** Per frame, in ms (after merging repeated frames). */
  delays: number[];
}

/** Which part of the animation a rendition shows. */
type Span = 'all' | 'first' | { ms: number };

/** How many frames of a timeline play within `ms` (at least one). */
function framesWithin(delays: readonly number[], ms: number): number {
  let elapsed = 0;
  let frames = 0;
  for (const delay of delays) {
    frames += 1;
    // Browsers play very short GIF delays at about 100 ms; count them as at least 20 ms.
    elapsed += Math.max(delay, 20);
    if (elapsed >= ms) break;
  }
  return Math.max(1, frames);
}

function spanFrames(delays: readonly number[], total: number, span: Span): number {
  if (span === 'first') return 1;
  if (span === 'all') return total;
  return Math.min(total, framesWithin(delays, span.ms));
}

/**
 * Consecutive identical frames (a terminal recording waiting for input, a pause) become one
 * frame showing for their summed delays: it plays the same, and the encoders, GIF's palette
 * quantiser above all, have far fewer frames to work through. Compacts in place.
 */
export function mergeRepeatedFrames(raw: RawFrames): RawFrames {
  const frameBytes = raw.width * raw.pageHeight * 4;
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
 * Decoding is the expensive part, so each file is decoded once into memory (full size when it
 * fits this budget, else at the largest size the small renditions need) and every rendition is
 * made from that. Only what does not fit streams from the source, decoding again.
 */
const RAW_BUDGET_BYTES = 768 * 1024 * 1024;

/** Scale to a width (or height), never above the original, at least one pixel. */
function fitWidth(info: MediaInfo, width: number): Size {
  const target = Math.min(width, info.width);
  return { width: target, height: Math.max(1, Math.round((info.height * target) / info.width)) };
}

function fitHeight(info: MediaInfo, height: number): Size {
  const target = Math.min(height, info.height);
  return { width: Math.max(1, Math.round((info.width * target) / info.height)), height: target };
}

function fitLongestSide(info: MediaInfo, side: number): Size {
  return info.width >= info.height ? fitWidth(info, side) : fitHeight(info, side);
}

/**
 * What makes two renditions the same file. A WebP `original` made from another format is
 * encoded for fidelity, the rest for the wire, so a 200 px sticker's `fixed_width` WebP is its
 * own, lighter file; GIFs are encoded alike whatever their name.
 */
function renditionKey(format: 'gif' | 'webp', size: Size, span: Span, isOriginal: boolean) {
  const profile = format === 'webp' && isOriginal ? ':original' : '';
  return `${format}:${size.width}x${size.height}:${typeof span === 'string' ? span : span.ms}${profile}`;
}

/** Writes a rendition into the staging folder and flushes it to disk. */
async function stage(
  options: RenderOptions,
  name: RenditionName,
  format: MediaFormat,
  data: Buffer,
  size: Size,
  frames: number,
): Promise<RenderedFile> {
  const file = path.join(options.outputDir, `${name}.${format}`);
  const handle = await fs.open(file, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return {
    name,
    format,
    width: size.width,
    height: size.height,
    frames,
    bytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    file,
  };
}

export class MediaRenderer {
  private readonly info: MediaInfo;
  private readonly isAnimated: boolean;
  /** Full-size decoded frames, when they fit the budget. */
  private full: RawFrames | undefined;
  /** Decoded frames at the working size of the small renditions (may be `full`). */
  private work: RawFrames | undefined;
  private readonly made = new Map<string, RenderedFile>();

  constructor(
    private readonly bytes: Buffer,
    private readonly options: RenderOptions,
  ) {
    this.info = options.info;
    this.isAnimated = options.info.frames > 1;
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

  private async decode(size: Size): Promise<RawFrames> {
    let pipeline = this.source();
    if (size.width !== this.info.width || size.height !== this.info.height) {
      pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
    }
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    const pageHeight = this.isAnimated ? (info.pageHeight ?? size.height) : info.height;
    const frames = Math.max(1, Math.round(info.height / pageHeight));
    return mergeRepeatedFrames({
      data,
      width: info.width,
      pageHeight,
      frames,
      delays: this.sourceDelays.slice(0, frames),
    });
  }

  private static fromRaw(raw: RawFrames, frames: number): Sharp {
    const frameBytes = raw.width * raw.pageHeight * 4;
    return sharp(raw.data.subarray(0, frameBytes * frames), {
      // Without it sharp resizes the frame strip as one tall image.
      animated: frames > 1,
      raw: {
        width: raw.width,
        height: raw.pageHeight * frames,
        channels: 4,
        ...(frames > 1 ? { pageHeight: raw.pageHeight } : {}),
      },
    });
  }

  /**
   * The cheapest pipeline for a size and span: decoded frames large enough when we have them,
   * else the source. Returns the frames' timeline alongside, since merged frames change it.
   */
  private select(size: Size, span: Span): { pipeline: Sharp; delays: number[] } {
    const fits = (raw: RawFrames | undefined) =>
      raw !== undefined && raw.width >= size.width && raw.pageHeight >= size.height;
    const raw = fits(this.work) ? this.work : fits(this.full) ? this.full : undefined;
    const timeline = raw ? raw.delays : this.sourceDelays;
    const frames = spanFrames(timeline, raw ? raw.frames : this.info.frames, span);
    const from = raw ? { width: raw.width, height: raw.pageHeight } : this.info;
    let pipeline = raw ? MediaRenderer.fromRaw(raw, frames) : this.source(frames);
    if (from.width !== size.width || from.height !== size.height) {
      pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
    }
    return { pipeline, delays: timeline.slice(0, frames) };
  }

  /** Encodes one rendition, or reuses an identical one already made under another name. */
  private async render(
    name: RenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span: Span = 'all',
  ): Promise<RenderedFile> {
    const isOriginal = name === 'original';
    const key = renditionKey(format, size, span, isOriginal);
    const same = this.made.get(key);
    if (same) return this.copy(same, name);
    const { pipeline, delays } = this.select(size, span);
    const animation = delays.length > 1 ? { loop: this.info.loop, delay: delays } : {};
    const encode = async (sharpPipeline: Sharp, webpOptions: WebpOptions) => {
      const encoded =
        format === 'gif'
          ? sharpPipeline.gif({ ...GIF_OPTIONS, ...animation })
          : sharpPipeline.webp({ ...webpOptions, ...animation });
      return encoded.toBuffer({ resolveWithObject: true });
    };
    let { data, info } = await encode(
      pipeline,
      isOriginal ? ORIGINAL_WEBP_OPTIONS : SMALL_WEBP_OPTIONS,
    );
    if (format === 'webp' && data.length > this.bytes.length) {
      // A rendition that outweighs the file it was made from helps no one: try harder.
      for (const options of isOriginal ? [LOSSLESS_WEBP_OPTIONS] : RETRY_WEBP_OPTIONS) {
        const retry = await encode(this.select(size, span).pipeline, options);
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
    const file = await stage(
      this.options,
      name,
      format,
      data,
      { width: info.width, height: pageHeight },
      frames,
    );
    this.made.set(key, file);
    return file;
  }

  private async renderPair(name: RenditionName, size: Size): Promise<RenderedFile[]> {
    return [await this.render(name, 'gif', size), await this.render(name, 'webp', size)];
  }

  /** First frame as GIF (GIPHY's `_s.gif`) and WebP. */
  private async renderStill(name: RenditionName, size: Size): Promise<RenderedFile[]> {
    return [
      await this.render(name, 'gif', size, 'first'),
      await this.render(name, 'webp', size, 'first'),
    ];
  }

  private async renderOriginal(): Promise<RenderedFile[]> {
    const { info } = this;
    const full = { width: info.width, height: info.height };
    const asIs = await stage(this.options, 'original', info.format, this.bytes, full, info.frames);
    const files = [asIs];
    // Smaller renditions of a small original are the original itself, byte for byte.
    if (info.format === 'gif' || info.format === 'webp') {
      this.made.set(renditionKey(info.format, full, 'all', true), asIs);
      this.made.set(renditionKey(info.format, full, 'all', false), asIs);
    }
    for (const format of ['gif', 'webp'] as const) {
      if (format !== info.format) files.push(await this.render('original', format, full));
    }
    return files;
  }

  /** GIPHY's `downsized`: the largest GIF under 2 MB, the original itself when it qualifies. */
  private async renderDownsized(originalGif: RenderedFile): Promise<RenderedFile> {
    if (originalGif.bytes <= DOWNSIZED_MAX_BYTES) return this.copy(originalGif, 'downsized');
    let side = Math.min(480, Math.max(this.info.width, this.info.height));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const rendered = await this.render('downsized', 'gif', fitLongestSide(this.info, side));
      if (rendered.bytes <= DOWNSIZED_MAX_BYTES) return rendered;
      await this.discard(rendered);
      side = Math.floor(side * 0.7);
    }
    // Still too big: the 100 px wide GIF, the smallest full-length one we make.
    return this.render('downsized', 'gif', fitWidth(this.info, 100));
  }

  /**
   * GIPHY's `preview_gif`: a small, short GIF of about 50 KB. Its size is estimated from the
   * bytes per pixel and frame of the 100 px GIF, so one encode usually lands near the target.
   */
  private async renderPreview(reference: RenderedFile): Promise<RenderedFile[]> {
    const timeline = (this.work ?? this.full)?.delays ?? this.sourceDelays;
    const bytesPerPixelFrame =
      reference.bytes / (reference.width * reference.height * reference.frames);
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
    let gif = await this.render(
      'preview_gif',
      'gif',
      fitLongestSide(this.info, attempt.side),
      attempt.span,
    );
    if (gif.bytes > PREVIEW_TARGET_BYTES * 1.5 && attempt.side > 48) {
      await this.discard(gif);
      attempt.side = Math.max(48, Math.round(attempt.side * 0.7));
      gif = await this.render(
        'preview_gif',
        'gif',
        fitLongestSide(this.info, attempt.side),
        attempt.span,
      );
    }
    const size = { width: gif.width, height: gif.height };
    return [gif, await this.render('preview_gif', 'webp', size, attempt.span)];
  }

  /** Drops a staged candidate that was not kept. */
  private async discard(file: RenderedFile): Promise<void> {
    for (const [key, made] of this.made) if (made === file) this.made.delete(key);
    await fs.rm(file.file, { force: true });
  }

  /** The same bytes under another rendition name (content addressing stores them once). */
  private async copy(file: RenderedFile, name: RenditionName): Promise<RenderedFile> {
    if (file.name === name) return file;
    const target = path.join(this.options.outputDir, `${name}.${file.format}`);
    await fs.copyFile(file.file, target);
    return { ...file, name, file: target };
  }

  private async renderMp4(source: RenderedFile): Promise<RenderedFile | undefined> {
    const ffmpeg = this.options.ffmpegPath;
    if (!ffmpeg || !this.isAnimated || this.options.isSticker) return undefined;
    const target = path.join(this.options.outputDir, `${source.name}-video.mp4`);
    try {
      await run(
        ffmpeg,
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-i',
          source.file,
          '-movflags',
          '+faststart',
          '-pix_fmt',
          'yuv420p',
          // H.264 in 4:2:0 needs even dimensions.
          '-vf',
          'scale=trunc(iw/2)*2:trunc(ih/2)*2',
          '-an',
          '-y',
          target,
        ],
        { timeout: 60_000 },
      );
      const data = await fs.readFile(target);
      await fs.rm(target);
      const size = {
        width: Math.max(2, source.width - (source.width % 2)),
        height: Math.max(2, source.height - (source.height % 2)),
      };
      return await stage(this.options, source.name, 'mp4', data, size, source.frames);
    } catch {
      // MP4 is optional: GIF and WebP carry the rendition without it.
      await fs.rm(target, { force: true });
      return undefined;
    }
  }

  /** Every rendition, written into the staging folder. */
  async renderAll(): Promise<RenderedFile[]> {
    const { info } = this;
    const fullSize = { width: info.width, height: info.height };
    const fixedWidth = fitWidth(info, 200);
    const fixedHeight = fitHeight(info, 200);
    const rawBytes = (size: Size) => size.width * size.height * info.frames * 4;
    if (rawBytes(fullSize) <= RAW_BUDGET_BYTES) {
      this.full = await this.decode(fullSize);
      this.work = this.full;
    } else {
      // The largest of the small renditions decides the working size.
      const scale = Math.min(
        1,
        Math.max(fixedWidth.width / info.width, fixedHeight.height / info.height),
      );
      const working = {
        width: Math.max(1, Math.round(info.width * scale)),
        height: Math.max(1, Math.round(info.height * scale)),
      };
      if (rawBytes(working) <= RAW_BUDGET_BYTES) this.work = await this.decode(working);
    }

    const files: RenderedFile[] = [];
    const original = await this.renderOriginal();
    files.push(...original);
    files.push(...(await this.renderStill('original_still', fullSize)));
    files.push(...(await this.renderPair('fixed_width', fixedWidth)));
    files.push(...(await this.renderStill('fixed_width_still', fixedWidth)));
    files.push(...(await this.renderPair('fixed_width_small', fitWidth(info, 100))));
    files.push(...(await this.renderPair('fixed_height', fixedHeight)));
    files.push(...(await this.renderStill('fixed_height_still', fixedHeight)));
    const originalGif = original.find((file) => file.format === 'gif')!;
    files.push(await this.renderDownsized(originalGif));
    const smallGif = files.find(
      (file) => file.name === 'fixed_width_small' && file.format === 'gif',
    )!;
    files.push(...(await this.renderPreview(smallGif)));
    this.full = undefined;
    this.work = undefined;
    for (const name of ['original', 'fixed_width', 'fixed_height'] as const) {
      const gif = files.find((file) => file.name === name && file.format === 'gif')!;
      const mp4 = await this.renderMp4(gif);
      if (mp4) files.push(mp4);
    }
    return files;
  }
}
