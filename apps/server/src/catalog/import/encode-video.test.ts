import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeVideoFrames, pixelAt } from '../../test-support/media.ts';
import { readH264Config, recordFfmpegCalls } from '../../test-support/video-checks.ts';
import {
  encodeVideo,
  measureRimColour,
  paintHiddenPixels,
  planTimeline,
  playedDelayMs,
  resolveFfmpegPath,
} from './encode-video.ts';
import type { VideoFrames } from './encode-video.ts';
import { useTempDir } from '../../test-support/files.ts';

/** How many steps each source frame is shown for. */
const runsOf = (sequence: readonly number[]) =>
  sequence.reduce<number[]>((counts, frame) => {
    counts[frame] = (counts[frame] ?? 0) + 1;
    return counts;
  }, []);

describe('planTimeline', () => {
  it('shows each frame once when the delays share a step of 20 ms or more', () => {
    expect(planTimeline([100, 100, 100])).toEqual({ unitMs: 100, sequence: [0, 1, 2] });
    expect(planTimeline([40, 80, 40])).toEqual({ unitMs: 40, sequence: [0, 1, 1, 2] });
  });

  it('plays delays of 10 ms or less at 100 ms, as browsers do', () => {
    expect(playedDelayMs(0)).toBe(100);
    expect(playedDelayMs(10)).toBe(100);
    expect(playedDelayMs(20)).toBe(20);
    expect(planTimeline([0, 10, 100])).toEqual({ unitMs: 100, sequence: [0, 1, 2] });
  });

  it('rounds a screen recording’s odd timings to a coarser step, keeping the total', () => {
    // 30, 70 and 130 ms have 10 ms in common: 100 fps would repeat frames ten times over.
    const delays = [30, 70, 130, 30, 70, 130];
    const { unitMs, sequence } = planTimeline(delays);
    expect(unitMs).toBeGreaterThanOrEqual(20);
    expect(sequence.length).toBeLessThanOrEqual(4 * delays.length);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(Math.abs(sequence.length * unitMs - total)).toBeLessThanOrEqual(unitMs / 2);
    // Every frame still shows, in order.
    expect([...new Set(sequence)]).toEqual([0, 1, 2, 3, 4, 5]);
    // Each frame starts within half a step of its own time.
    let start = 0;
    delays.forEach((delay, frame) => {
      const shownAt = sequence.indexOf(frame) * unitMs;
      expect(Math.abs(shownAt - start)).toBeLessThanOrEqual(unitMs / 2 + 1);
      start += delay;
    });
  });

  it('repeats the whole animation for a loop of several plays', () => {
    const once = planTimeline([100, 200]);
    const thrice = planTimeline([100, 200], 3);
    expect(thrice.sequence).toEqual([...once.sequence, ...once.sequence, ...once.sequence]);
    expect(runsOf(once.sequence)).toEqual([1, 2]);
  });
});

describe('encodeVideo', () => {
  it('refuses frames of odd size or too few bytes before starting ffmpeg', async () => {
    const frames = { data: Buffer.alloc(3 * 2 * 4), width: 3, height: 2, frames: 1, delays: [100] };
    await expect(
      encodeVideo({ ffmpegPath: '/nonexistent', codec: 'h264', frames, outputFile: '/tmp/x.mp4' }),
    ).rejects.toThrow('even dimensions');
    await expect(
      encodeVideo({
        ffmpegPath: '/nonexistent',
        codec: 'h264',
        frames: { ...frames, width: 4, data: Buffer.alloc(10) },
        outputFile: '/tmp/x.mp4',
      }),
    ).rejects.toThrow('fewer bytes');
  });
});

/** Frames of a small animation as sharp hands them over: RGBA, stacked, half of them clear. */
function makeFrames(width: number, height: number, count: number): VideoFrames {
  const data = Buffer.alloc(width * height * 4 * count);
  for (let frame = 0; frame < count; frame += 1) {
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const offset = ((frame * height + y) * width + x) * 4;
        data.set([(x * 4 + frame * 20) % 256, (y * 5) % 256, 128, x < width / 2 ? 255 : 0], offset);
      }
    }
  }
  return { data, width, height, frames: count, delays: Array<number>(count).fill(100) };
}

