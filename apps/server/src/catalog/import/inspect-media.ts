import { formatBytes } from '@sticky/contracts';
import sharp from 'sharp';
import type { Metadata } from 'sharp';

export type SourceFormat = 'gif' | 'webp' | 'png' | 'jpeg';

export interface ImportLimits {
  maxBytes: number;
  /** Per frame: width × height. */
  maxPixels: number;
  maxFrames: number;
  maxDurationMs: number;
  /**
   * What is left of the day's decoding allowance of the person whose upload this is, in
   * megapixels (UPLOAD_MEGAPIXELS_PER_DAY; docs/uploads.md, "Receiving"). A file that would
   * cost more is refused from its headers, before a pixel is decoded.
   */
  megapixelAllowance?: { left: number; perDay: number };
}

export interface MediaInfo {
  format: SourceFormat;
  /** Canvas size of one frame (sharp's `pageHeight` for animations, never the strip height). */
  width: number;
  height: number;
  frames: number;
  /** Per-frame delays in ms as stored in the file; empty for stills. */
  delays: number[];
  durationMs: number;
  /** sharp's convention: 0 = forever, N = played N times in all. */
  loop: number;
  hasAlpha: boolean;
}

export type Inspection = { ok: true; info: MediaInfo } | { ok: false; reason: string };

/**
 * A file's real format from its first bytes; the name and extension are never trusted.
 * Only the four formats we import are recognised.
 */
export function sniffFormat(bytes: Uint8Array): SourceFormat | undefined {
  const ascii = (start: number, end: number) =>
    String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 8 && ascii(1, 4) === 'PNG' && bytes[0] === 0x89 && bytes[4] === 0x0d) {
    return 'png';
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/**
 * The total pixels all frames may add up to: every frame is decoded once per rendition, so this
 * bounds the work (and the time) an import can take. 64 full-size frames' worth by default.
 */
export function maxTotalPixels(limits: ImportLimits): number {
  return limits.maxPixels * 64;
}

const formatNumber = (value: number) => value.toLocaleString('en-US');
/** One decimal below 10 megapixels (a small file still shows what it costs), whole above. */
const formatMegapixels = (megapixels: number) =>
  megapixels < 10 ? megapixels.toFixed(1) : formatNumber(Math.round(megapixels));

/** Turns libvips' messages into a reason a person importing files can act on. */
export function describeDecodeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const detail = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) =>
      line.replace(
        /^(Input (buffer|file) (has corrupt header|contains unsupported image format)): /,
        '',
      ),
    )
    .join('; ');
  if (/no frames/i.test(message)) return 'the GIF has no frames';
  if (/pixel limit/i.test(message)) return 'the image declares more pixels than allowed';
  if (/unexpected end|truncated|premature end|not enough data/i.test(message)) {
    return `the file is truncated or damaged (${detail})`;
  }
  if (/unsupported image format/i.test(message)) return 'the image format is not supported';
  return `the file is damaged: its image data could not be read (${detail})`;
}

/** GIF's logical screen, read before any decoder sees the file (a 40-byte bomb fails here). */
function readGifScreen(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 10) return undefined;
  return { width: bytes[6]! | (bytes[7]! << 8), height: bytes[8]! | (bytes[9]! << 8) };
}

function checkFramePixels(width: number, height: number, limits: ImportLimits): string | undefined {
  if (width < 1 || height < 1) return `it declares an empty ${width}×${height} picture`;
  if (width * height > limits.maxPixels) {
    return `it declares ${formatNumber(width)}×${formatNumber(height)} pixels per frame, over the limit of ${formatNumber(limits.maxPixels)}`;
  }
  return undefined;
}

/**
 * Everything we check before a single pixel is decoded: size, real format, declared
 * dimensions, frame count and duration. sharp's metadata reads headers (and, for GIF, walks
 * the frame headers) without decoding pixels.
 */
export async function inspectMedia(bytes: Uint8Array, limits: ImportLimits): Promise<Inspection> {
  const reject = (reason: string): Inspection => ({ ok: false, reason });
  if (bytes.length === 0) return reject('the file is empty');
  if (bytes.length > limits.maxBytes) {
    return reject(
      `the file is ${formatBytes(bytes.length)}, over the limit of ${formatBytes(limits.maxBytes)}`,
    );
  }
  const format = sniffFormat(bytes);
  if (!format) return reject('it is not a GIF, WebP, PNG or JPEG image');
  if (format === 'gif') {
    const screen = readGifScreen(bytes);
    if (!screen) return reject('the file is truncated (no GIF header)');
    const problem = checkFramePixels(screen.width, screen.height, limits);
    if (problem) return reject(problem);
  }

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, {
      animated: true,
      limitInputPixels: false,
      failOn: 'error',
    }).metadata();
  } catch (error) {
    return reject(describeDecodeError(error));
  }
  if (metadata.format !== format) {
    return reject(`it looks like ${format.toUpperCase()} but could not be read as one`);
  }
  const frames = Math.max(1, metadata.pages ?? 1);
  // Stills are turned upright (EXIF orientation) when decoded; animations never are.
  const oriented = frames === 1 ? metadata.autoOrient : undefined;
  const width = oriented?.width ?? metadata.width ?? 0;
  const height = oriented?.height ?? metadata.pageHeight ?? metadata.height ?? 0;
  const frameProblem = checkFramePixels(width, height, limits);
  if (frameProblem) return reject(frameProblem);
  if (frames > limits.maxFrames) {
    return reject(
      `it has ${formatNumber(frames)} frames, over the limit of ${formatNumber(limits.maxFrames)}`,
    );
  }
  const totalPixels = width * height * frames;
  if (totalPixels > maxTotalPixels(limits)) {
    return reject(
      `its ${formatNumber(frames)} frames of ${width}×${height} add up to ${formatNumber(totalPixels)} pixels, over the limit of ${formatNumber(maxTotalPixels(limits))}`,
    );
  }
  const allowance = limits.megapixelAllowance;
  if (allowance && totalPixels / 1e6 > allowance.left) {
    return reject(
      `decoding its ${formatNumber(frames)} frame${frames === 1 ? '' : 's'} of ${width}×${height} would take ${formatMegapixels(totalPixels / 1e6)} megapixels, more than is left of today's decoding allowance (${formatMegapixels(Math.max(0, allowance.left))} of ${formatNumber(allowance.perDay)} megapixels). Send a smaller file, or wait: the allowance resets at midnight UTC`,
    );
  }
  const delays = frames > 1 ? (metadata.delay ?? []).slice(0, frames) : [];
  const durationMs = delays.reduce((sum, delay) => sum + Math.max(0, delay), 0);
  if (durationMs > limits.maxDurationMs) {
    return reject(
      `it lasts ${(durationMs / 1000).toFixed(1)} s, over the limit of ${(limits.maxDurationMs / 1000).toFixed(0)} s`,
    );
  }
  return {
    ok: true,
    info: {
      format,
      width,
      height,
      frames,
      delays,
      durationMs,
      // GIF's largest repeat count reads as 65536 plays: treat it as the forever it means.
      loop: (metadata.loop ?? 0) > 65535 ? 0 : (metadata.loop ?? 0),
      hasAlpha: metadata.hasAlpha ?? false,
    },
  };
}
