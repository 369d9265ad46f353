import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeVideoFrames, pixelAt, summarizeMp4 } from '../../test-support/media.ts';
import { encodeVideo, resolveFfmpegPath } from './encode-video.ts';
import { useTempDir } from '../../test-support/files.ts';

const ffmpegPath = resolveFfmpegPath();

/** Frames of one flat colour each, as RGB (3 bytes a pixel, what H.264 gets: no alpha). */
function makeRgbFrames(width: number, height: number, colours: Array<[number, number, number]>) {
  const data = Buffer.alloc(width * height * 3 * colours.length);
  colours.forEach(([r, g, b], frame) => {
    for (let pixel = 0; pixel < width * height; pixel += 1) {
      const offset = (frame * width * height + pixel) * 3;
      data[offset] = r;
      data[offset + 1] = g;
      data[offset + 2] = b;
    }
  });
  return { data, channels: 3 as const, width, height, frames: colours.length };
}

describe.skipIf(!ffmpegPath)('encodeVideo with RGB frames', () => {
  const workDir = useTempDir('sticky-encode-rgb-');

  it('makes an H.264 MP4 of RGB frames that shows their colours, in order and for their time', async () => {
    const colours: Array<[number, number, number]> = [
      [220, 40, 40],
      [40, 200, 60],
      [40, 60, 220],
    ];
    const outputFile = path.join(workDir(), 'rgb.mp4');
    const frames = { ...makeRgbFrames(32, 24, colours), delays: [100, 200, 100] };
    const encoded = await encodeVideo({
      ffmpegPath: ffmpegPath!,
      codec: 'h264',
      frames,
      outputFile,
    });
    expect(encoded).toEqual({ frames: 4, durationMs: 400 });
    expect(summarizeMp4(fs.readFileSync(outputFile)).durationMs).toBe(400);
    const decoded = decodeVideoFrames(ffmpegPath!, outputFile, frames);
    expect(decoded).toHaveLength(4);
    // The second colour shows for two steps of 100 ms.
    const expected = [colours[0]!, colours[1]!, colours[1]!, colours[2]!];
    decoded.forEach((frame, index) => {
      const [r, g, b] = pixelAt(frame, frames.width, 16, 12);
      const [er, eg, eb] = expected[index]!;
      expect(
        Math.max(Math.abs(r - er), Math.abs(g - eg), Math.abs(b - eb)),
        `frame ${index}`,
      ).toBeLessThan(16);
    });
  });
});
