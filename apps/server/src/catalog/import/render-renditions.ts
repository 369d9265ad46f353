import type { StoredRenditionName } from '@sticky/contracts';
import pLimit from 'p-limit';
import type { Sharp } from 'sharp';
import type { MediaFormat } from '../../storage/media-paths.ts';
import { decodeFrames, openSource, readSourceDelays } from './decode-frames.ts';
import type { SourceMedia } from './decode-frames.ts';
import { encodeImage } from './encode-image.ts';
import { extractFirstGifFrame } from './gif-blocks.ts';
import type { MediaInfo } from './inspect-media.ts';
import { openRawFrames, sampleFrames, spanFrames, spanKey } from './raw-frames.ts';
import type { RawFrames, Span } from './raw-frames.ts';
import { isSizedName, namedSizes, renditionRecipes } from './rendition-recipes.ts';
import type { PreviewPlan, RenditionMaker, VideoPlan } from './rendition-recipes.ts';
import { renditionsFor } from './rendition-plan.ts';
import type { ItemKind, RenderPhase } from './rendition-plan.ts';
import { evenSize, fitLongestSide } from './rendition-sizes.ts';
import type { Size } from './rendition-sizes.ts';
import { StagingFolder } from './stage-renditions.ts';
import type { RenderedFile } from './stage-renditions.ts';
import { encodeVideoRendition } from './video-rendition.ts';

export type { RenderedFile } from './stage-renditions.ts';

export interface RenderOptions {
  info: MediaInfo;
  /** Staging folder for this import; every file is written and fsynced there. */
  outputDir: string;
  /** ffmpeg (from @ffmpeg-installer/ffmpeg): video renditions are made only when it is there. */
  ffmpegPath?: string | undefined;
  /** Stickers and animated text: transparency kept everywhere, so WebM rather than MP4. */
  isTransparent: boolean;
  /** Which renditions to make (rendition-plan.ts); default every one. */
  phase?: RenderPhase;
  /**
   * Renditions the item has already (`name.format`), left out of the phase: a job run again,
   * or renditions a newer plan added, make only what is missing.
   */
  existing?: readonly string[];
  /** Encoder threads (the share of the cores this worker has). */
  threads?: number;
  /** Hard memory ceiling of each ffmpeg process. */
  videoMemoryBytes?: number;
  /** Holds the pids of running encoders, so the worker can stop them with itself. */
  encoderPids?: Set<number>;
  /** Told how long each rendition took (the bench's breakdown). */
  onRendition?: (file: RenderedFile, ms: number) => void;
  /**
   * Renditions made at once (default 1): 2 lets one file use a second core while another
   * worker has nothing to do (the last file of an import), and overlaps flushing files to disk
   * and ffmpeg's encoding with the next rendition.
   */
  parallelism?: number;
}

/** Video never goes larger than this on its longer side (GIPHY's `hd` stops at 1920 too). */
const MAX_VIDEO_SIDE = 1920;

/**
 * Decoding is the expensive part, so each file is decoded once into memory (full size when it
 * fits this budget and a rendition needs it, else at the largest size the small renditions need)
 * and every rendition is made from that. Only what does not fit streams from the source.
 */
const RAW_BUDGET_BYTES = 768 * 1024 * 1024;

/**
 * What makes two renditions the same file. A WebP `original` made from another format is
 * encoded for fidelity, the rest for the wire, so a 200 px sticker's `fixed_width` WebP is its
 * own, lighter file; GIFs are encoded alike whatever their name.
 */
function renditionKey(format: MediaFormat, size: Size, span: Span, profile = '') {
  return `${format}:${size.width}x${size.height}:${spanKey(span)}${profile}`;
}

/**
 * Makes an item's renditions (rendition-plan.ts) from its decoded frames, each by its recipe
 * (rendition-recipes.ts): GIF and WebP with sharp (encode-image.ts), MP4 and WebM with ffmpeg
 * fed raw frames (video-rendition.ts). Each rendition is made at most once, and one that
 * another needs (the GIF `downsized` copies, the preview's reference) is made on demand.
 */
