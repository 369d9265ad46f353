import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { muxVp9Webm, readIvf } from './webm-mux.ts';
import type { FrameTiming } from './webm-mux.ts';

/**
 * Video renditions (docs/catalog.md, "Renditions"): H.264 MP4 for GIFs (and a VP9 WebM of their
 * grid tile), WebM with an alpha channel for stickers and animated text. ffmpeg only ever reads
 * raw RGBA (or RGB) frames that sharp decoded, from its stdin: its demuxers and decoders never
 * see an uploaded or rendered file.
 *
 * The WebM is VP9 whose color and alpha ffmpeg codes as two streams, each at its own quality,
 * muxed into one file by webm-mux.ts: the ffmpeg that @ffmpeg-installer ships (4.1) codes a
 * `yuva420p` input's alpha with a second encoder that takes none of the quality or speed
 * settings (docs/catalog.md, "Renditions"). Browsers that play WebM with alpha play VP9.
 */
export type VideoCodec = 'h264' | 'vp9';

/** RGBA (or, for H.264, RGB) frames, stacked vertically, each shown for its delay. */
export interface VideoFrames {
  data: Buffer;
  /**
   * 4 (RGBA, the default) or 3 (RGB): frames flattened for a video without alpha (H.264, a
   * GIF's VP9) may go without, a quarter fewer bytes through the pipe and for ffmpeg to convert.
   * Whether a VP9 WebM has alpha is `keepAlpha`'s to say.
   */
  channels?: 3 | 4;
  /** Even: yuv420p halves both dimensions. */
  width: number;
  height: number;
  frames: number;
  /** Per frame, in ms, as the animation plays (see playedDelayMs). */
  delays: readonly number[];
}

export interface EncodeVideoOptions {
  ffmpegPath: string;
  codec: VideoCodec;
  frames: VideoFrames;
  /** Where ffmpeg writes the file (our own staging folder; MP4's faststart rewrites it there). */
  outputFile: string;
  /**
   * VP9 only: code the frames' alpha channel (they must be RGBA) as a second stream; default
   * no. Said, not read from the frames: frames that sharp flattened can still carry a fourth
   * channel (its pipeline applies `ensureAlpha` after `removeAlpha`, whatever the order of the
   * calls).
   */
  keepAlpha?: boolean;
  /** Plays the frames this many times in a row (GIPHY's `looping`); default once. */
  repeat?: number;
  /** Encoder threads: the share of the cores this worker has. */
  threads?: number;
  /** A hard ceiling on ffmpeg's data segment (RLIMIT_DATA), on top of the sampled budget. */
  memoryLimitBytes?: number;
  /**
   * Quality: lower is better and heavier (x264 CRF 0–51; VP9 CRF 0–63, the colour's, the alpha
   * a few steps finer).
   */
  crf?: number;
  /** Holds ffmpeg's pid while it runs, so the worker can stop it with itself. */
  runningPids?: Set<number>;
}

/** ffmpeg from the `@ffmpeg-installer/ffmpeg` package, or undefined on a platform it lacks. */
export function resolveFfmpegPath(): string | undefined {
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as {
      path?: unknown;
    };
    return typeof installer.path === 'string' ? installer.path : undefined;
  } catch {
    // The package throws (a string) on a platform it ships no binary for: no video renditions.
    return undefined;
  }
}

/**
 * How long a frame is shown by browsers: delays of 10 ms or less play at 100 ms in Chromium,
 * Firefox and Safari (an old GIF convention), so the video keeps the pace people saw.
 */