/** A square sliding a pixel a frame across a still background: no scene cut anywhere. */
function makeSlidingSquare(
  width: number,
  height: number,
  count: number,
  channels: 3 | 4,
): VideoFrames {
  const data = Buffer.alloc(width * height * channels * count, 40);
  const square = [230, 120, 20, 255].slice(0, channels);
  for (let frame = 0; frame < count; frame += 1) {
    for (let y = 8; y < 24; y += 1) {
      for (let x = 0; x < 16; x += 1) {
        data.set(square, ((frame * height + y) * width + ((x + frame) % width)) * channels);
      }
    }
  }
  return { data, channels, width, height, frames: count, delays: Array<number>(count).fill(40) };
}

/** Key frames and frames of a video file's track, as a player reads them. */
async function countKeyFrames(file: string): Promise<{ keys: number; frames: number }> {
  const { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } = await import('mediabunny');
  const input = new Input({
    formats: ALL_FORMATS,
    source: new BufferSource(fs.readFileSync(file)),
  });
  const track = await input.getPrimaryVideoTrack();
  let keys = 0;
  let frames = 0;
  for await (const packet of new EncodedPacketSink(track!).packets()) {
    frames += 1;
    if (packet.type === 'key') keys += 1;
  }
  return { keys, frames };
}

describe('the colour under transparent pixels', () => {
  /** A 5 × 5 RGBA frame: a red ring around a blue centre, on transparent black. */
  const makeRing = () => {
    const frame = Buffer.alloc(5 * 5 * 4);
    for (let y = 1; y < 4; y += 1) {
      for (let x = 1; x < 4; x += 1) {
        frame.set(x === 2 && y === 2 ? [0, 0, 255, 255] : [255, 0, 0, 255], (y * 5 + x) * 4);
      }
    }
    return frame;
  };
  const framesOf = (data: Buffer): VideoFrames => ({
    data,
    width: 5,
    height: 5,
    frames: 1,
    delays: [100],
  });

  it('is the colour of the silhouette’s rim, the visible pixels beside a transparent one', () => {
    expect(measureRimColour(framesOf(makeRing()))).toEqual([255, 0, 0]);
    expect(measureRimColour(framesOf(Buffer.alloc(5 * 5 * 4)))).toBeUndefined();
  });

  it('is painted only where nothing shows', () => {
    const frame = makeRing();
    // A corner barely showing keeps its colour: some of it is seen.
    frame.set([9, 9, 9, 1], 0);
    paintHiddenPixels(frame, [1, 2, 3]);
    expect(pixelAt(frame, 5, 0, 0)).toEqual([9, 9, 9, 1]);
    expect(pixelAt(frame, 5, 4, 4)).toEqual([1, 2, 3, 0]);
    expect(pixelAt(frame, 5, 1, 1)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(frame, 5, 2, 2)).toEqual([0, 0, 255, 255]);
  });
});

