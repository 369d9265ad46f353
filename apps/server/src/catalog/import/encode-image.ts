import sharp from 'sharp';
import type { Sharp, WebpOptions } from 'sharp';
import type { Size } from './rendition-sizes.ts';

/**
 * `original` in WebP (made from a GIF, PNG or JPEG) stays close to its source; effort 2 for
 * half the default's CPU (docs/catalog.md, "Rendition settings").
 */
const ORIGINAL_WEBP_OPTIONS = { quality: 80, alphaQuality: 100, effort: 2 } as const;

/**
 * Every other WebP rendition is what the grid and the pickers load, so it is sized for the
 * wire (docs/catalog.md, "Rendition settings").
 */
const SMALL_WEBP_OPTIONS = { quality: 60, alphaQuality: 70, effort: 2 } as const;

/**
 * Lossless at effort 1: on palette art, effort 3's bytes for far less CPU (docs/catalog.md,
 * "Rendition settings").
 */
const LOSSLESS_WEBP_OPTIONS = { lossless: true, effort: 1 } as const;

/**
 * When a WebP rendition outweighs the original file, more tries and the smallest is kept:
 * lower quality wins on a source that was lossy WebP already, lossless on flat palette art (a
 * 1-bit clock, a terminal recording) where lossy VP8 spends bytes on edges. `original` only
 * tries lossless, which loses nothing.
 */
const RETRY_WEBP_OPTIONS: readonly WebpOptions[] = [
  { quality: 45, alphaQuality: 50, effort: 3 },
  LOSSLESS_WEBP_OPTIONS,
];

/**
 * GIF: a fast quantizer, and small changes between frames left to the previous frame and its
 * palette, which LZW packs into little (docs/catalog.md, "Rendition settings").
 */
const GIF_OPTIONS = { effort: 1, interFrameMaxError: 8, interPaletteMaxError: 12 } as const;

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
