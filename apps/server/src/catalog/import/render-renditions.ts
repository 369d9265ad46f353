import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import type { MediaFormat } from '../media-paths.ts';
import type { MediaInfo } from './inspect-media.ts';

const run = promisify(execFile);

/** GIPHY's rendition names that we make (reference §2.2). */
export type RenditionName =
  | 'original'
  | 'original_still'
  | 'fixed_width'
  | 'fixed_width_still'
  | 'fixed_width_small'
  | 'fixed_height'
  | 'fixed_height_still'
  | 'downsized'
  | 'preview_gif';

export interface RenderedFile {
  name: RenditionName;
  format: MediaFormat;
  width: number;
  height: number;
  frames: number;
  bytes: number;
  sha256: string;
  /** Absolute path of the staged file (inside the import's temporary folder). */
  file: string;
}

export interface RenderOptions {
  info: MediaInfo;
  /** Staging folder for this import; every file is written and fsynced there. */
  outputDir: string;
  /** ffmpeg on PATH: MP4 renditions are made only when it is. */
  ffmpegPath?: string | undefined;
  /** Stickers need their transparency; other items keep whatever alpha they have too. */
  isSticker: boolean;
}

const DOWNSIZED_MAX_BYTES = 2 * 1024 * 1024;
const PREVIEW_TARGET_BYTES = 50 * 1024;

interface Size {
  width: number;
  height: number;
}

/** Scale to a width (or height), never above the original, at least one pixel. */
function fitWidth(info: MediaInfo, width: number): Size {
  const target = Math.min(width, info.width);
  return { width: target, height: Math.max(1, Math.round((info.height * target) / info.width)) };
}

function fitHeight(info: MediaInfo, height: number): Size {
  const target = Math.min(height, info.height);
  return { width: Math.max(1, Math.round((info.width * target) / info.height)), height: target };
}

function fitLongestSide(info: MediaInfo, side: number): Size {
  return info.width >= info.height ? fitWidth(info, side) : fitHeight(info, side);
}

