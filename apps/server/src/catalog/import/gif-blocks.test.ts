import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { summarizeMp4 } from '../../test-support/media.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import { extractFirstGifFrame, isGifNeverCleared } from './gif-blocks.ts';
import { inspectMedia } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import { useTempDir } from '../../test-support/files.ts';

interface FrameSpec {
  colour: string;
  width: number;
  height: number;
  left: number;
  top: number;
  /** GIF89a's disposal method: 1 leave in place, 2 restore to background, 3 to previous. */
  disposal: number;
}

/** The colour table and LZW data of the one image of a GIF sharp made. */
function splitGif(gif: Buffer) {
  const tableBytes = (flags: number) => (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
  let position = 13;
  const globalTable = gif.subarray(position, position + tableBytes(gif[10]!));
  position += globalTable.length;
  while (gif[position] === 0x21) {
    position += 2;
    while (gif[position] !== 0) position += gif[position]! + 1;
    position += 1;
  }
  const flags = gif[position + 9]!;
  position += 10;
  const localTable = gif.subarray(position, position + tableBytes(flags));
  position += localTable.length;
  const start = position;
  position += 1;
  while (gif[position] !== 0) position += gif[position]! + 1;
  return {
    table: localTable.length > 0 ? localTable : globalTable,
    sizeBits: (localTable.length > 0 ? flags : gif[10]!) & 0x07,
    data: gif.subarray(start, position + 1),
  };
}

/**
 * A GIF put together frame by frame, each with the disposal method asked for (sharp's encoder
 * chooses its own), declaring transparency as screen recorders do.
 */
async function buildGif(width: number, height: number, frames: FrameSpec[]): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  const parts: Buffer[] = [header];
  for (const frame of frames) {
    const single = await sharp({
      create: { width: frame.width, height: frame.height, channels: 3, background: frame.colour },
    })
      .gif()
      .toBuffer();
    const { table, sizeBits, data } = splitGif(single);
    // Graphic control: the disposal, a transparent index no pixel uses, 100 ms.
    parts.push(Buffer.from([0x21, 0xf9, 4, (frame.disposal << 2) | 1, 10, 0, 255, 0]));
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(frame.left, 1);
    descriptor.writeUInt16LE(frame.top, 3);
    descriptor.writeUInt16LE(frame.width, 5);
    descriptor.writeUInt16LE(frame.height, 7);
    descriptor[9] = 0x80 | sizeBits;
    parts.push(descriptor, table, data);
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A full red frame, then a blue quarter in the top left corner drawn over what is left. */
const twoFrames = (disposal: number) =>
  buildGif(240, 240, [
    { colour: '#ff0000', width: 240, height: 240, left: 0, top: 0, disposal },
    { colour: '#0000ff', width: 120, height: 120, left: 0, top: 0, disposal: 1 },
  ]);

describe('isGifNeverCleared', () => {
  it('tells frames left in place from frames cleared to the background or the frame before', async () => {
    expect(isGifNeverCleared(await twoFrames(0))).toBe(true);
    expect(isGifNeverCleared(await twoFrames(1))).toBe(true);
    expect(isGifNeverCleared(await twoFrames(2))).toBe(false);
    expect(isGifNeverCleared(await twoFrames(3))).toBe(false);
  });

  it('answers false for what it cannot read', async () => {
    const gif = await twoFrames(1);
    expect(isGifNeverCleared(gif.subarray(0, gif.length - 20))).toBe(false);
    const unknownBlock = Buffer.from(gif);
    unknownBlock[13] = 0x99;
    expect(isGifNeverCleared(unknownBlock)).toBe(false);
    expect(isGifNeverCleared(Buffer.from('RIFF0000WEBPVP8 '))).toBe(false);
    expect(isGifNeverCleared(Buffer.alloc(0))).toBe(false);
  });
});

describe('extractFirstGifFrame', () => {
  const decodeFirst = (gif: Buffer) =>
    sharp(gif, { pages: 1 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

  it('copies a GIF’s first frame into a GIF of its own, the same picture', async () => {
    for (const disposal of [1, 2]) {
      const gif = await twoFrames(disposal);
      const still = extractFirstGifFrame(gif)!;
      expect(still.length).toBeLessThan(gif.length);
      const metadata = await sharp(still).metadata();
      expect([metadata.format, metadata.width, metadata.height, metadata.pages ?? 1]).toEqual([
        'gif',
        240,
        240,
        1,
      ]);
      const [copied, decoded] = await Promise.all([decodeFirst(still), decodeFirst(gif)]);
      expect(copied.data.equals(decoded.data)).toBe(true);
    }
  });

  it('copies nothing when the first frame does not cover the screen, or the file is unreadable', async () => {
    const partial = await buildGif(240, 240, [
      { colour: '#ff0000', width: 120, height: 240, left: 0, top: 0, disposal: 1 },
      { colour: '#0000ff', width: 240, height: 240, left: 0, top: 0, disposal: 1 },
    ]);
    expect(extractFirstGifFrame(partial)).toBeUndefined();
    const gif = await twoFrames(1);
    expect(extractFirstGifFrame(gif.subarray(0, 40))).toBeUndefined();
    expect(extractFirstGifFrame(Buffer.from('not a gif at all'))).toBeUndefined();
  });
});

describe('tiles of GIFs that declare transparency', () => {
  const workDir = useTempDir('sticky-gif-disposal-');

  /** The RGBA of the bottom right quarter's middle, frame by frame, in the 200 px WebP tile. */
  async function cornerOfTile(bytes: Buffer): Promise<number[][]> {
    const inspection = await inspectMedia(bytes, {
      maxBytes: 1 << 20,
      maxPixels: 1 << 20,
      maxFrames: 10,
      maxDurationMs: 10_000,
    });
    if (!inspection.ok) throw new Error(inspection.reason);
    const files = await new MediaRenderer(bytes, {
      info: inspection.info,
      outputDir: fs.mkdtempSync(path.join(workDir(), 'item-')),
      isTransparent: false,
      phase: 'ready',
      parallelism: 2,
    }).render();
    const tile = files.find((file) => file.name === 'fixed_width' && file.format === 'webp')!;
    const { data, info } = await sharp(tile.file, { animated: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const height = info.pageHeight ?? info.height;
    const frameBytes = info.width * height * 4;
    return Array.from({ length: data.length / frameBytes }, (_, frame) => {
      const offset = frame * frameBytes + (Math.floor(height * 0.75) * info.width + 150) * 4;
      return [...data.subarray(offset, offset + 4)];
    });
  }

  it('keeps every frame of a recording too long to decode at once, and its time', async () => {
    // 48 frames of 1200 × 600 (138 MB decoded): decoded in slices, as RGB (the first frame is
    // opaque, the others only add a square each), the slices after the first holding more.
    const frames: FrameSpec[] = [
      { colour: '#204060', width: 1200, height: 600, left: 0, top: 0, disposal: 1 },
      ...Array.from({ length: 47 }, (_, index) => ({
        colour: `#${(40 + index * 4).toString(16)}c0${(200 - index * 3).toString(16)}`,
        width: 60,
        height: 60,
        left: 20 + index * 24,
        top: 270,
        disposal: 1,
      })),
    ];
    const bytes = await buildGif(1200, 600, frames);
    const inspection = await inspectMedia(bytes, {
      maxBytes: 1 << 24,
      maxPixels: 1 << 24,
      maxFrames: 100,
      maxDurationMs: 60_000,
    });
    if (!inspection.ok) throw new Error(inspection.reason);
    const ffmpegPath = resolveFfmpegPath();
    const files = await new MediaRenderer(bytes, {
      info: inspection.info,
      outputDir: fs.mkdtempSync(path.join(workDir(), 'item-')),
      isTransparent: false,
      ffmpegPath,
      phase: 'ready',
      parallelism: 2,
    }).render();
    // The ready tier's one tile (rendition-plan.ts); fixed_height comes later.
    for (const name of ['fixed_width']) {
      const tile = files.find((file) => file.name === name && file.format === 'webp')!;
      const metadata = await sharp(tile.file, { animated: true }).metadata();
      expect(metadata.pages, name).toBe(48);
      expect(
        (metadata.delay ?? []).reduce((sum, delay) => sum + delay, 0),
        name,
      ).toBe(4800);
      if (ffmpegPath) {
        const mp4 = files.find((file) => file.name === name && file.format === 'mp4')!;
        expect(summarizeMp4(fs.readFileSync(mp4.file)).durationMs, name).toBe(4800);
      }
    }
  });

  it('keeps the hole a frame cleared to the background leaves', async () => {
    const [first, second] = await cornerOfTile(await twoFrames(2));
    expect(first![3]).toBe(255);
    expect(second![3]).toBeLessThan(16);
  });

  it('shows what a frame left in place keeps, opaque', async () => {
    const [first, second] = await cornerOfTile(await twoFrames(1));
    for (const pixel of [first!, second!]) {
      expect(pixel[3]).toBe(255);
      expect(pixel[0]).toBeGreaterThan(200);
      expect(pixel[2]).toBeLessThan(60);
    }
  });
});
