import { execFileSync } from 'node:child_process';
import sharp from 'sharp';

export interface AnimationOptions {
  frames: number;
  width?: number;
  height?: number;
  /** Per frame in ms (GIF keeps hundredths); default 60 each. */
  delays?: number[];
  /** A clear background (a sticker) instead of a coloured one. */
  isTransparent?: boolean;
  format?: 'gif' | 'webp';
  /** sharp's convention: 0 plays forever, N plays N times. */
  loop?: number;
  /** Another seed, other colours: other bytes for the same options (uploads are deduplicated). */
  seed?: number;
}

/**
 * A small animation made here: a square moving over a background that changes colour every
 * frame (so no two frames are alike), or over nothing for a sticker. Tests make their own media;
 * only the real-file runs read ../shared (docs/testing.md).
 */
export async function makeAnimation(options: AnimationOptions): Promise<Buffer> {
  const width = options.width ?? 48;
  const height = options.height ?? width;
  const square = Math.max(2, Math.round(Math.min(width, height) / 4));
  const images = await Promise.all(
    Array.from({ length: options.frames }, (_, index) =>
      sharp({
        create: {
          width,
          height,
          channels: 4,
          background: options.isTransparent
            ? { r: 0, g: 0, b: 0, alpha: 0 }
            : {
                r: (20 + index * 37) % 256,
                g: (90 + (options.seed ?? 0) * 7) % 256,
                b: (160 + Math.floor((options.seed ?? 0) / 37) * 11) % 256,
                alpha: 1,
              },
        },
      })
        .composite([
          {
            input: {
              create: {
                width: square,
                height: square,
                channels: 4,
                background: { r: 250, g: 220, b: 0, alpha: 1 },
              },
            },
            // A quarter of its size left or right each frame: it always covers the middle.
            left: Math.round(width / 2 - square / 2 + ((index % 3) - 1) * (square / 4)),
            top: Math.round(height / 2 - square / 2),
          },
        ])
        .png()
        .toBuffer(),
    ),
  );
  const delay = options.delays ?? Array<number>(options.frames).fill(60);
  const joined = sharp(images, { join: { animated: true } });
  const animation = { delay, loop: options.loop ?? 0 };
  return options.format === 'webp'
    ? joined.webp({ ...animation, lossless: true }).toBuffer()
    : joined.gif(animation).toBuffer();
}

export interface Mp4Box {
  type: string;
  start: number;
  size: number;
}

/** The boxes at one level of an MP4 (ISO BMFF) between `start` and `end`. */
export function listMp4Boxes(data: Buffer, start = 0, end = data.length): Mp4Box[] {
  const boxes: Mp4Box[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    if (size === 0) size = end - offset;
    if (size < 8) throw new Error(`bad MP4 box size ${size} at ${offset}`);
    boxes.push({ type, start: offset, size });
    offset += size;
  }
  return boxes;
}

function child(data: Buffer, box: Mp4Box, type: string): Mp4Box | undefined {
  return listMp4Boxes(data, box.start + 8, box.start + box.size).find(
    (entry) => entry.type === type,
  );
}

export interface Mp4Summary {
  /** Top-level boxes in file order (`ftyp`, `moov`, `mdat`…). */
  topLevel: string[];
  /** Handler of each track: `vide`, `soun`… */
  tracks: string[];
  /** The video track's duration, from its media header (ms). */
  durationMs: number;
  /** Samples (frames) in the video track. */
  samples: number;
}

/** What an MP4's boxes say about it: order, tracks, duration and frame count. */
export function summarizeMp4(data: Buffer): Mp4Summary {
  const top = listMp4Boxes(data);
  const moov = top.find((box) => box.type === 'moov');
  if (!moov) throw new Error('no moov box');
  const traks = listMp4Boxes(data, moov.start + 8, moov.start + moov.size).filter(
    (box) => box.type === 'trak',
  );
  const tracks: string[] = [];
  let durationMs = 0;
  let samples = 0;
  for (const trak of traks) {
    const mdia = child(data, trak, 'mdia')!;
    const hdlr = child(data, mdia, 'hdlr')!;
    const handler = data.toString('latin1', hdlr.start + 16, hdlr.start + 20);
    tracks.push(handler);
    if (handler !== 'vide') continue;
    const mdhd = child(data, mdia, 'mdhd')!;
    const version = data.readUInt8(mdhd.start + 8);
    const timescale =
      version === 1 ? data.readUInt32BE(mdhd.start + 28) : data.readUInt32BE(mdhd.start + 20);
    const duration =
      version === 1
        ? Number(data.readBigUInt64BE(mdhd.start + 32))
        : data.readUInt32BE(mdhd.start + 24);
    durationMs = (duration * 1000) / timescale;
    const stbl = child(data, child(data, mdia, 'minf')!, 'stbl')!;
    const stsz = child(data, stbl, 'stsz')!;
    samples = data.readUInt32BE(stsz.start + 16);
  }
  return { topLevel: top.map((box) => box.type), tracks, durationMs, samples };
}

/**
 * Decodes a video we made back to RGBA frames with ffmpeg (tests only: these are our own
 * files). libvpx decodes a WebM's alpha channel (VP9, as we make it), which ffmpeg's own VP9
 * decoder drops.
 */
export function decodeVideoFrames(
  ffmpegPath: string,
  file: string,
  size: { width: number; height: number },
): Buffer[] {
  const isWebm = file.endsWith('.webm');
  const output = execFileSync(
    ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      ...(isWebm ? ['-c:v', 'libvpx-vp9'] : []),
      '-i',
      file,
      // Each frame of the file once: a WebM's frames have times of their own, not a rate.
      '-vsync',
      'passthrough',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-',
    ],
    { maxBuffer: 1024 * 1024 * 1024 },
  );
  const frameBytes = size.width * size.height * 4;
  return Array.from({ length: Math.floor(output.length / frameBytes) }, (_, index) =>
    output.subarray(index * frameBytes, (index + 1) * frameBytes),
  );
}

/** The RGBA of one pixel of a raw frame. */
export function pixelAt(
  frame: Buffer,
  width: number,
  x: number,
  y: number,
): [number, number, number, number] {
  const offset = (y * width + x) * 4;
  return [frame[offset]!, frame[offset + 1]!, frame[offset + 2]!, frame[offset + 3]!];
}
