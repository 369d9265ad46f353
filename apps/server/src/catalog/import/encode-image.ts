import sharp from 'sharp';
import type { Sharp, WebpOptions } from 'sharp';
import type { Size } from './rendition-sizes.ts';

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

/** A pipeline over the frames a rendition shows, with their delays. */
export interface SelectedFrames {
  pipeline: Sharp;
  delays: number[];
}

export interface ImageEncoding {
  format: 'gif' | 'webp';
  /** `original` in WebP is encoded for fidelity, every other rendition for the wire. */
  isOriginal: boolean;
  /** The animation's loop count (GIF and WebP both keep it). */
  loop: number;
  /** The size of the file the rendition is made from: a WebP heavier than it is tried again. */
  sourceBytes: number;
  /** A fresh pipeline over the frames, for each try (a pipeline is read once). */
  select: () => Promise<SelectedFrames>;
}

export interface EncodedImage {
  data: Buffer;
  size: Size;
  /** Frames in the file, after the encoder merged identical ones. */
  frames: number;
}

/** Encodes one GIF or WebP rendition with sharp. */
export async function encodeImage({
  format,
  isOriginal,
  loop,
  sourceBytes,
  select,
}: ImageEncoding): Promise<EncodedImage> {
  const selected = await select();
  const { delays } = selected;
  const animation = delays.length > 1 ? { loop, delay: delays } : {};
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
  if (format === 'webp' && data.length > sourceBytes) {
    // A rendition that outweighs the file it was made from helps no one: try harder.
    for (const options of isOriginal ? [LOSSLESS_WEBP_OPTIONS] : RETRY_WEBP_OPTIONS) {
      const retry = await encode((await select()).pipeline, options);
      if (retry.data.length < data.length) ({ data, info } = retry);
      if (data.length <= sourceBytes) break;
    }
  }
  const pageHeight = info.pageHeight ?? info.height;
  // Encoders merge identical consecutive frames too: count what is in the file (a header read).
  const frames =
    delays.length > 1
      ? ((await sharp(data, { animated: true, limitInputPixels: false }).metadata()).pages ?? 1)
      : 1;
  return { data, size: { width: info.width, height: pageHeight }, frames };
}
