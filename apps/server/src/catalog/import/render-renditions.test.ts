import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeVideoFrames,
  makeAnimation,
  pixelAt,
  summarizeMp4,
} from '../../test-support/media.ts';
import { readH264Config, recordFfmpegCalls } from '../../test-support/video-checks.ts';
import type { FfmpegCall } from '../../test-support/video-checks.ts';
import { planTimeline, playedDelayMs, resolveFfmpegPath } from './encode-video.ts';
import { inspectMedia } from './inspect-media.ts';
import type { MediaInfo } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import type { RenderedFile } from './render-renditions.ts';
import { planRenditions } from './rendition-plan.ts';
import type { RenderPhase } from './rendition-plan.ts';
import { useTempDir } from '../../test-support/files.ts';

const limits = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 4096 * 4096,
  maxFrames: 2000,
  maxDurationMs: 600_000,
};

const ffmpegPath = resolveFfmpegPath();

interface Rendered {
  bytes: Buffer;
  info: MediaInfo;
  isTransparent: boolean;
  files: RenderedFile[];
}

const workDir = useTempDir('sticky-renditions-');
/** ffmpeg as the renderer runs it, each call written down (test-support/video-checks.ts). */
let recorder: { ffmpegPath: string; readCalls: () => FfmpegCall[] } | undefined;

async function render(
  bytes: Buffer,
  isTransparent: boolean,
  phase: RenderPhase = 'all',
  ffmpeg: string | null | undefined = recorder?.ffmpegPath ?? ffmpegPath,
): Promise<Rendered> {
  const inspection = await inspectMedia(bytes, limits);
  if (!inspection.ok) throw new Error(inspection.reason);
  const outputDir = fs.mkdtempSync(path.join(workDir(), 'item-'));
  const files = await new MediaRenderer(bytes, {
    info: inspection.info,
    outputDir,
    isTransparent,
    ffmpegPath: ffmpeg ?? undefined,
    phase,
  }).render();
  return { bytes, info: inspection.info, isTransparent, files };
}

function find(rendered: Rendered, name: string, format: string): RenderedFile {
  const file = rendered.files.find((entry) => entry.name === name && entry.format === format);
  if (!file) throw new Error(`no ${name}.${format}`);
  return file;
}

const playedMs = (delays: readonly number[]) =>
  delays.reduce((sum, delay) => sum + playedDelayMs(delay), 0);

/**
 * 2.5 s of noise, 200 × 150: the heaviest a video gets for its size, so a preview of it cannot
 * come out near 50 KB without being cut short and made smaller.
 */
async function makeNoiseAnimation(width: number, height: number, frames: number) {
  let state = 7;
  const raw = Buffer.alloc(width * height * frames * 4, 255);
  for (let offset = 0; offset < raw.length; offset += 1) {
    if (offset % 4 === 3) continue;
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    raw[offset] = state >>> 24;
  }
  return sharp(raw, {
    raw: { width, height: height * frames, channels: 4, pageHeight: height },
  } as SharpOptions)
    .gif({ delay: Array<number>(frames).fill(100) })
    .toBuffer();
}