export function playedDelayMs(delay: number): number {
  return delay <= 10 ? 100 : delay;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Steps a timeline may be rounded to: 50 fps at most; when the delays have no common step that
 * coarse (a screen recording's 30, 70, 130 ms…), the finest one that keeps the video under
 * MAX_REPEAT output frames per input frame, so encoding stays cheap. A frame then starts up to
 * half a step early or late (20 ms at worst), never drifting: the total is kept.
 */
const UNIT_STEPS_MS = [20, 25, 40] as const;
const MAX_REPEAT = 4;

/**
 * A constant frame rate that carries every frame's own timing, for the MP4: one step is the
 * greatest common divisor of the delays (100 ms for most GIFs: no frame repeated), and a frame
 * shown for several steps is repeated, which H.264 codes as skipped blocks in a few bytes (VP9
 * does not: its WebM carries each frame's time instead, planFrameTimes). Returns the step
 * and, per output frame, the input frame it shows. The total duration is kept exactly (rounded
 * to the step), so a video that loops plays at the pace of the GIF.
 */
export function planTimeline(
  delays: readonly number[],
  repeat = 1,
): { unitMs: number; sequence: number[] } {
  const played = delays.map((delay) => Math.max(1, Math.round(playedDelayMs(delay))));
  const divisor = played.reduce((acc, delay) => gcd(acc, delay), 0) || 100;
  const starts: number[] = [];
  let total = 0;
  for (const delay of played) {
    starts.push(total);
    total += delay;
  }
  const coarsest = UNIT_STEPS_MS[UNIT_STEPS_MS.length - 1]!;
  const unitMs: number =
    divisor >= UNIT_STEPS_MS[0]
      ? divisor
      : (UNIT_STEPS_MS.find((step) => total / step <= MAX_REPEAT * played.length) ?? coarsest);
  const steps = Math.max(1, Math.round(total / unitMs));
  const once: number[] = [];
  let frame = 0;
  for (let step = 0; step < steps; step += 1) {
    // The frame showing in the middle of the step: each start is off by half a step at most.
    const time = (step + 0.5) * unitMs;
    while (frame + 1 < starts.length && starts[frame + 1]! <= time) frame += 1;
    once.push(frame);
  }
  const sequence: number[] = [];
  for (let loop = 0; loop < Math.max(1, repeat); loop += 1) sequence.push(...once);
  return { unitMs, sequence };
}

/**
 * For a WebM: each frame once (the frames `repeat` times over), starting when the animation
 * shows it, to the millisecond. VP9 codes a frame repeated for a constant rate at a real cost
 * (docs/catalog.md, "Rendition settings").
 */
export function planFrameTimes(
  delays: readonly number[],
  repeat = 1,
): FrameTiming & { sequence: number[] } {
  const sequence: number[] = [];
  const startsMs: number[] = [];
  let durationMs = 0;
  for (let loop = 0; loop < Math.max(1, repeat); loop += 1) {
    for (const [index, delay] of delays.entries()) {
      sequence.push(index);
      startsMs.push(durationMs);
      durationMs += Math.max(1, Math.round(playedDelayMs(delay)));
    }
  }
  return { sequence, startsMs, durationMs };
}

/**
 * Frames larger than this (about 350 × 350) are encoded at a higher CRF: the tiles people load
 * most are small and get the finer quantiser; a few percent on a large original is not worth it.
 */
const LARGE_FRAME_PIXELS = 120_000;

/**
 * x264's `veryfast` preset at CRF 23 for the tiles: `fast` at CRF 25's bytes and SSIM for less
 * CPU, and the tiles are made before an item shows, so their encoding is the import's time
 * (docs/catalog.md, "Rendition settings").
 */
const H264_PRESET = 'veryfast';
const H264_TILE_CRF = 23;
const H264_LARGE_CRF = 25;

/**
 * Key frames: one per video, its first, plus what the encoder places at scene cuts. A loop is
 * played from its start and never sought, so the encoders' default of one every 250 frames only
 * spent bytes on long animations (docs/catalog.md, "Rendition settings"). A WebM's two streams
 * get the same interval, so their first key frames meet (webm-mux.ts).
 */
const keyframeArguments = (frames: number) => ['-g', String(Math.max(1, frames))];

/**
 * VP9 tiles at the quality of a GIF's H.264 tile, at speed 2 (`VP9_TILE_SPEED`), whose better
 * search keeps that quality at a coarser CRF; the alpha stream finer, so edges stay clean. Large
 * frames (the item page's original) start from 1-bit GIF edges that resizing has not smoothed,
 * so their alpha gets the color's CRF, at a faster speed (docs/catalog.md, "Rendition settings").
 *
 * A transparent item's tile is coded in two passes: the first reads the whole loop, so the
 * second can code what returns (a shape that swings back, a still background) once, as hidden
 * reference frames; at a coarser CRF its tiles look as they did in one pass, in fewer bytes. A
 * GIF's tile stays in one pass: GIFs are often filmed, where two passes are no lighter at the
 * same SSIM (docs/catalog.md, "Rendition settings").
 */
const VP9_TILE_CRF = 43;
const VP9_TRANSPARENT_TILE_CRF = 48;
const VP9_LARGE_CRF = 36;
/** libvpx's `-cpu-used`: lower searches harder. Tiles are small, so searching is cheap. */
const VP9_TILE_SPEED = 2;
const VP9_LARGE_SPEED = 6;
/** On tiles, the alpha stream's CRF is this much finer than the colour's: frayed edges show. */
const VP9_TILE_ALPHA_CRF_OFFSET = 5;

/** What every encoder's arguments depend on. */
interface EncoderSettings {
  threads: number;
  /** The caller's quality, or undefined for ours. */
  crf: number | undefined;
  isLarge: boolean;
  /** Frames ffmpeg reads (each stream has one key frame, its first). */
  frames: number;
}

/**
 * One of a two-pass encoding's runs: the first writes its statistics to the log (named from
 * `logPrefix`, beside the output) and no video.
 */
interface Vp9Pass {
  pass: 1 | 2;
  logPrefix: string;
}

function h264Arguments(
  { threads, crf, isLarge, frames }: EncoderSettings,
  outputFile: string,
): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    H264_PRESET,
    '-crf',
    String(crf ?? (isLarge ? H264_LARGE_CRF : H264_TILE_CRF)),
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'high',
    ...keyframeArguments(frames),
    // Browsers start playing before the last byte arrives: the index goes first.
    '-movflags',
    '+faststart',
    '-threads',
    String(threads),
    '-f',
    'mp4',
    '-y',
    outputFile,
  ];
}

