import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeVideoFrames, pixelAt } from '../../test-support/media.ts';
import { encodeVideo, resolveFfmpegPath } from './encode-video.ts';
import { isVp9KeyFrame, muxVp9WithAlpha, readIvf } from './webm-alpha.ts';
import { useTempDir } from '../../test-support/files.ts';

const ffmpegPath = resolveFfmpegPath();

/** A 32×24 square moving right on a transparent field, frame by frame. */
function makeMovingSquare(frames: number): Buffer {
  const [width, height] = [32, 24];
  const data = Buffer.alloc(width * height * 4 * frames);
  for (let frame = 0; frame < frames; frame += 1) {
    for (let y = 8; y < 16; y += 1) {
      for (let x = 4 + frame * 2; x < 12 + frame * 2; x += 1) {
        data.set([230, 40, 60, 255], ((frame * height + y) * width + x) * 4);
      }
    }
  }
  return data;
}

/** An IVF stream of `frames` VP9 frames of grey noise, as ffmpeg writes one. */
function encodeIvf(dir: string, name: string, frames: number): Buffer {
  const file = path.join(dir, `${name}.ivf`);
  execFileSync(ffmpegPath!, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=32x24:rate=10:duration=${frames / 10}`,
    '-c:v',
    'libvpx-vp9',
    '-g',
    '250',
    '-f',
    'ivf',
    '-y',
    file,
  ]);
  return fs.readFileSync(file);
}

describe.skipIf(!ffmpegPath)('WebM with alpha from two VP9 streams', () => {
  const workDir = useTempDir('sticky-webm-alpha-');

  it('encodes a sticker whose alpha a browser’s decoder reads back, transparent around it', async () => {
    const outputFile = path.join(workDir(), 'square.webm');
    const encoded = await encodeVideo({
      ffmpegPath: ffmpegPath!,
      codec: 'vp9',
      frames: {
        data: makeMovingSquare(6),
        width: 32,
        height: 24,
        frames: 6,
        delays: [100, 100, 100, 100, 100, 100],
      },
      outputFile,
    });
    expect(encoded).toEqual({ frames: 6, durationMs: 600 });
    // Only the WebM is left: the two streams beside it are gone.
    expect(fs.readdirSync(workDir()).filter((name) => name.startsWith('square'))).toEqual([
      'square.webm',
    ]);
    const probe = spawnSync(ffmpegPath!, ['-hide_banner', '-i', outputFile], { encoding: 'utf8' });
    expect(probe.stderr).toMatch(/Video: vp9/);
    expect(probe.stderr).toMatch(/alpha_mode\s*: 1/);
    expect(probe.stderr).toMatch(/Duration: 00:00:00\.60/);
    const frames = decodeVideoFrames(ffmpegPath!, outputFile, { width: 32, height: 24 });
    expect(frames).toHaveLength(6);
    for (const [index, frame] of frames.entries()) {
      const [r, g, b, alpha] = pixelAt(frame, 32, 7 + index * 2, 12);
      expect(alpha, `frame ${index}, the square`).toBeGreaterThan(240);
      expect(r, `frame ${index}, the square's red`).toBeGreaterThan(200);
      expect(Math.max(g, b), `frame ${index}, the square's green and blue`).toBeLessThan(90);
      expect(pixelAt(frame, 32, 28, 2)[3], `frame ${index}, a corner`).toBeLessThan(16);
    }
  });

  it('reads IVF frames and knows a key frame from the ones after it', () => {
    const stream = readIvf(encodeIvf(workDir(), 'noise', 5));
    expect(stream).toMatchObject({ codec: 'VP90', width: 32, height: 24 });
    expect(stream.frames.map((frame) => frame.pts)).toEqual([0, 1, 2, 3, 4]);
    expect(stream.secondsPerTick).toBeCloseTo(0.1);
    expect(stream.frames.map((frame) => isVp9KeyFrame(frame.data))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('refuses what is not a whole IVF stream, and streams that do not pair', async () => {
    const bytes = encodeIvf(workDir(), 'pair', 4);
    expect(() => readIvf(Buffer.from('not a video at all, not even close'))).toThrow('not an IVF');
    expect(() => readIvf(bytes.subarray(0, bytes.length - 3))).toThrow('cut');
    const stream = readIvf(bytes);
    await expect(
      muxVp9WithAlpha(stream, { ...stream, frames: stream.frames.slice(1) }),
    ).rejects.toThrow('4 and 3 frames');
    await expect(muxVp9WithAlpha(stream, { ...stream, width: 64 })).rejects.toThrow('size');
    await expect(muxVp9WithAlpha({ ...stream, codec: 'VP80' }, stream)).rejects.toThrow('VP9');
  });
});
