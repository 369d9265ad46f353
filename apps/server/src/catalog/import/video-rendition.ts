import fs from 'node:fs/promises';
import { encodeVideo } from './encode-video.ts';
import type { VideoCodec } from './encode-video.ts';
import type { SelectedFrames } from './encode-image.ts';
import type { Size } from './rendition-sizes.ts';

export interface VideoRendition {
  format: 'mp4' | 'webm';
  /** Even dimensions (evenSize), the frames' own. */
  size: Size;
  selected: SelectedFrames;
  /** Stickers and animated text: their WebM keeps its alpha. */
  isTransparent: boolean;
  repeat?: number | undefined;
  crf?: number | undefined;
  ffmpegPath: string;
  /** Where ffmpeg writes; removed once read. */
  outputFile: string;
  threads?: number | undefined;
  memoryLimitBytes?: number | undefined;
  runningPids?: Set<number> | undefined;
}

/**
 * Encodes one video rendition: H.264 MP4 flattened onto black (GIPHY's look for a GIF with
 * holes), or VP9 WebM, keeping the alpha channel of a transparent item and flattened like the
 * MP4 for a GIF.
 */
export async function encodeVideoRendition(
  rendition: VideoRendition,
): Promise<{ data: Buffer; frames: number }> {
  const { format, size, selected } = rendition;
  const { pipeline, delays } = selected;
  // H.264 has no alpha, and a GIF's WebM shows what its MP4 shows: flattened onto black (sRGB,
  // a gray source included). A transparent item's WebM keeps its alpha.
  const hasAlpha = format === 'webm' && rendition.isTransparent;
  const flat = hasAlpha ? pipeline.ensureAlpha() : pipeline.flatten({ background: '#000000' });
  const { data, info: out } = await flat
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = out.channels === 3 ? 3 : 4;
  const codec: VideoCodec = format === 'mp4' ? 'h264' : 'vp9';
  const target = rendition.outputFile;
  try {
    const encoded = await encodeVideo({
      ffmpegPath: rendition.ffmpegPath,
      codec,
      frames: {
        data,
        channels,
        width: size.width,
        height: size.height,
        frames: delays.length,
        delays,
      },
      outputFile: target,
      keepAlpha: hasAlpha,
      repeat: rendition.repeat,
      crf: rendition.crf,
      threads: rendition.threads,
      memoryLimitBytes: rendition.memoryLimitBytes,
      runningPids: rendition.runningPids,
    });
    return { data: await fs.readFile(target), frames: encoded.frames };
  } finally {
    await fs.rm(target, { force: true });
  }
}