/** Where ffmpeg writes a WebM's two VP9 streams: IVF files beside the output. */
interface Vp9Streams {
  colour: string;
  alpha: string;
}

/**
 * The colour and the alpha plane of the same frames as two VP9 streams (webm-mux.ts muxes
 * them): the alpha becomes the second stream's luma as it is (full range, no scaling).
 */
function vp9AlphaArguments(
  settings: EncoderSettings,
  streams: Vp9Streams,
  pass: 1 | 2 | undefined,
): string[] {
  const { crf, isLarge } = settings;
  const colourCrf = crf ?? (isLarge ? VP9_LARGE_CRF : VP9_TRANSPARENT_TILE_CRF);
  const alphaCrf = isLarge ? colourCrf : Math.max(0, colourCrf - VP9_TILE_ALPHA_CRF_OFFSET);
  const passOf = (file: string) => pass && { pass, logPrefix: file };
  return [
    '-filter_complex',
    '[0:v]split=2[colour][alpha];[colour]format=yuv420p[c];' +
      '[alpha]alphaextract,scale=in_range=full:out_range=full,format=yuv420p[a]',
    '-map',
    '[c]',
    ...vp9StreamArguments({ ...settings, crf: colourCrf }, streams.colour, passOf(streams.colour)),
    '-map',
    '[a]',
    ...vp9StreamArguments({ ...settings, crf: alphaCrf }, streams.alpha, passOf(streams.alpha)),
  ];
}

/** One VP9 stream, into an IVF file that webm-mux.ts muxes (nowhere, in a first pass). */
function vp9StreamArguments(
  { threads, crf, isLarge, frames }: EncoderSettings & { crf: number },
  outputFile: string,
  pass: Vp9Pass | undefined,
): string[] {
  const passArguments = pass
    ? [
        // Hidden reference frames, chosen from up to 25 frames ahead.
        '-auto-alt-ref',
        '1',
        '-lag-in-frames',
        '25',
        '-pass',
        String(pass.pass),
        '-passlogfile',
        pass.logPrefix,
      ]
    : [];
  const output = pass?.pass === 1 ? ['-f', 'null', '-'] : ['-f', 'ivf', '-y', outputFile];
  return [
    '-c:v',
    'libvpx-vp9',
    // Constant quality: no bitrate ceiling.
    '-crf',
    String(crf),
    '-b:v',
    '0',
    '-deadline',
    'good',
    '-cpu-used',
    String(isLarge ? VP9_LARGE_SPEED : VP9_TILE_SPEED),
    '-row-mt',
    '1',
    ...keyframeArguments(frames),
    ...passArguments,
    '-threads',
    String(threads),
    ...output,
  ];
}

/** A VP9 stream without alpha (a GIF's tile, in one pass). */
function vp9OpaqueArguments(settings: EncoderSettings, outputFile: string): string[] {
  const crf = settings.crf ?? (settings.isLarge ? VP9_LARGE_CRF : VP9_TILE_CRF);
  return [
    '-pix_fmt',
    'yuv420p',
    ...vp9StreamArguments({ ...settings, crf }, outputFile, undefined),
  ];
}

/** The log a first pass writes for `logPrefix` (ffmpeg adds the stream's index in its output). */
const passLogFile = (logPrefix: string) => `${logPrefix}-0.log`;

type Rgb = readonly [number, number, number];

/**
 * The mean colour of the silhouette's rim, the pixels that show (alpha above 0) beside one that
 * does not, over all the frames; undefined when no pixel shows.
 */