/** Writes a rendition into the staging folder and flushes it to disk. */
async function stage(
  options: RenderOptions,
  name: RenditionName,
  format: MediaFormat,
  data: Buffer,
  size: Size,
  frames: number,
): Promise<RenderedFile> {
  const file = path.join(options.outputDir, `${name}.${format}`);
  const handle = await fs.open(file, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return {
    name,
    format,
    width: size.width,
    height: size.height,
    frames,
    bytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    file,
  };
}

export class MediaRenderer {
  private readonly isAnimated: boolean;

  constructor(
    private readonly bytes: Buffer,
    private readonly options: RenderOptions,
  ) {
    this.isAnimated = options.info.frames > 1;
  }

  /** A fresh pipeline over the source: all frames, or only the first for stills. */
  private source(frames: 'all' | 'first' | number = 'all'): Sharp {
    const { info } = this.options;
    const pages = frames === 'first' ? 1 : frames === 'all' ? info.frames : frames;
    return sharp(this.bytes, {
      animated: this.isAnimated && pages > 1,
      pages: this.isAnimated ? pages : 1,
      // Dimensions and frames were validated before we got here; this is the backstop.
      limitInputPixels: info.width * info.height * pages + 1,
      failOn: 'error',
    });
  }

  private resized(size: Size, frames: 'all' | 'first' | number = 'all'): Sharp {
    const pipeline = this.source(frames);
    if (size.width === this.options.info.width && size.height === this.options.info.height) {
      return pipeline;
    }
    return pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
  }

  private async encode(
    name: RenditionName,
    format: 'gif' | 'webp',
    pipeline: Sharp,
    loopAndDelays: { loop: number; delay?: number[] } | undefined,
  ): Promise<RenderedFile> {
    const animation = loopAndDelays ?? {};
    const encoded =
      format === 'gif'
        ? pipeline.gif({ effort: 4, ...animation })
        : pipeline.webp({ quality: 80, alphaQuality: 100, effort: 2, ...animation });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const pageHeight = info.pageHeight ?? info.height;
    const frames = Math.max(1, Math.round(info.height / pageHeight));
    return stage(
      this.options,
      name,
      format,
      data,
      { width: info.width, height: pageHeight },
      frames,
    );
  }

  private animation(frames?: number): { loop: number; delay?: number[] } | undefined {
    const { info } = this.options;
    if (!this.isAnimated) return undefined;
    const delay = frames === undefined ? info.delays : info.delays.slice(0, frames);
    return delay.length > 0 ? { loop: info.loop, delay } : { loop: info.loop };
  }

  /** Both animated formats of one size (GIF for `url`, WebP for `webp`). */
  private async renderPair(name: RenditionName, size: Size): Promise<RenderedFile[]> {
    const animation = this.animation();
    return [
      await this.encode(name, 'gif', this.resized(size), animation),
      await this.encode(name, 'webp', this.resized(size), animation),
    ];
  }

  /** First frame as GIF (GIPHY's `_s.gif`) and WebP. */
  private async renderStill(name: RenditionName, size: Size): Promise<RenderedFile[]> {
    return [
      await this.encode(name, 'gif', this.resized(size, 'first'), undefined),
      await this.encode(name, 'webp', this.resized(size, 'first'), undefined),
    ];
  }

  private async renderOriginal(): Promise<RenderedFile[]> {
    const { info } = this.options;
    const full = { width: info.width, height: info.height };
    const asIs = await stage(this.options, 'original', info.format, this.bytes, full, info.frames);
    const files = [asIs];
    for (const format of ['gif', 'webp'] as const) {
      if (format === info.format) continue;
      files.push(await this.encode('original', format, this.source(), this.animation()));
    }
    return files;
  }

  /** GIPHY's `downsized`: the largest GIF under 2 MB, the original itself when it qualifies. */
  private async renderDownsized(originalGif: RenderedFile): Promise<RenderedFile> {
    const { info } = this.options;
    if (originalGif.bytes <= DOWNSIZED_MAX_BYTES) return this.copy(originalGif, 'downsized');
    let side = Math.min(480, Math.max(info.width, info.height));
    let last: RenderedFile | undefined;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const size = fitLongestSide(info, side);
      const rendered = await this.encode('downsized', 'gif', this.resized(size), this.animation());
      if (rendered.bytes <= DOWNSIZED_MAX_BYTES) {
        if (last) await fs.rm(last.file, { force: true });
        return rendered;
      }
      await fs.rm(rendered.file, { force: true });
      last = undefined;
      side = Math.floor(side * 0.7);
    }
    // Still too big: the smallest size that always fits, 100 px wide.
    return this.encode('downsized', 'gif', this.resized(fitWidth(info, 100)), this.animation());
  }

  /** GIPHY's `preview_gif`: a small, short GIF (about 50 KB, the first couple of seconds). */
  private async renderPreview(): Promise<RenderedFile[]> {
    const { info } = this.options;
    let frames = info.frames;
    if (this.isAnimated) {
      let elapsed = 0;
      frames = 0;
      for (const delay of info.delays) {
        frames += 1;
        elapsed += Math.max(delay, 20);
        if (elapsed >= 2000) break;
      }
      frames = Math.max(1, frames);
    }
    const animation = frames > 1 ? this.animation(frames) : undefined;
    let rendered: RenderedFile | undefined;
    for (const side of [150, 100, 64]) {
      if (rendered) await fs.rm(rendered.file, { force: true });
      const size = fitLongestSide(info, side);
      rendered = await this.encode('preview_gif', 'gif', this.resized(size, frames), animation);
      if (rendered.bytes <= PREVIEW_TARGET_BYTES) break;
    }
    const size = { width: rendered!.width, height: rendered!.height };
    const webp = await this.encode('preview_gif', 'webp', this.resized(size, frames), animation);
    return [rendered!, webp];
  }

  /** The same bytes under another rendition name (content addressing stores them once). */
  private async copy(file: RenderedFile, name: RenditionName): Promise<RenderedFile> {
    const target = path.join(this.options.outputDir, `${name}.${file.format}`);
    await fs.copyFile(file.file, target);
    return { ...file, name, file: target };
  }

  private async renderMp4(source: RenderedFile): Promise<RenderedFile | undefined> {
    const ffmpeg = this.options.ffmpegPath;
    if (!ffmpeg || !this.isAnimated || this.options.isSticker) return undefined;
    const target = path.join(this.options.outputDir, `${source.name}.mp4`);
    await run(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        source.file,
        '-movflags',
        '+faststart',
        '-pix_fmt',
        'yuv420p',
        // H.264 in 4:2:0 needs even dimensions.
        '-vf',
        'scale=trunc(iw/2)*2:trunc(ih/2)*2',
        '-an',
        '-y',
        target,
      ],
      { timeout: 60_000 },
    );
    const data = await fs.readFile(target);
    await fs.rm(target);
    const size = {
      width: source.width - (source.width % 2),
      height: source.height - (source.height % 2),
    };
    return stage(this.options, source.name, 'mp4', data, size, source.frames);
  }

  /** Every rendition, written into the staging folder. */
  async renderAll(): Promise<RenderedFile[]> {
    const { info } = this.options;
    const files: RenderedFile[] = [];
    const original = await this.renderOriginal();
    files.push(...original);
    files.push(
      ...(await this.renderStill('original_still', { width: info.width, height: info.height })),
    );
    const fixedWidth = fitWidth(info, 200);
    files.push(...(await this.renderPair('fixed_width', fixedWidth)));
    files.push(...(await this.renderStill('fixed_width_still', fixedWidth)));
    files.push(...(await this.renderPair('fixed_width_small', fitWidth(info, 100))));
    const fixedHeight = fitHeight(info, 200);
    files.push(...(await this.renderPair('fixed_height', fixedHeight)));
    files.push(...(await this.renderStill('fixed_height_still', fixedHeight)));
    const originalGif = original.find((file) => file.format === 'gif')!;
    files.push(await this.renderDownsized(originalGif));
    files.push(...(await this.renderPreview()));
    for (const name of ['original', 'fixed_width', 'fixed_height'] as const) {
      const gif = files.find((file) => file.name === name && file.format === 'gif')!;
      const mp4 = await this.renderMp4(gif);
      if (mp4) files.push(mp4);
    }
    return files;
  }
}