export class MediaRenderer implements RenditionMaker {
  readonly info: MediaInfo;
  readonly isAnimated: boolean;
  previewPlan: PreviewPlan | undefined;
  private readonly source: SourceMedia;
  private readonly kind: ItemKind;
  private readonly staging: StagingFolder;
  /** Full-size decoded frames, when they fit the budget. */
  private full: RawFrames | undefined;
  /** Decoded frames at the working size of the small renditions (may be `full`). */
  private work: RawFrames | undefined;
  /** By content (renditionKey): a rendition identical to one made (or being made) copies it. */
  private readonly made = new Map<string, Promise<RenderedFile>>();
  /** The content key of each file made, so a discarded one is forgotten. */
  private readonly keyOf = new Map<RenderedFile, string>();
  /** By `name.format`: each rendition once, whoever asks for it. */
  private readonly byName = new Map<string, Promise<RenderedFile | undefined>>();

  constructor(
    private readonly bytes: Buffer,
    private readonly options: RenderOptions,
  ) {
    this.info = options.info;
    this.isAnimated = options.info.frames > 1;
    this.source = { bytes, info: options.info };
    this.kind = {
      sourceFormat: options.info.format,
      isAnimated: this.isAnimated,
      isTransparent: options.isTransparent,
    };
    this.staging = new StagingFolder(options.outputDir);
  }

  get fullSize(): Size {
    return { width: this.info.width, height: this.info.height };
  }

  get sourceDelays(): number[] {
    return readSourceDelays(this.info);
  }

  get timeline(): number[] {
    return (this.work ?? this.full)?.delays ?? this.sourceDelays;
  }

  private rawFor(size: Size): RawFrames | undefined {
    const fits = (raw: RawFrames | undefined) =>
      raw !== undefined && raw.width >= size.width && raw.pageHeight >= size.height;
    return fits(this.work) ? this.work : fits(this.full) ? this.full : undefined;
  }

  /**
   * The cheapest pipeline for a size and span: decoded frames large enough when we have them,
   * else the source. Returns the frames' timeline alongside, since merged frames change it.
   */
  private async select(size: Size, span: Span): Promise<{ pipeline: Sharp; delays: number[] }> {
    let raw = this.rawFor(size);
    if (typeof span === 'object' && 'sample' in span) {
      // Sampling picks frames by time, so it needs them decoded (at this size, if nothing fits).
      raw = sampleFrames(raw ?? (await decodeFrames(this.source, size)), span.sample);
    }
    const timeline = raw ? raw.delays : this.sourceDelays;
    const frames = spanFrames(timeline, raw ? raw.frames : this.info.frames, span);
    const from = raw ? { width: raw.width, height: raw.pageHeight } : this.info;
    let pipeline = raw ? openRawFrames(raw, frames) : openSource(this.source, frames);
    if (from.width !== size.width || from.height !== size.height) {
      pipeline = pipeline.resize({ width: size.width, height: size.height, fit: 'fill' });
    }
    return { pipeline, delays: timeline.slice(0, frames) };
  }

  /** Encodes one GIF or WebP rendition, or reuses an identical one already made. */
  async renderImage(
    name: StoredRenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span: Span = 'all',
  ): Promise<RenderedFile> {
    const isOriginal = name === 'original';
    const key = renditionKey(
      format,
      size,
      span,
      format === 'webp' && isOriginal ? ':original' : '',
    );
    const same = this.made.get(key);
    if (same) return this.copy(await same, name);
    return this.remember(key, this.encodeImage(name, format, size, span));
  }

  /** Registers a rendition being made under its content key, before it is done. */
  private remember(key: string, making: Promise<RenderedFile>): Promise<RenderedFile> {
    const made = making.then((file) => {
      this.keyOf.set(file, key);
      return file;
    });
    // Whoever waits for it sees the error; the map alone must not make it unhandled.
    made.catch(() => {});
    this.made.set(key, made);
    return made;
  }