export function measureRimColour(frames: VideoFrames): Rgb | undefined {
  const { data, width, height } = frames;
  const frameBytes = width * height * 4;
  const isHidden = (offset: number) => data[offset + 3] === 0;
  let red = 0;
  let green = 0;
  let blue = 0;
  let count = 0;
  for (let frame = 0; frame < frames.frames; frame += 1) {
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const offset = frame * frameBytes + (y * width + x) * 4;
        if (isHidden(offset)) continue;
        const isRim =
          (x > 0 && isHidden(offset - 4)) ||
          (x < width - 1 && isHidden(offset + 4)) ||
          (y > 0 && isHidden(offset - width * 4)) ||
          (y < height - 1 && isHidden(offset + width * 4));
        if (!isRim) continue;
        red += data[offset]!;
        green += data[offset + 1]!;
        blue += data[offset + 2]!;
        count += 1;
      }
    }
  }
  if (count === 0) return undefined;
  return [Math.round(red / count), Math.round(green / count), Math.round(blue / count)];
}

/**
 * Gives the fully transparent pixels of RGBA frames one colour, in place. Nobody sees their
 * colour, but a WebM's colour stream codes it: sharp decodes them as black, and the edge between
 * that black and the picture, around the silhouette in every frame, cost the stream bytes. A
 * flat colour, the same in every frame, costs next to none, and the rim's own colour keeps the
 * edge that the coding smears a little across the silhouette low in contrast (docs/catalog.md,
 * "Renditions", has the figures). Pixels with any opacity keep their colour.
 */
export function paintHiddenPixels(frame: Buffer, [red, green, blue]: Rgb): Buffer {
  for (let offset = 0; offset + 3 < frame.length; offset += 4) {
    if (frame[offset + 3] !== 0) continue;
    frame[offset] = red;
    frame[offset + 1] = green;
    frame[offset + 2] = blue;
  }
  return frame;
}

/** A minimal environment: nothing of the server's (secrets, DATABASE_URL) reaches ffmpeg. */
const FFMPEG_ENV = { LC_ALL: 'C' };

/** What one encoding writes to ffmpeg, at which rate, what ffmpeg writes, and what it makes. */
interface EncodingPlan {
  /** The input frame written for each frame ffmpeg reads. */
  sequence: number[];
  /** ffmpeg's input frame rate. */
  rate: string;
  /** The outputs of each run of ffmpeg: one, or a two-pass encoding's two. */
  passes: string[][];
  result: { frames: number; durationMs: number };
  /** A WebM's IVF streams and the frames' times, for webm-mux.ts. */
  webm?: { timing: FrameTiming; colour: string; alpha: string | undefined; logs: string[] };
}

function planEncoding(options: EncodeVideoOptions, channels: 3 | 4): EncodingPlan {
  const { frames, outputFile } = options;
  const delays = frames.delays.slice(0, frames.frames);
  const threads = Math.max(1, options.threads ?? 1);
  const isLarge = frames.width * frames.height > LARGE_FRAME_PIXELS;
  if (options.codec === 'h264') {
    const { unitMs, sequence } = planTimeline(delays, options.repeat);
    return {
      sequence,
      rate: `1000/${unitMs}`,
      passes: [
        h264Arguments({ threads, crf: options.crf, isLarge, frames: sequence.length }, outputFile),
      ],
      result: { frames: sequence.length, durationMs: sequence.length * unitMs },
    };
  }
  const keepAlpha = options.keepAlpha ?? false;
  if (keepAlpha && channels !== 4) throw new Error('VP9 with alpha needs RGBA frames');
  const timing = planFrameTimes(delays, options.repeat);
  const { sequence } = timing;
  const settings = { threads, crf: options.crf, isLarge, frames: sequence.length };
  const colour = `${outputFile}.colour.ivf`;
  const alpha = keepAlpha ? `${outputFile}.alpha.ivf` : undefined;
  // A transparent tile in two passes (VP9_TRANSPARENT_TILE_CRF says why), the rest in one.
  const passes = !alpha
    ? [vp9OpaqueArguments(settings, colour)]
    : isLarge
      ? [vp9AlphaArguments(settings, { colour, alpha }, undefined)]
      : ([1, 2] as const).map((pass) => vp9AlphaArguments(settings, { colour, alpha }, pass));
  return {
    sequence,
    // Nominal: the container carries each frame's time (webm-mux.ts).
    rate: `1000/${Math.max(1, Math.round(timing.durationMs / sequence.length))}`,
    passes,
    result: { frames: sequence.length, durationMs: timing.durationMs },
    webm: {
      timing,
      colour,
      alpha,
      logs: alpha && passes.length === 2 ? [colour, alpha].map(passLogFile) : [],
    },
  };
}

