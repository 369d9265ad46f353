import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectMedia } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import type { RenderedFile } from './render-renditions.ts';

const gifsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../shared/data/gifs',
);
const hasGifs = fs.existsSync(path.join(gifsDir, 'manifest.json'));

const limits = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 4096 * 4096,
  maxFrames: 2000,
  maxDurationMs: 600_000,
};

interface Rendered {
  bytes: Buffer;
  files: RenderedFile[];
  frames: number;
  durationMs: number;
}

let workDir: string;

async function renderFile(
  file: string,
  isSticker: boolean,
  bytes = fs.readFileSync(path.join(gifsDir, file)),
): Promise<Rendered> {
  const inspection = await inspectMedia(bytes, limits);
  if (!inspection.ok) throw new Error(inspection.reason);
  const outputDir = fs.mkdtempSync(path.join(workDir, 'item-'));
  const files = await new MediaRenderer(bytes, {
    info: inspection.info,
    outputDir,
    isTransparent: isSticker,
  }).renderAll();
  return {
    bytes,
    files,
    frames: inspection.info.frames,
    durationMs: inspection.info.durationMs,
  };
}

function find(rendered: Rendered, name: string, format: string): RenderedFile {
  const file = rendered.files.find((entry) => entry.name === name && entry.format === format);
  if (!file) throw new Error(`no ${name}.${format}`);
  return file;
}

/** Share of fully transparent pixels in a file's first frame. */
async function transparentShare(file: string): Promise<number> {
  const { data, info } = await sharp(file, { pages: 1 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let transparent = 0;
  for (let index = 3; index < data.length; index += 4) if (data[index] === 0) transparent += 1;
  return transparent / (info.width * info.height);
}

// Representative of the catalog's stickers: a 256 px lossy WebP (Fluent) and a 512 px GIF (Noto).
const stickers = [
  { file: 'fluent-alien-1f47d.webp', width: 256, transparent: 0.3, maxShare: 1 },
  { file: 'noto-grinning-face-1f600.gif', width: 512, transparent: 0.3, maxShare: 0.25 },
];

describe.skipIf(!hasGifs)('MediaRenderer on stickers', () => {
  const rendered = new Map<string, Rendered>();

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-renditions-'));
    for (const sticker of stickers)
      rendered.set(sticker.file, await renderFile(sticker.file, true));
    for (const file of ['vhs-bubbletea-spinner.gif', 'wikimedia-analog-clock-1bpp.gif']) {
      rendered.set(file, await renderFile(file, false));
    }
    // The starter catalog's stickers are 200 px GIFs: the grid's size is the original's.
    const small = await sharp(path.join(gifsDir, 'noto-grinning-face-1f600.gif'), {
      animated: true,
    })
      .resize({ width: 200 })
      .gif()
      .toBuffer();
    rendered.set('200 px GIF', await renderFile('200 px GIF', true, small));
  }, 300_000);
  afterAll(() => {
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it.each(stickers)(
    '$file: the 200 px WebP the grid shows is smaller than the original and keeps alpha',
    async ({ file, width, transparent, maxShare }) => {
      const item = rendered.get(file)!;
      const fixedWidth = find(item, 'fixed_width', 'webp');
      expect(fixedWidth).toMatchObject({ width: 200, height: 200 });
      expect(200).toBeLessThan(width);
      expect(fixedWidth.bytes).toBeLessThan(item.bytes.length * maxShare);
      const metadata = await sharp(fixedWidth.file, { animated: true }).metadata();
      expect(metadata.hasAlpha).toBe(true);
      expect(await transparentShare(fixedWidth.file)).toBeGreaterThan(transparent);
    },
  );

  it.each(stickers)('$file: every scaled WebP is smaller than the original', ({ file }) => {
    const item = rendered.get(file)!;
    const scaled = item.files.filter(
      (entry) => entry.format === 'webp' && entry.name !== 'original',
    );
    expect(scaled.length).toBeGreaterThanOrEqual(7);
    for (const entry of scaled) {
      expect(entry.bytes, `${entry.name}.webp`).toBeLessThan(item.bytes.length);
    }
  });

  it.each(stickers)('$file: the small renditions keep the animation', async ({ file }) => {
    const item = rendered.get(file)!;
    for (const name of ['fixed_width', 'fixed_width_small', 'fixed_height']) {
      for (const format of ['gif', 'webp']) {
        const entry = find(item, name, format);
        const metadata = await sharp(entry.file, { animated: true }).metadata();
        // Identical consecutive frames are merged, so never more frames, but still an animation.
        expect(entry.frames, `${name}.${format}`).toBeGreaterThan(1);
        expect(entry.frames, `${name}.${format}`).toBeLessThanOrEqual(item.frames);
        const duration = (metadata.delay ?? []).reduce((sum, delay) => sum + delay, 0);
        expect(Math.abs(duration - item.durationMs), `${name}.${format}`).toBeLessThanOrEqual(
          item.frames * 10,
        );
      }
    }
  });

  it('declares each file exactly as it is: size, frames, bytes and hash', async () => {
    for (const item of rendered.values()) {
      for (const entry of item.files) {
        const label = `${entry.name}.${entry.format}`;
        const data = fs.readFileSync(entry.file);
        expect(data.length, label).toBe(entry.bytes);
        expect(createHash('sha256').update(data).digest('hex'), label).toBe(entry.sha256);
        const metadata = await sharp(data, { animated: true, limitInputPixels: false }).metadata();
        expect(metadata.format, label).toBe(entry.format);
        expect(metadata.width, label).toBe(entry.width);
        expect(metadata.pageHeight ?? metadata.height, label).toBe(entry.height);
        expect(metadata.pages ?? 1, label).toBe(entry.frames);
      }
    }
  });

  it('gives a 200 px GIF sticker its own light WebP for the grid, and reuses its GIF', () => {
    const item = rendered.get('200 px GIF')!;
    const originalGif = find(item, 'original', 'gif');
    const fixedWidthGif = find(item, 'fixed_width', 'gif');
    expect(fixedWidthGif.sha256).toBe(originalGif.sha256);
    const originalWebp = find(item, 'original', 'webp');
    const fixedWidthWebp = find(item, 'fixed_width', 'webp');
    expect(fixedWidthWebp).toMatchObject({ width: 200, height: 200 });
    expect(fixedWidthWebp.bytes).toBeLessThan(originalWebp.bytes * 0.8);
    expect(fixedWidthWebp.bytes).toBeLessThan(item.bytes.length * 0.6);
  });

  it('never keeps a WebP heavier than the original when lossless is lighter (1-bit art)', () => {
    const item = rendered.get('wikimedia-analog-clock-1bpp.gif')!;
    for (const entry of item.files.filter((file) => file.format === 'webp')) {
      expect(entry.bytes, `${entry.name}.webp`).toBeLessThanOrEqual(item.bytes.length);
    }
  });

  it('makes lossy GIFs: a terminal recording at 200 px is well under its original', () => {
    const item = rendered.get('vhs-bubbletea-spinner.gif')!;
    const fixedWidth = find(item, 'fixed_width', 'gif');
    expect(fixedWidth.width).toBe(200);
    expect(fixedWidth.bytes).toBeLessThan(item.bytes.length * 0.5);
  });
});

describe.skipIf(hasGifs)('MediaRenderer on stickers', () => {
  it('is skipped: ../shared/data/gifs is absent', () => {});
});