  private async encodeImage(
    name: StoredRenditionName,
    format: 'gif' | 'webp',
    size: Size,
    span: Span,
  ): Promise<RenderedFile> {
    const image = await encodeImage({
      format,
      isOriginal: name === 'original',
      loop: this.info.loop,
      sourceBytes: this.bytes.length,
      select: () => this.select(size, span),
    });
    return this.staging.stage(name, format, image.data, image.size, image.frames);
  }

  /**
   * Encodes one video rendition (video-rendition.ts), or reuses an identical one already made.
   * Undefined without ffmpeg or for a still.
   */
  async renderVideo(
    name: StoredRenditionName,
    format: 'mp4' | 'webm',
    plan: VideoPlan,
  ): Promise<RenderedFile | undefined> {
    const ffmpegPath = this.options.ffmpegPath;
    if (!ffmpegPath || !this.isAnimated) return undefined;
    const size = evenSize(plan.size);
    const key = renditionKey(format, size, plan.span, `:x${plan.repeat ?? 1}:q${plan.crf ?? ''}`);
    const same = this.made.get(key);
    if (same) return this.copy(await same, name);
    return this.remember(key, this.encodeVideo(name, format, size, plan, ffmpegPath));
  }

  private async encodeVideo(
    name: StoredRenditionName,
    format: 'mp4' | 'webm',
    size: Size,
    plan: VideoPlan,
    ffmpegPath: string,
  ): Promise<RenderedFile> {
    const video = await encodeVideoRendition({
      format,
      size,
      selected: await this.select(size, plan.span),
      isTransparent: this.kind.isTransparent,
      repeat: plan.repeat,
      crf: plan.crf,
      ffmpegPath,
      outputFile: `${this.staging.pathOf(name, format)}.encoding`,
      threads: this.options.threads,
      memoryLimitBytes: this.options.videoMemoryBytes,
      runningPids: this.options.encoderPids,
    });
    return this.staging.stage(name, format, video.data, size, video.frames);
  }

  stageOriginal(): Promise<RenderedFile> {
    return this.staging.stage(
      'original',
      this.info.format,
      this.bytes,
      this.fullSize,
      this.info.frames,
    );
  }

  /**
   * A GIF's `original_still` as its own first frame, copied (gif-blocks.ts): the same picture
   * its decoding gives, without quantizing it again. Undefined when the file does not allow it.
   */
  copyFirstGifFrame(): Promise<RenderedFile> | undefined {
    if (this.info.format !== 'gif') return undefined;
    const key = renditionKey('gif', this.fullSize, 'first');
    const same = this.made.get(key);
    if (same) return same.then((file) => this.copy(file, 'original_still'));
    const frame = extractFirstGifFrame(this.bytes);
    if (!frame) return undefined;
    return this.remember(key, this.staging.stage('original_still', 'gif', frame, this.fullSize, 1));
  }

  /** The same bytes under another rendition name (content addressing stores them once). */
  copy(file: RenderedFile, name: StoredRenditionName): Promise<RenderedFile> {
    return this.staging.copy(file, name);
  }

  /** Drops a staged candidate that was not kept. */
  async discard(file: RenderedFile): Promise<void> {
    const key = this.keyOf.get(file);
    if (key !== undefined) this.made.delete(key);
    this.keyOf.delete(file);
    await this.staging.remove(file);
  }

  /** One rendition by name and format, made once however many ask for it. */
  get(name: StoredRenditionName, format: MediaFormat): Promise<RenderedFile | undefined> {
    const key = `${name}.${format}`;
    let made = this.byName.get(key);
    if (!made) {
      const started = performance.now();
      made = renditionRecipes[name](this, name, format).then((file) => {
        if (file) this.options.onRendition?.(file, performance.now() - started);
        return file;
      });
      this.byName.set(key, made);
    }
    return made;
  }

