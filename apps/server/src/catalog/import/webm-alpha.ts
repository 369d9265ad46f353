/**
 * A WebM with alpha from two VP9 streams that ffmpeg coded apart: the colour, and the alpha
 * plane as the luma of a second stream (docs/catalog.md, "Renditions"). This is the layout
 * ffmpeg itself writes (the alpha frame of each block in its BlockAdditional, `AlphaMode` on
 * the track), which Chromium and Firefox play. We mux it ourselves because the ffmpeg that
 * `npm install` brings (4.1) codes the alpha stream with the colour's bitrate but none of its
 * quality or speed settings: at the default quantiser, half a sticker's bytes, five times
 * slower. Coded apart, each stream gets its own quality (encode-video.ts).
 */

/** One frame of an IVF file: its presentation time in the file's timebase and its bytes. */
export interface IvfFrame {
  pts: number;
  data: Uint8Array;
}

export interface IvfStream {
  /** The fourcc of the codec (`VP90` for VP9). */
  codec: string;
  width: number;
  height: number;
  /** Seconds per pts unit (the header's scale over its rate). */
  secondsPerTick: number;
  frames: IvfFrame[];
}

const IVF_SIGNATURE = 'DKIF';
const IVF_FRAME_HEADER_BYTES = 12;

/**
 * Reads an IVF file (libvpx's plain container: a 32-byte header, then each frame's size and
 * pts before its bytes), as ffmpeg's `-f ivf` writes it. Throws on anything else or on a cut
 * file: a half-written stream must not become half a video.
 */
export function readIvf(bytes: Uint8Array): IvfStream {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 32 || String.fromCharCode(...bytes.subarray(0, 4)) !== IVF_SIGNATURE) {
    throw new Error('not an IVF stream');
  }
  const headerBytes = view.getUint16(6, true);
  const codec = String.fromCharCode(...bytes.subarray(8, 12));
  const rate = view.getUint32(16, true);
  const scale = view.getUint32(20, true);
  if (headerBytes < 32 || rate === 0 || scale === 0) throw new Error('IVF header is invalid');
  const frames: IvfFrame[] = [];
  let offset = headerBytes;
  while (offset < bytes.byteLength) {
    if (offset + IVF_FRAME_HEADER_BYTES > bytes.byteLength) throw new Error('IVF frame is cut');
    const size = view.getUint32(offset, true);
    const pts = Number(view.getBigUint64(offset + 4, true));
    const start = offset + IVF_FRAME_HEADER_BYTES;
    if (start + size > bytes.byteLength) throw new Error('IVF frame is cut');
    frames.push({ pts, data: bytes.subarray(start, start + size) });
    offset = start + size;
  }
  return {
    codec,
    width: view.getUint16(12, true),
    height: view.getUint16(14, true),
    secondsPerTick: scale / rate,
    frames,
  };
}

/**
 * Whether a VP9 frame is a key frame, from its uncompressed header: frame marker 2, the two
 * profile bits (and a reserved zero in profile 3), show_existing_frame 0, frame_type 0. A
 * superframe (a hidden alternate reference and the frame shown, as libvpx packs them) starts
 * with its first frame's header.
 */
export function isVp9KeyFrame(data: Uint8Array): boolean {
  const first = data[0];
  if (first === undefined || first >> 6 !== 2) return false;
  const profile = ((first >> 5) & 1) | (((first >> 4) & 1) << 1);
  // Profile 3 has a reserved bit before show_existing_frame.
  const shift = profile === 3 ? 2 : 3;
  const showExisting = (first >> shift) & 1;
  const frameType = (first >> (shift - 1)) & 1;
  return showExisting === 0 && frameType === 0;
}

/**
 * Muxes a VP9 colour stream and its alpha stream (frame for frame, the same timing) into one
 * WebM with alpha. A block is a key frame only where both streams have one, so a player that
 * seeks there can decode both.
 */
export async function muxVp9WithAlpha(colour: IvfStream, alpha: IvfStream): Promise<Uint8Array> {
  if (colour.codec !== 'VP90' || alpha.codec !== 'VP90') {
    throw new Error(`expected two VP9 streams, not ${colour.codec} and ${alpha.codec}`);
  }
  if (colour.frames.length !== alpha.frames.length || colour.frames.length === 0) {
    throw new Error(
      `the colour and alpha streams differ: ${colour.frames.length} and ${alpha.frames.length} frames`,
    );
  }
  if (colour.width !== alpha.width || colour.height !== alpha.height) {
    throw new Error('the colour and alpha streams differ in size');
  }
  // Loaded here, not with the module: it takes about 100 ms, and the server and every decoder
  // import this file while only a transparent item's later renditions mux.
  const { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } =
    await import('mediabunny');
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  const source = new EncodedVideoPacketSource('vp9');
  output.addVideoTrack(source);
  await output.start();
  const tick = colour.secondsPerTick;
  for (const [index, frame] of colour.frames.entries()) {
    const alphaFrame = alpha.frames[index]!;
    const next = colour.frames[index + 1];
    const isKey = isVp9KeyFrame(frame.data) && isVp9KeyFrame(alphaFrame.data);
    if (index === 0 && !isKey) throw new Error('the streams do not start with a key frame');
    const packet = new EncodedPacket(
      frame.data,
      isKey ? 'key' : 'delta',
      frame.pts * tick,
      ((next?.pts ?? frame.pts + 1) - frame.pts) * tick,
      undefined,
      undefined,
      { alpha: alphaFrame.data },
    );
    await source.add(
      packet,
      index === 0
        ? {
            decoderConfig: {
              codec: 'vp09.00.10.08',
              codedWidth: colour.width,
              codedHeight: colour.height,
            },
          }
        : undefined,
    );
  }
  await output.finalize();
  const buffer = output.target.buffer;
  if (!buffer) throw new Error('the WebM muxer wrote nothing');
  return new Uint8Array(buffer);
}