/**
 * Encodes frames to an MP4 (H.264, yuv420p, no audio) at a constant rate that keeps each
 * frame's timing (planTimeline), or a WebM (VP9, with alpha when the frames have it) of each
 * frame once at its own time (planFrameTimes). Rejects with ffmpeg's last words when it fails;
 * the caller's process budget (media-processor.ts) bounds its time and memory.
 */
export async function encodeVideo(
  options: EncodeVideoOptions,
): Promise<{ frames: number; durationMs: number }> {
  const { frames } = options;
  if (frames.width % 2 !== 0 || frames.height % 2 !== 0) {
    throw new Error(`video frames must have even dimensions, not ${frames.width}×${frames.height}`);
  }
  const channels = frames.channels ?? 4;
  const frameBytes = frames.width * frames.height * channels;
  if (frames.data.length < frameBytes * frames.frames) {
    throw new Error(`video frames: fewer bytes than frames × width × height × ${channels}`);
  }
  const plan = planEncoding(options, channels);
  const { webm } = plan;
  const input = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'rawvideo',
    '-pix_fmt',
    channels === 3 ? 'rgb24' : 'rgba',
    '-s',
    `${frames.width}x${frames.height}`,
    '-framerate',
    plan.rate,
    '-i',
    'pipe:0',
    '-an',
    '-map_metadata',
    '-1',
  ];
  const hiddenColour = webm?.alpha ? measureRimColour(frames) : undefined;
  try {
    for (const outputs of plan.passes) {
      await runFfmpeg(
        options,
        [...input, ...outputs],
        (index) => {
          const frame = frames.data.subarray(index * frameBytes, (index + 1) * frameBytes);
          // A copy: the caller's frames make other renditions, and the pipe keeps what it is given.
          return hiddenColour ? paintHiddenPixels(Buffer.from(frame), hiddenColour) : frame;
        },
        plan.sequence,
      );
    }
    if (webm) {
      const [colour, alpha] = await Promise.all([
        fs.readFile(webm.colour),
        webm.alpha ? fs.readFile(webm.alpha) : undefined,
      ]);
      await fs.writeFile(
        options.outputFile,
        await muxVp9Webm(readIvf(colour), alpha && readIvf(alpha), webm.timing),
      );
    }
  } finally {
    // A failed run leaves what it wrote of the streams and the first pass's logs: gone too.
    if (webm) {
      await Promise.all(
        [webm.colour, webm.alpha, ...webm.logs].map((file) => file && fs.rm(file, { force: true })),
      );
    }
  }
  return plan.result;
}

/**
 * One run of ffmpeg on `args`, its stdin fed the frames of `sequence` (`frameAt` gives each) as
 * fast as it reads them, in its own memory limit; rejects with its last words when it fails.
 */
async function runFfmpeg(
  options: EncodeVideoOptions,
  args: string[],
  frameAt: (index: number) => Buffer,
  sequence: readonly number[],
): Promise<void> {
  const limitKb = Math.ceil((options.memoryLimitBytes ?? 1024 * 1024 * 1024) / 1024);
  // dash and bash both take `ulimit -d`; exec keeps the pid, so the limit is ffmpeg's own.
  const child = spawn(
    '/bin/sh',
    ['-c', `ulimit -d ${limitKb} && exec "$@"`, 'sh', options.ffmpegPath, ...args],
    { env: FFMPEG_ENV, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const pid = child.pid;
  if (pid !== undefined) options.runningPids?.add(pid);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => {
        if (pid !== undefined) options.runningPids?.delete(pid);
        resolve({ code, signal });
      });
    },
  );
  // ffmpeg stopping early (an error) closes its stdin: what we still write goes nowhere.
  child.stdin.on('error', () => {});
  const writeAll = async () => {
    for (const index of sequence) {
      if (child.stdin.destroyed) return;
      const frame = frameAt(index);
      if (!child.stdin.write(frame)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            child.stdin.off('drain', done);
            child.stdin.off('close', done);
            resolve();
          };
          child.stdin.on('drain', done);
          child.stdin.on('close', done);
        });
      }
    }
    child.stdin.end();
  };
  const [{ code, signal }] = await Promise.all([exited, writeAll()]);
  if (code !== 0) {
    const detail = stderr.trim().split('\n').slice(-3).join('; ') || `${signal ?? code}`;
    throw new Error(`ffmpeg could not encode the ${options.codec} video (${detail})`);
  }
}