describe('encodeVideo with the packaged ffmpeg', () => {
  const ffmpegPath = resolveFfmpegPath()!;
  const workDir = useTempDir('sticky-encode-');

  it('hands ffmpeg raw frames on its stdin, never a file to read, and none of our environment', async () => {
    const recorder = recordFfmpegCalls(ffmpegPath, workDir());
    // A secret in the server's environment must not reach the encoder (docs/security.md).
    process.env.STICKY_TEST_SECRET = 'not-for-ffmpeg';
    const outputs: string[] = [];
    try {
      for (const codec of ['h264', 'vp9'] as const) {
        const outputFile = path.join(workDir(), `out-${codec}.video`);
        outputs.push(outputFile);
        await encodeVideo({
          ffmpegPath: recorder.ffmpegPath,
          codec,
          frames: makeFrames(32, 24, 4),
          outputFile,
          keepAlpha: codec === 'vp9',
        });
        expect(fs.statSync(outputFile).size, codec).toBeGreaterThan(0);
      }
    } finally {
      delete process.env.STICKY_TEST_SECRET;
    }
    const calls = recorder.readCalls();
    // The MP4 in one run; the transparent tile's WebM in two passes, the first writing no video.
    expect(
      calls.map(({ args }) => (args.includes('-pass') ? args[args.indexOf('-pass') + 1] : 'one')),
    ).toEqual(['one', '1', '2']);
    // The first pass's logs go with the encoding.
    expect(fs.readdirSync(workDir()).filter((file) => file.endsWith('.log'))).toEqual([]);
    for (const { args, envNames } of calls) {
      // One input, and it is the pipe: `-f rawvideo -pix_fmt rgba -s WxH … -i pipe:0`.
      const inputs = args.flatMap((arg, index) => (arg === '-i' ? [args[index + 1]] : []));
      expect(inputs).toEqual(['pipe:0']);
      const beforeInput = args.slice(0, args.indexOf('-i'));
      expect(beforeInput.join(' ')).toMatch(/-f rawvideo -pix_fmt (rgba|rgb24) -s \d+x\d+/);
      // No path but the output's (for VP9, its two streams beside it, webm-mux.ts, which also
      // name the first pass's logs), and no protocol (file:, http:, concat:…) but the pipe.
      const paths = [...new Set(args.filter((arg) => path.isAbsolute(arg) || fs.existsSync(arg)))];
      const output = outputs.find((file) => paths[0]?.startsWith(file));
      expect(output).toBeDefined();
      expect(paths).toEqual(
        paths.length === 1 ? [output] : [`${output}.colour.ivf`, `${output}.alpha.ivf`],
      );
      expect(args.filter((arg) => /^[a-z][a-z0-9+.-]*:/i.test(arg))).toEqual(['pipe:0']);
      expect(envNames).not.toContain('STICKY_TEST_SECRET');
      expect(envNames).not.toContain('DATABASE_URL');
    }
  });

  it('makes H.264 High in yuv420p, as the avcC box and ffmpeg reading our file both say', async () => {
    const outputFile = path.join(workDir(), 'clip.mp4');
    await encodeVideo({ ffmpegPath, codec: 'h264', frames: makeFrames(64, 48, 6), outputFile });
    expect(readH264Config(fs.readFileSync(outputFile))).toEqual({
      sampleEntry: 'avc1',
      profileIdc: 100,
      chromaFormatIdc: 1,
      bitDepthLuma: 8,
      bitDepthChroma: 8,
    });
    // ffmpeg on OUR output (never an uploaded file) describes its stream the same way.
    const probe = spawnSync(ffmpegPath, ['-hide_banner', '-i', outputFile], { encoding: 'utf8' });
    expect(probe.stderr).toMatch(/Video: h264 \(High\) \(avc1 \/ 0x31637661\), yuv420p/);
    expect(probe.stderr).not.toMatch(/Audio:/);
  });

  it.each([
    ['h264', 'long-loop.mp4', 3],
    ['vp9', 'long-loop.webm', 4],
  ] as const)(
    'gives a long %s loop one key frame, at its start, rather than one every 250 frames',
    async (codec, name, channels) => {
      const outputFile = path.join(workDir(), name);
      const frames = makeSlidingSquare(64, 32, 300, channels);
      await encodeVideo({ ffmpegPath, codec, frames, outputFile, keepAlpha: channels === 4 });
      expect(await countKeyFrames(outputFile)).toEqual({ keys: 1, frames: 300 });
    },
  );

  it('codes what a sticker hides in the colour of its rim, and still hides it', async () => {
    // An orange square sliding over nothing: the frames' hidden pixels are transparent black.
    const width = 64;
    const height = 48;
    const count = 6;
    const data = Buffer.alloc(width * height * 4 * count);
    for (let frame = 0; frame < count; frame += 1) {
      for (let y = 16; y < 32; y += 1) {
        for (let x = 8; x < 24; x += 1) {
          data.set([230, 120, 20, 255], ((frame * height + y) * width + x + frame * 4) * 4);
        }
      }
    }
    const outputFile = path.join(workDir(), 'sticker.webm');
    await encodeVideo({
      ffmpegPath,
      codec: 'vp9',
      frames: { data, width, height, frames: count, delays: Array<number>(count).fill(100) },
      outputFile,
      keepAlpha: true,
    });
    // ffmpeg's own VP9 decoder reads the colour stream alone.
    const colour = execFileSync(ffmpegPath, [
      ...['-hide_banner', '-loglevel', 'error', '-i', outputFile, '-vsync', 'passthrough'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
    ]);
    const frameBytes = width * height * 4;
    expect(colour.length).toBe(frameBytes * count);
    for (const index of [0, count - 1]) {
      const frame = colour.subarray(index * frameBytes, (index + 1) * frameBytes);
      for (const [x, y] of [
        [2, 2],
        [60, 44],
      ] as const) {
        const [r, g, b] = pixelAt(frame, width, x, y);
        expect(Math.abs(r - 230) + Math.abs(g - 120) + Math.abs(b - 20), `${x},${y}`).toBeLessThan(
          24,
        );
      }
    }
    // With its alpha, as browsers play it: the corner is still see-through, the square solid.
    const [first] = decodeVideoFrames(ffmpegPath, outputFile, { width, height });
    expect(pixelAt(first!, width, 2, 2)[3]).toBeLessThan(16);
    expect(pixelAt(first!, width, 16, 24)[3]).toBeGreaterThan(240);
  });
});
