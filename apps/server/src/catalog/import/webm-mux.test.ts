import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeVideoFrames, pixelAt } from '../../test-support/media.ts';
import { encodeVideo, resolveFfmpegPath } from './encode-video.ts';
import { isVp9KeyFrame, muxVp9Webm, readIvf } from './webm-mux.ts';
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

describe.skipIf(!ffmpegPath)('WebM from VP9 streams', () => {
  const workDir = useTempDir('sticky-webm-mux-');

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
      keepAlpha: true,
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

  it('codes each frame of an opaque video once, at the time the animation shows it', async () => {
    const outputFile = path.join(workDir(), 'timed.webm');
    // RGB (a GIF's tile, flattened): the square on white, shown 1 s, 1 s, 0.1 s and 1 s.
    const rgba = makeMovingSquare(4);
    const rgb = Buffer.alloc((rgba.length / 4) * 3);
    for (let pixel = 0; pixel < rgba.length / 4; pixel += 1) {
      const isSquare = rgba[pixel * 4 + 3] === 255;
      rgb.set(isSquare ? rgba.subarray(pixel * 4, pixel * 4 + 3) : [255, 255, 255], pixel * 3);
    }
    const encoded = await encodeVideo({
      ffmpegPath: ffmpegPath!,
      codec: 'vp9',
      frames: {
        data: rgb,
        channels: 3,
        width: 32,
        height: 24,
        frames: 4,
        delays: [1000, 1000, 100, 1000],
      },
      outputFile,
    });
    expect(encoded).toEqual({ frames: 4, durationMs: 3100 });
    expect(fs.readdirSync(workDir()).filter((name) => name.startsWith('timed'))).toEqual([
      'timed.webm',
    ]);
    const probe = spawnSync(
      ffmpegPath!,
      ['-hide_banner', '-i', outputFile, '-vf', 'showinfo', '-f', 'null', '-'],
      { encoding: 'utf8' },
    );
    expect(probe.stderr).toMatch(/Video: vp9/);
    expect(probe.stderr).not.toMatch(/alpha_mode/);
    expect(probe.stderr).toMatch(/Duration: 00:00:03\.10/);
    const times = [...probe.stderr.matchAll(/pts_time:([\d.]+)/g)].map((match) => Number(match[1]));
    expect(times).toEqual([0, 1, 2, 2.1]);
    const frames = decodeVideoFrames(ffmpegPath!, outputFile, { width: 32, height: 24 });
    for (const [index, frame] of frames.entries()) {
      const [r, g, b, alpha] = pixelAt(frame, 32, 7 + index * 2, 12);
      expect(alpha, `frame ${index}: opaque`).toBe(255);
      expect(r, `frame ${index}, the square's red`).toBeGreaterThan(200);
      expect(Math.max(g, b), `frame ${index}, the square's green and blue`).toBeLessThan(90);
      expect(
        Math.min(...pixelAt(frame, 32, 28, 2).slice(0, 3)),
        `frame ${index}, white`,
      ).toBeGreaterThan(230);
    }
  });

  it('codes RGBA frames without their alpha when told to, and refuses alpha without it', async () => {
    const outputFile = path.join(workDir(), 'flat.webm');
    const frames = {
      data: makeMovingSquare(3),
      width: 32,
      height: 24,
      frames: 3,
      delays: [100, 100, 100],
    };
    await encodeVideo({
      ffmpegPath: ffmpegPath!,
      codec: 'vp9',
      frames,
      outputFile,
      keepAlpha: false,
    });
    const probe = spawnSync(ffmpegPath!, ['-hide_banner', '-i', outputFile], { encoding: 'utf8' });
    expect(probe.stderr).toMatch(/Video: vp9/);
    expect(probe.stderr).not.toMatch(/alpha_mode/);
    const [first] = decodeVideoFrames(ffmpegPath!, outputFile, { width: 32, height: 24 });
    expect(pixelAt(first!, 32, 28, 2)[3]).toBe(255);
    const rgb = { ...frames, data: Buffer.alloc(32 * 24 * 3 * 3), channels: 3 as const };
    await expect(
      encodeVideo({
        ffmpegPath: ffmpegPath!,
        codec: 'vp9',
        frames: rgb,
        outputFile: path.join(workDir(), 'rgb.webm'),
        keepAlpha: true,
      }),
    ).rejects.toThrow('RGBA');
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
    const timing = { startsMs: [0, 100, 200, 300], durationMs: 400 };
    await expect(
      muxVp9Webm(stream, { ...stream, frames: stream.frames.slice(1) }, timing),
    ).rejects.toThrow('4 and 3 frames');
    await expect(muxVp9Webm(stream, { ...stream, width: 64 }, timing)).rejects.toThrow('size');
    await expect(muxVp9Webm({ ...stream, codec: 'VP80' }, stream, timing)).rejects.toThrow('VP9');
    await expect(
      muxVp9Webm(stream, undefined, { startsMs: [0, 100, 200], durationMs: 300 }),
    ).rejects.toThrow('expected 3 VP9 frames, not 4');
  });
});
