import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeVideoFrames, makeAnimation, pixelAt } from '../../test-support/media.ts';
import { resolveFfmpegPath } from './encode-video.ts';
import { inspectMedia } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import type { RenderedFile } from './render-renditions.ts';
import { useTempDir } from '../../test-support/files.ts';

const limits = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 4096 * 4096,
  maxFrames: 2000,
  maxDurationMs: 600_000,
};
const ffmpegPath = resolveFfmpegPath();

const workDir = useTempDir('sticky-ready-');

async function renderReady(
  bytes: Buffer,
  options: { isTransparent: boolean; parallelism?: number },
): Promise<RenderedFile[]> {
  const inspection = await inspectMedia(bytes, limits);
  if (!inspection.ok) throw new Error(inspection.reason);
  return new MediaRenderer(bytes, {
    info: inspection.info,
    outputDir: fs.mkdtempSync(path.join(workDir(), 'item-')),
    isTransparent: options.isTransparent,
    ffmpegPath,
    phase: 'ready',
    parallelism: options.parallelism,
  }).render();
}

function find(files: readonly RenderedFile[], name: string, format: string): RenderedFile {
  const file = files.find((entry) => entry.name === name && entry.format === format);
  if (!file) throw new Error(`no ${name}.${format}`);
  return file;
}

/** The alpha of the middle pixel of each frame of a rendered WebP. */
async function middleAlphas(file: RenderedFile): Promise<number[]> {
  const { data, info } = await sharp(file.file, { animated: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const height = info.pageHeight ?? info.height;
  const frameBytes = info.width * height * 4;
  return Array.from({ length: data.length / frameBytes }, (_, frame) => {
    const pixel = frame * frameBytes + (Math.floor(height / 2) * info.width + info.width / 2) * 4;
    return data[pixel + 3]!;
  });
}

/**
 * Five opaque frames, then one with a transparent square in the middle: transparency that only
 * a late frame shows (an animated WebP keeps it; GIF's frames would show the one before).
 */
async function makeLateHole(size: number): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: 6 }, (_, index) => {
      const frame = sharp({
        create: {
          width: size,
          height: size,
          channels: 4,
          background: { r: 40 + index * 30, g: 120, b: 200, alpha: 1 },
        },
      });
      const hole = Math.round(size * 0.4);
      return (
        index === 5
          ? frame.composite([
              {
                input: {
                  create: { width: hole, height: hole, channels: 4, background: '#000000' },
                },
                left: Math.round((size - hole) / 2),
                top: Math.round((size - hole) / 2),
                blend: 'dest-out',
              },
            ])
          : frame
      )
        .png()
        .toBuffer();
    }),
  );
  return sharp(frames, { join: { animated: true } })
    .webp({ delay: Array<number>(6).fill(100), lossless: true })
    .toBuffer();
}

describe('the ready tier', () => {
  it('keeps transparency that only a late frame shows, in every tile made from it', async () => {
    // 320 px: the tiles are resized from it; 120 px: they are the decoded frames as they are.
    for (const size of [320, 120]) {
      const bytes = await makeLateHole(size);
      for (const isTransparent of [true, false]) {
        const label = `${size} px, ${isTransparent ? 'sticker' : 'gif'}`;
        const files = await renderReady(bytes, { isTransparent, parallelism: 2 });
        for (const name of ['fixed_width']) {
          expect(await middleAlphas(find(files, name, 'webp')), `${label} ${name}`).toEqual([
            255, 255, 255, 255, 255, 0,
          ]);
        }
        if (!isTransparent && ffmpegPath) {
          // H.264 has no alpha: the hole is black in the MP4, the frames before are not.
          const mp4 = find(files, 'fixed_width', 'mp4');
          const frames = decodeVideoFrames(ffmpegPath, mp4.file, mp4);
          const middle = (frame: Buffer) =>
            pixelAt(frame, mp4.width, mp4.width / 2, Math.floor(mp4.height / 2)).slice(0, 3);
          expect(Math.max(...middle(frames[0]!)), label).toBeGreaterThan(100);
          expect(Math.max(...middle(frames.at(-1)!)), label).toBeLessThan(24);
        }
      }
    }
  });

  it('makes the same files two renditions at a time as one after another', async () => {
    const cases = [
      { bytes: await makeAnimation({ frames: 8, width: 300, height: 120 }), isTransparent: false },
      {
        bytes: await makeAnimation({ frames: 6, width: 256, isTransparent: true }),
        isTransparent: true,
      },
    ];
    for (const { bytes, isTransparent } of cases) {
      const summary = (files: RenderedFile[]) =>
        files.map(({ name, format, width, height, frames, bytes: size, sha256 }) => ({
          name,
          format,
          width,
          height,
          frames,
          size,
          sha256,
        }));
      const oneByOne = await renderReady(bytes, { isTransparent, parallelism: 1 });
      const twoAtATime = await renderReady(bytes, { isTransparent, parallelism: 2 });
      expect(summary(twoAtATime)).toEqual(summary(oneByOne));
      // Every file is there, whole, under the name it is listed with.
      for (const file of twoAtATime) {
        expect(fs.statSync(file.file).size, file.name).toBe(file.bytes);
      }
    }
  });
});
