import os from 'node:os';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { playedDelayMs } from './encode-video.ts';

/** Decoded frames, RGBA or RGB, stacked vertically (sharp's layout for animations). */
export interface RawFrames {
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
export type Span = 'all' | 'first' | { ms: number } | { sample: number };

export function spanKey(span: Span): string {
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

export function spanFrames(delays: readonly number[], total: number, span: Span): number {
  if (span === 'first') return 1;
  if (span === 'all' || 'sample' in span) return total;
  return Math.min(total, framesWithin(delays, span.ms));
}

/**
 * Consecutive identical frames (a terminal recording waiting for input, a pause) become one
 * frame showing for their summed delays: it plays the same, and the encoders, GIF's palette
 * quantizer above all, have far fewer frames to work through. Compacts in place.
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
export const MAX_OPACITY_CHECK_PIXELS = 350_000;

/** Whether every pixel of RGBA frames is fully opaque. */
export function isOpaqueRgba(frames: Buffer): boolean {
  // A word per pixel where the buffer allows it (docs/catalog.md, "Rendition settings").
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

/** A pipeline over the first `frames` of decoded frames. */
export function openRawFrames(raw: RawFrames, frames: number): Sharp {
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

/** RGBA frames whose every pixel is opaque, as RGB. */
export async function dropAlpha(frames: RawFrames): Promise<RawFrames> {
  const rgb = await openRawFrames(frames, frames.frames).removeAlpha().raw().toBuffer();
  return { ...frames, data: rgb, channels: 3 };
}
