/**
 * WebM from VP9 streams that ffmpeg coded as IVF (docs/catalog.md, "Renditions"), muxed here for
 * two reasons. Alpha: a transparent item's colour and its alpha plane (the luma of a second
 * stream) are coded apart, because the ffmpeg that `npm install` brings (4.1) codes a `yuva420p`
 * input's alpha with none of the colour's quality or speed settings (at the default quantiser,
 * half a sticker's bytes, five times slower); this is the layout ffmpeg itself writes (the alpha
 * frame of each block in its BlockAdditional, `AlphaMode` on the track), which Chromium and
 * Firefox play. Timing: each distinct frame is coded once and the container says when it
 * starts, where a constant frame rate repeats a frame shown for longer (encode-video.ts), which
 * VP9, unlike H.264, codes at a real cost.
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

/** When each frame of a video starts and how long the whole plays, in ms. */
export interface FrameTiming {
  startsMs: readonly number[];
  durationMs: number;
}

/**
 * Muxes a VP9 stream, and its alpha stream when it has one (frame for frame), into one WebM
 * whose frames start at `timing`'s times: ffmpeg coded each distinct frame once, at a nominal
 * rate, and the container carries the real timing. A block is a key frame only where both
 * streams have one, so a player that seeks there can decode both.
 */
export async function muxVp9Webm(
  colour: IvfStream,
  alpha: IvfStream | undefined,
  timing: FrameTiming,
): Promise<Uint8Array> {
  const streams = alpha ? [colour, alpha] : [colour];
  if (streams.some((stream) => stream.codec !== 'VP90')) {
    throw new Error(
      `expected VP9 streams, not ${streams.map((stream) => stream.codec).join(' and ')}`,
    );
  }
  const count = colour.frames.length;
  if (alpha && alpha.frames.length !== count) {
    throw new Error(
      `the colour and alpha streams differ: ${count} and ${alpha.frames.length} frames`,
    );
  }
  if (count === 0 || timing.startsMs.length !== count) {
    throw new Error(`expected ${timing.startsMs.length} VP9 frames, not ${count}`);
  }
  if (alpha && (colour.width !== alpha.width || colour.height !== alpha.height)) {
    throw new Error('the colour and alpha streams differ in size');
  }
  // Loaded here, not with the module: it takes about 100 ms, and the server and every decoder
  // import this file while only later renditions mux.
  const { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } =
    await import('mediabunny');
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  const source = new EncodedVideoPacketSource('vp9');
  output.addVideoTrack(source);
  await output.start();
  for (const [index, frame] of colour.frames.entries()) {
    const alphaFrame = alpha?.frames[index];
    const startMs = timing.startsMs[index]!;
    const endMs = timing.startsMs[index + 1] ?? timing.durationMs;
    const isKey = isVp9KeyFrame(frame.data) && (!alphaFrame || isVp9KeyFrame(alphaFrame.data));
    if (index === 0 && !isKey) throw new Error('the streams do not start with a key frame');
    const packet = new EncodedPacket(
      frame.data,
      isKey ? 'key' : 'delta',
      startMs / 1000,
      Math.max(1, endMs - startMs) / 1000,
      undefined,
      undefined,
      alphaFrame ? { alpha: alphaFrame.data } : undefined,
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