  /**
   * The largest video size the budget allows: full size (at most MAX_VIDEO_SIDE on its longer
   * side) when its raw frames fit in memory, else scaled down until they do.
   */
  videoSize(): Size {
    const capped = fitLongestSide(this.fullSize, MAX_VIDEO_SIDE);
    // Frames decoded from the source at this size are not merged yet: count them all.
    const frames = this.full ? this.full.frames : this.info.frames;
    const rawBytes = capped.width * capped.height * 4 * frames;
    if (rawBytes <= RAW_BUDGET_BYTES) return capped;
    const scale = Math.sqrt(RAW_BUDGET_BYTES / rawBytes);
    return fitLongestSide(capped, Math.floor(Math.max(capped.width, capped.height) * scale));
  }

  /**
   * Decodes what the phase needs once: the whole animation at full size when a full-size
   * rendition is to be made and it fits the budget, else at the working size of the small ones.
   */
  private async prepare(wanted: ReadonlyArray<{ name: string; format: MediaFormat }>) {
    const { info } = this;
    const needsFull = wanted.some(
      ({ name, format }) =>
        (name === 'original' && format !== info.format) ||
        name.startsWith('downsized') ||
        name === 'looping',
    );
    const fullSize = this.fullSize;
    const rawBytes = (size: Size) => size.width * size.height * info.frames * 4;
    if (needsFull && rawBytes(fullSize) <= RAW_BUDGET_BYTES) {
      this.full = await decodeFrames(this.source, fullSize);
      this.work = this.full;
      return;
    }
    // The small renditions to make decide the working size, each dimension the largest of
    // theirs: the largest (`fixed_height` of a wide item, the one `fixed_width` and
    // `fixed_height` of a square one) is then made from it as it is, without a second resize.
    // `tiny`, wider than `fixed_width`, counts only when it is made (later).
    const sized = wanted.map(({ name }) => name).filter(isSizedName);
    const sizes = (
      sized.length > 0 ? sized : (['tiny', 'fixed_width', 'fixed_height'] as const)
    ).map((name) => namedSizes[name](fullSize));
    const working = {
      width: Math.max(...sizes.map((size) => size.width)),
      height: Math.max(...sizes.map((size) => size.height)),
    };
    if (rawBytes(working) <= RAW_BUDGET_BYTES) this.work = await decodeFrames(this.source, working);
  }

  /** The renditions of a phase (default: all), written into the staging folder. */
  async render(phase: RenderPhase = this.options.phase ?? 'all'): Promise<RenderedFile[]> {
    const existing = new Set(this.options.existing);
    const wanted = renditionsFor(this.kind, phase).filter(
      ({ name, format }) => !existing.has(`${name}.${format}`),
    );
    let made: Array<PromiseSettledResult<RenderedFile | undefined>> = [];
    let flushed: unknown[] = [];
    try {
      await this.prepare(wanted);
      // Started in the plan's order, so which of two identical renditions is encoded and which
      // copies it does not depend on timing. Settled, all of them: nothing of this file is
      // still running when its result (or error) goes back.
      const limit = pLimit(Math.max(1, this.options.parallelism ?? 1));
      made = await Promise.allSettled(
        wanted.map(({ name, format }) => limit(() => this.get(name, format))),
      );
    } finally {
      this.full = undefined;
      this.work = undefined;
      // Every file is on disk (or failed to be) before the staging folder is handed on.
      flushed = await this.staging.settle();
    }
    const files: RenderedFile[] = [];
    for (const result of made) {
      if (result.status === 'rejected') throw result.reason;
      if (result.value) files.push(result.value);
    }
    const failure = flushed.find((error) => error !== undefined);
    if (failure !== undefined) throw failure;
    return files;
  }

  /** Every rendition up front (the path before the job queue, and text rendered on demand). */
  renderAll(): Promise<RenderedFile[]> {
    return this.render('all');
  }
}