describe('MediaRenderer', () => {
  const items = new Map<string, Rendered>();
  const item = (name: string) => items.get(name)!;

  beforeAll(async () => {
    recorder = recordFfmpegCalls(ffmpegPath!, workDir());
    // A landscape GIF larger than every tile, a sticker, a small WebP sticker, odd timings, a still.
    items.set(
      'gif',
      await render(await makeAnimation({ frames: 12, width: 320, height: 181 }), false),
    );
    items.set(
      'sticker',
      await render(await makeAnimation({ frames: 10, width: 240, isTransparent: true }), true),
    );
    items.set(
      'webp sticker',
      await render(
        await makeAnimation({
          frames: 6,
          width: 160,
          height: 120,
          isTransparent: true,
          format: 'webp',
        }),
        true,
      ),
    );
    items.set(
      'timing',
      await render(
        await makeAnimation({ frames: 4, width: 64, delays: [1000, 1000, 100, 1000], loop: 2 }),
        false,
      ),
    );
    const still = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 200, b: 90 } },
    })
      .png()
      .toBuffer();
    items.set('still', await render(still, false));
    items.set('long noise', await render(await makeNoiseAnimation(200, 150, 25), false));
  }, 240_000);

  it('finds ffmpeg in the installed package', () => {
    expect(ffmpegPath).toMatch(/@ffmpeg-installer\/.+\/ffmpeg$/);
  });

  it.each(['gif', 'sticker', 'webp sticker', 'timing', 'still'])(
    '%s: makes exactly the planned renditions, each file as declared',
    async (name) => {
      const rendered = item(name);
      const planned = planRenditions({
        sourceFormat: rendered.info.format,
        isAnimated: rendered.info.frames > 1,
        isTransparent: rendered.isTransparent,
      }).map((entry) => `${entry.name}.${entry.format}`);
      expect(rendered.files.map((file) => `${file.name}.${file.format}`).sort()).toEqual(
        planned.sort(),
      );
      for (const file of rendered.files) {
        const label = `${file.name}.${file.format}`;
        const data = fs.readFileSync(file.file);
        expect(data.length, label).toBe(file.bytes);
        expect(createHash('sha256').update(data).digest('hex'), label).toBe(file.sha256);
        if (file.format === 'mp4') {
          expect(summarizeMp4(data).samples, label).toBe(file.frames);
          continue;
        }
        if (file.format === 'webm') {
          const frames = decodeVideoFrames(ffmpegPath!, file.file, file);
          expect(frames.length, label).toBe(file.frames);
          continue;
        }
        const metadata = await sharp(data, { animated: true }).metadata();
        expect(metadata.format, label).toBe(file.format);
        expect([metadata.width, metadata.pageHeight ?? metadata.height], label).toEqual([
          file.width,
          file.height,
        ]);
        expect(metadata.pages ?? 1, label).toBe(file.frames);
      }
    },
  );

  it('sizes every rendition as GIPHY (and Tenor, for tiny and nano) does', () => {
    const rendered = item('gif');
    const { width, height } = rendered.info;
    // Never larger than the original.
    const byWidth = (target: number) => ({
      width: Math.min(target, width),
      height: Math.round((height * Math.min(target, width)) / width),
    });
    const byHeight = (target: number) => ({
      width: Math.round((width * Math.min(target, height)) / height),
      height: Math.min(target, height),
    });
    const even = (size: { width: number; height: number }) => ({
      width: size.width - (size.width % 2),
      height: size.height - (size.height % 2),
    });
    const expected: Record<string, { width: number; height: number }> = {
      original: { width, height },
      fixed_width: byWidth(200),
      fixed_width_small: byWidth(100),
      fixed_width_downsampled: byWidth(200),
      fixed_height: byHeight(200),
      fixed_height_small: byHeight(100),
      fixed_height_downsampled: byHeight(200),
      tiny: byWidth(220),
      nano: byHeight(90),
    };
    for (const [name, size] of Object.entries(expected)) {
      for (const file of rendered.files.filter((entry) => entry.name === name)) {
        const label = `${name}.${file.format}`;
        const isVideo = file.format === 'mp4' || file.format === 'webm';
        expect({ width: file.width, height: file.height }, label).toEqual(
          isVideo ? even(size) : size,
        );
        // Stills are the first frame at their rendition's size.
        const still = rendered.files.find((entry) => entry.name === `${name}_still`);
        if (still && !isVideo) expect({ width: still.width, height: still.height }).toEqual(size);
      }
    }
    // Tiles never grow a file smaller than them: the 160 px sticker stays 160 px wide.
    expect(find(item('webp sticker'), 'fixed_width', 'webp')).toMatchObject({
      width: 160,
      height: 120,
    });
    expect(find(item('webp sticker'), 'fixed_height', 'webp')).toMatchObject({
      width: 160,
      height: 120,
    });
  });

  it('keeps every frame, the timing and the loop count in GIF and WebP renditions', async () => {
    for (const name of ['gif', 'sticker', 'timing']) {
      const rendered = item(name);
      for (const file of rendered.files) {
        if (file.format !== 'gif' && file.format !== 'webp') continue;
        if (file.name.endsWith('_still') || file.name.startsWith('preview')) continue;
        const label = `${name} ${file.name}.${file.format}`;
        const metadata = await sharp(file.file, { animated: true }).metadata();
        const delays = metadata.delay ?? [];
        const total = delays.reduce((sum, delay) => sum + delay, 0);
        if (file.name.endsWith('_downsampled')) {
          // Six frames spread over the loop, which keeps its length.
          expect(file.frames, label).toBeLessThanOrEqual(6);
          expect(file.frames, label).toBeGreaterThan(1);
          expect(Math.abs(total - rendered.info.durationMs), label).toBeLessThanOrEqual(60);
        } else {
          // Every source frame differs from the one before: none may be lost.
          expect(file.frames, label).toBe(rendered.info.frames);
          expect(delays, label).toEqual(rendered.info.delays);
        }
        if (file.format === 'gif') expect(metadata.loop, label).toBe(rendered.info.loop);
      }
    }
    expect(item('timing').info.loop).toBe(2);
  });

  it('makes stills of one frame and previews of about two seconds', async () => {
    const rendered = item('gif');
    for (const file of rendered.files.filter((entry) => entry.name.endsWith('_still'))) {
      expect(file.frames, file.name).toBe(1);
    }
    const preview = find(rendered, 'preview_gif', 'gif');
    const delays = (await sharp(preview.file, { animated: true }).metadata()).delay ?? [];
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThanOrEqual(Math.min(2000, rendered.info.durationMs));
    expect(total).toBeLessThanOrEqual(2000 + 60);
    expect(find(rendered, 'preview_webp', 'webp').frames).toBe(preview.frames);
  });

  it('makes MP4s that browsers stream and loop: ftyp, moov before mdat, one video track, the timing kept', () => {
    const rendered = item('gif');
    const played = playedMs(rendered.info.delays);
    const mp4s = rendered.files.filter((file) => file.format === 'mp4');
    expect(mp4s.map((file) => file.name).sort()).toEqual(
      [
        'downsized_small',
        'fixed_height',
        'fixed_height_small',
        'fixed_width',
        'fixed_width_small',
        'looping',
        'nano',
        'original',
        'preview',
        'tiny',
      ].sort(),
    );
    for (const file of mp4s) {
      const summary = summarizeMp4(fs.readFileSync(file.file));
      expect(summary.topLevel[0], file.name).toBe('ftyp');
      expect(summary.topLevel.indexOf('moov'), file.name).toBeLessThan(
        summary.topLevel.indexOf('mdat'),
      );
      // No audio track: only video.
      expect(summary.tracks, file.name).toEqual(['vide']);
      if (file.name === 'looping') {
        // Whole loops, at least 15 s of them.
        expect(summary.durationMs).toBeGreaterThanOrEqual(15_000);
        expect(summary.durationMs % played).toBeLessThan(1);
      } else if (file.name === 'preview') {
        expect(summary.durationMs).toBeLessThanOrEqual(Math.min(played, 2000) + 60);
      } else {
        expect(Math.abs(summary.durationMs - played), file.name).toBeLessThan(1);
      }
    }
  });

  it('keeps odd frame timings in the MP4: 1 s, 1 s, 0.1 s, 1 s', () => {
    const rendered = item('timing');
    const mp4 = find(rendered, 'fixed_width', 'mp4');
    const summary = summarizeMp4(fs.readFileSync(mp4.file));
    expect(summary.durationMs).toBe(3100);
    const { unitMs, sequence } = planTimeline(rendered.info.delays);
    expect(unitMs).toBe(100);
    expect(summary.samples).toBe(sequence.length);
    // Each source frame shows for its own time: 10, 10, 1 and 10 steps of 100 ms.
    const runs = sequence.reduce<number[]>((counts, frame) => {
      counts[frame] = (counts[frame] ?? 0) + 1;
      return counts;
    }, []);
    expect(runs).toEqual([10, 10, 1, 10]);
    // And the decoded video really changes picture at those steps.
    const frames = decodeVideoFrames(ffmpegPath!, mp4.file, mp4);
    expect(frames).toHaveLength(31);
    const [red] = pixelAt(frames[0]!, mp4.width, 1, 1);
    expect(Math.abs(pixelAt(frames[9]!, mp4.width, 1, 1)[0] - red)).toBeLessThan(12);
    expect(Math.abs(pixelAt(frames[10]!, mp4.width, 1, 1)[0] - red)).toBeGreaterThan(20);
  });

  it('makes a preview MP4 of the first one to two seconds, about 50 KB, of a longer source', () => {
    for (const name of ['long noise', 'timing']) {
      const rendered = item(name);
      expect(playedMs(rendered.info.delays), name).toBeGreaterThan(2000);
      const preview = find(rendered, 'preview', 'mp4');
      const summary = summarizeMp4(fs.readFileSync(preview.file));
      expect(summary.durationMs, name).toBeGreaterThanOrEqual(1000);
      expect(summary.durationMs, name).toBeLessThanOrEqual(2000);
      // GIPHY's previews are "about 50 KB" (docs/api.md, "Renditions"): the renderer aims at
      // 50 KiB and keeps an attempt up to half again as heavy, so 75 KiB is the most "about" means.
      expect(preview.bytes, name).toBeLessThanOrEqual(75 * 1024);
    }
    // Not met by chance: the noise at tile size and full length weighs several times the bound.
    expect(find(item('long noise'), 'fixed_width', 'mp4').bytes).toBeGreaterThan(3 * 75 * 1024);
  });

  it('makes every MP4 H.264 (an avc1 sample entry) in yuv420p', () => {
    const mp4s = [...items.values()].flatMap((rendered) =>
      rendered.files.filter((file) => file.format === 'mp4'),
    );
    expect(mp4s.length).toBeGreaterThan(10);
    for (const file of mp4s) {
      expect(readH264Config(fs.readFileSync(file.file)), file.name).toMatchObject({
        sampleEntry: 'avc1',
        chromaFormatIdc: 1,
        bitDepthLuma: 8,
        bitDepthChroma: 8,
      });
    }
  });

  it('never hands ffmpeg the source: every run reads raw frames from its stdin', async () => {
    // The source as an upload leaves it on disk: no run of ffmpeg may name it.
    const upload = path.join(workDir(), 'upload.gif');
    const bytes = await makeAnimation({ frames: 4, width: 40, isTransparent: true });
    fs.writeFileSync(upload, bytes);
    await render(fs.readFileSync(upload), true);
    const calls = recorder!.readCalls();
    const codecs = new Set(calls.map(({ args }) => args[args.indexOf('-c:v') + 1]));
    expect([...codecs].sort()).toEqual(['libvpx-vp9', 'libx264']);
    for (const { args } of calls) {
      const inputs = args.flatMap((arg, index) => (arg === '-i' ? [args[index + 1]] : []));
      expect(inputs).toEqual(['pipe:0']);
      // Raw pixels (RGBA, or RGB for a video with no alpha): no container for a demuxer to parse.
      expect(args.slice(0, args.indexOf('-i')).join(' ')).toMatch(
        /-f rawvideo -pix_fmt (rgba|rgb24) -s \d+x\d+/,
      );
      // The only paths are what ffmpeg writes: files in the item's own staging folder (the
      // video, or a WebM's colour and alpha streams, webm-mux.ts, and a first pass's logs
      // named after them).
      const paths = new Set(args.filter((arg) => path.isAbsolute(arg) || fs.existsSync(arg)));
      expect(paths.size).toBe(args.includes('rgba') && args.includes('libvpx-vp9') ? 2 : 1);
      for (const file of paths) expect(file.startsWith(`${workDir()}${path.sep}item-`)).toBe(true);
      expect(args).not.toContain(upload);
    }
  });

  it('gives stickers no H.264 (no alpha) and keeps their transparency in WebP, GIF and WebM', async () => {
    for (const name of ['sticker', 'webp sticker']) {
      const rendered = item(name);
      expect(rendered.files.filter((file) => file.format === 'mp4')).toEqual([]);
      const webp = find(rendered, 'fixed_width', 'webp');
      const gif = find(rendered, 'fixed_width', 'gif');
      for (const file of [webp, gif]) {
        const { data, info } = await sharp(file.file, { pages: 1 })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const label = `${name} ${file.name}.${file.format}`;
        expect(pixelAt(data, info.width, 1, 1)[3], label).toBe(0);
        expect(
          pixelAt(data, info.width, Math.floor(info.width / 2), Math.floor(info.height / 2))[3],
          label,
        ).toBe(255);
      }
      const webm = find(rendered, 'fixed_width', 'webm');
      const frames = decodeVideoFrames(ffmpegPath!, webm.file, webm);
      expect(frames.length).toBeGreaterThan(1);
      const middle = [Math.floor(webm.width / 2), Math.floor(webm.height / 2)] as const;
      expect(pixelAt(frames[0]!, webm.width, 1, 1)[3], name).toBeLessThan(16);
      expect(pixelAt(frames[0]!, webm.width, ...middle)[3], name).toBeGreaterThan(240);
    }
  });

  it('gives a GIF’s grid tile, and only it, an opaque VP9 WebM showing what its MP4 shows', () => {
    const rendered = item('gif');
    expect(
      rendered.files.filter((file) => file.format === 'webm').map((file) => file.name),
    ).toEqual(['fixed_width']);
    const webm = find(rendered, 'fixed_width', 'webm');
    const mp4 = find(rendered, 'fixed_width', 'mp4');
    expect({ width: webm.width, height: webm.height, frames: webm.frames }).toEqual({
      width: mp4.width,
      height: mp4.height,
      frames: mp4.frames,
    });
    const data = fs.readFileSync(webm.file);
    // A WebM (EBML) with one VP9 track and no alpha channel.
    expect([...data.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    expect(data.includes('V_VP9')).toBe(true);
    expect(data.includes(Buffer.from([0x53, 0xc0]))).toBe(false); // AlphaMode
    const webmFrames = decodeVideoFrames(ffmpegPath!, webm.file, webm);
    const mp4Frames = decodeVideoFrames(ffmpegPath!, mp4.file, mp4);
    expect(webmFrames.length).toBe(mp4Frames.length);
    for (const index of [0, Math.floor(webmFrames.length / 2), webmFrames.length - 1]) {
      for (const [x, y] of [
        [2, 2],
        [webm.width / 2, webm.height / 2],
      ] as const) {
        const shown = pixelAt(webmFrames[index]!, webm.width, x, y);
        const expected = pixelAt(mp4Frames[index]!, mp4.width, x, y);
        expect(shown[3]).toBe(255);
        for (const channel of [0, 1, 2]) {
          expect(Math.abs(shown[channel]! - expected[channel]!), `frame ${index}`).toBeLessThan(24);
        }
      }
    }
  });

  it('shows a GIF with holes on black in its MP4 and its WebM, the picture intact', async () => {
    const rendered = await render(
      await makeAnimation({ frames: 4, width: 64, isTransparent: true }),
      false,
      'all',
    );
    for (const video of [
      find(rendered, 'fixed_width', 'mp4'),
      find(rendered, 'fixed_width', 'webm'),
    ]) {
      const label = video.format;
      const frames = decodeVideoFrames(ffmpegPath!, video.file, video);
      expect(frames.length, label).toBe(video.frames);
      // On black, not see-through: a GIF's WebM has no alpha stream, as its MP4 has none.
      const [r, g, b, alpha] = pixelAt(frames[0]!, video.width, 1, 1);
      expect(Math.max(r, g, b), label).toBeLessThan(24);
      expect(alpha, label).toBe(255);
      // The moving square's yellow is in the middle of every frame.
      const [mr, mg, mb] = pixelAt(frames[0]!, video.width, video.width / 2, video.height / 2);
      expect(mr, label).toBeGreaterThan(200);
      expect(mg, label).toBeGreaterThan(180);
      expect(mb, label).toBeLessThan(80);
    }
    const webm = fs.readFileSync(find(rendered, 'fixed_width', 'webm').file);
    expect(webm.includes(Buffer.from([0x53, 0xc0]))).toBe(false); // AlphaMode
  });

  it('splits the renditions into what an item needs to be shown and what can come later', async () => {
    const bytes = await makeAnimation({ frames: 5, width: 90, height: 70 });
    const ready = await render(bytes, false, 'ready');
    const later = await render(bytes, false, 'later');
    const all = await render(bytes, false, 'all');
    const names = (rendered: Rendered) =>
      rendered.files.map((file) => `${file.name}.${file.format}`).sort();
    expect(names(ready)).toEqual(
      [
        'original.gif',
        'original_still.gif',
        'original_still.webp',
        'fixed_width.webp',
        'fixed_width.mp4',
        'fixed_width_still.gif',
        'fixed_width_still.webp',
      ].sort(),
    );
    expect(names(later).filter((name) => names(ready).includes(name))).toEqual([]);
    expect([...names(ready), ...names(later)].sort()).toEqual(names(all));
  });

  it('makes no video without ffmpeg, and everything else still', async () => {
    const rendered = await render(
      await makeAnimation({ frames: 3, width: 40 }),
      false,
      'all',
      null,
    );
    expect(
      rendered.files.filter((file) => file.format === 'mp4' || file.format === 'webm'),
    ).toEqual([]);
    expect(
      rendered.files.some((file) => file.name === 'fixed_width' && file.format === 'gif'),
    ).toBe(true);
  });

  it('never keeps a WebP tile heavier than the original when lossless is lighter (1-bit art)', async () => {
    // Black and white, few changes: GIF's LZW packs it tightly, lossy VP8 does not.
    const frames = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        sharp({
          create: { width: 400, height: 300, channels: 3, background: { r: 255, g: 255, b: 255 } },
        })
          .composite([
            {
              input: {
                create: { width: 30, height: 30, channels: 3, background: { r: 0, g: 0, b: 0 } },
              },
              left: 20 + index * 40,
              top: 100,
            },
          ])
          .png()
          .toBuffer(),
      ),
    );
    const bytes = await sharp(frames, { join: { animated: true } })
      .gif({ delay: Array(6).fill(100), colours: 2 })
      .toBuffer();
    const rendered = await render(bytes, false, 'ready');
    for (const file of rendered.files.filter((entry) => entry.format === 'webp')) {
      expect(file.bytes, file.name).toBeLessThanOrEqual(bytes.length);
    }
  });
});
