import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { isGifNeverCleared } from './gif-blocks.ts';
import type { MediaInfo } from './inspect-media.ts';
import {
  dropAlpha,
  isOpaqueRgba,
  MAX_OPACITY_CHECK_PIXELS,
  mergeRepeatedFrames,
} from './raw-frames.ts';
import type { RawFrames } from './raw-frames.ts';
import type { Size } from './rendition-sizes.ts';

/** The file being rendered, validated (inspect-media.ts). */
export interface SourceMedia {
  bytes: Buffer;
  info: MediaInfo;
}

/**
 * An animation whose frames all fit in DECODE_WHOLE_BYTES is decoded in one go (decodeWhole),
 * since each slice reopens the file; a longer one in slices of DECODE_SLICE_BYTES of full-size
 * frames, under glibc's largest mmap threshold so that each reuses the memory of the one before
 * (docs/catalog.md, "Rendition settings").
 */
const DECODE_SLICE_BYTES = 16 * 1024 * 1024;
const DECODE_WHOLE_BYTES = 128 * 1024 * 1024;

/** The source's own timeline: a delay for every frame. */
export function readSourceDelays(info: MediaInfo): number[] {
  return Array.from({ length: info.frames }, (_, index) => info.delays[index] ?? 100);
}

/** A pipeline over the source file itself: its first `frames` frames. */
export function openSource({ bytes, info }: SourceMedia, frames = info.frames): Sharp {
  const isAnimated = info.frames > 1;
  return sharp(bytes, {
    animated: isAnimated && frames > 1,
    pages: isAnimated ? frames : 1,
    // Dimensions and frames were validated before we got here; this is the backstop.
    limitInputPixels: info.width * info.height * frames + 1,
    failOn: 'error',
    autoOrient: !isAnimated,
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
export async function decodeFrames(source: SourceMedia, size: Size): Promise<RawFrames> {
  const { info } = source;
  const isResized = size.width !== info.width || size.height !== info.height;
  const isAnimated = info.frames > 1;
  if (!isAnimated) {
    let pipeline = openSource(source);
    if (isResized) {
      pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
    }
    const { data, info: out } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return { data, width: out.width, pageHeight: out.height, frames: 1, delays: [] };
  }
  const delays = readSourceDelays(info);
  const parts: Buffer[] = [];
  const keptDelays: number[] = [];
  let previous: Buffer | undefined;
  // A GIF whose first frame is opaque and whose frames never clear the canvas shows no
  // transparency (gif-blocks.ts): decoded as RGB, its frames are compared and resized
  // without an alpha channel (resizing RGBA premultiplies it in floating point, four times
  // the work).
  const isRgb = await isKnownOpaque(source);
  const isWhole = info.width * info.height * 4 * info.frames <= DECODE_WHOLE_BYTES;
  if (isWhole && !isRgb) return decodeWhole(source, size);
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
    const decoder = sharp(source.bytes, {
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
      // Lanczos 2 in one step from full size: closer to Lanczos 3 than bilinear followed by
      // Lanczos 3, for about the CPU of bilinear (docs/catalog.md, "Rendition settings").
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
  return dropAlpha(frames);
}

/**
 * A short animation (all its frames within DECODE_WHOLE_BYTES) decoded and resized in one
 * pipeline: its full-size frames never sit in memory (docs/catalog.md, "Rendition settings"),
 * and repeats are merged once resized (a short animation has few).
 */
async function decodeWhole(source: SourceMedia, size: Size): Promise<RawFrames> {
  const { info } = source;
  let pipeline = sharp(source.bytes, {
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
    delays: readSourceDelays(info),
  });
  if (frames.frames === 0) throw new Error('no frames could be decoded');
  const isOpaque =
    size.width * size.height <= MAX_OPACITY_CHECK_PIXELS && isOpaqueRgba(frames.data);
  return isOpaque ? dropAlpha(frames) : frames;
}

/** Whether every frame of the file is opaque, as its structure and first frame tell. */
async function isKnownOpaque({ bytes, info }: SourceMedia): Promise<boolean> {
  if (info.format !== 'gif' || !isGifNeverCleared(bytes)) return false;
  const first = await sharp(bytes, {
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
