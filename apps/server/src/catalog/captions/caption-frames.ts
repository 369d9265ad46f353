import sharp from 'sharp';

/** Frames read per item at most: the first, then those where the picture changed most. */
export const maxCaptionFrames = 3;
/** Frames looked at to find the changes (evenly spread over a long animation). */
const sampledFrames = 24;
/** Thumbnail side the frames are compared at. */
const signatureSide = 16;
/** Mean absolute difference (0–255) of two thumbnails past which a frame is a new picture. */
const changeThreshold = 12;
/** A frame is read at this width: small ones upscaled (the engine wants ~20 px letters). */
const readWidth = 640;
/** Decoding stops past this many pixels per frame (the original already passed the importer). */
const maxFramePixels = 16_000_000;

/**
 * Which frames to read: the first, then up to `maxCaptionFrames - 1` whose small grey
 * thumbnail differs most from every frame already chosen, if it differs enough. A caption that
 * changes (subtitles) is caught; a still loop is read once (docs/catalog.md, "Captions").
 */
export async function pickCaptionFrames(bytes: Buffer): Promise<number[]> {
  const meta = await sharp(bytes, { limitInputPixels: maxFramePixels }).metadata();
  const pages = Math.max(1, meta.pages ?? 1);
  if (pages === 1) return [0];
  const sampled = [
    ...new Set(
      Array.from({ length: Math.min(pages, sampledFrames) }, (_, i) =>
        Math.floor((i * pages) / Math.min(pages, sampledFrames)),
      ),
    ),
  ];
  // One decode of every frame, each shrunk to a thumbnail (stacked one above the other).
  const { data, info } = await sharp(bytes, {
    animated: true,
    limitInputPixels: maxFramePixels,
  })
    .resize(signatureSide, signatureSide, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const side = signatureSide * signatureSide;
  const count = Math.min(pages, Math.floor(data.length / (side * info.channels)));
  const signature = (page: number) => {
    const out = new Float32Array(side);
    for (let i = 0; i < side; i++) out[i] = data[(page * side + i) * info.channels]!;
    return out;
  };
  const difference = (a: Float32Array, b: Float32Array) => {
    let sum = 0;
    for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
    return sum / a.length;
  };
  const chosen = [0];
  const chosenSignatures = [signature(0)];
  while (chosen.length < maxCaptionFrames) {
    let best = -1;
    let bestDifference = changeThreshold;
    for (const page of sampled) {
      if (page >= count || chosen.includes(page)) continue;
      const own = signature(page);
      const nearest = Math.min(...chosenSignatures.map((other) => difference(own, other)));
      if (nearest > bestDifference) {
        best = page;
        bestDifference = nearest;
      }
    }
    // No frame changed enough: a spread of the loop instead (a caption that bobs or fades is
    // read more than once, and a word read twice needs less confidence, caption-words.ts).
    if (best === -1)
      best =
        sampled.find(
          (page) =>
            page < count &&
            page >= (chosen.length * count) / maxCaptionFrames &&
            !chosen.includes(page),
        ) ?? -1;
    if (best === -1) break;
    chosen.push(best);
    chosenSignatures.push(signature(best));
  }
  return chosen.sort((a, b) => a - b);
}

/** Grows a mask by `radius` pixels (a square), in two passes of running distances. */
function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    let last = -Infinity;
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) last = x;
      rows[y * width + x] = x - last <= radius ? 1 : 0;
    }
    last = Infinity;
    for (let x = width - 1; x >= 0; x--) {
      if (mask[y * width + x]) last = x;
      if (last - x <= radius) rows[y * width + x] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) {
    let last = -Infinity;
    for (let y = 0; y < height; y++) {
      if (rows[y * width + x]) last = y;
      out[y * width + x] = y - last <= radius ? 1 : 0;
    }
    last = Infinity;
    for (let y = height - 1; y >= 0; y--) {
      if (rows[y * width + x]) last = y;
      if (last - y <= radius) out[y * width + x] = 1;
    }
  }
  return out;
}

/**
 * A frame prepared for the engine, which reads dark letters on a light ground best, in two
 * variants (docs/catalog.md, "Captions"):
 * - `outlined`: light pixels near dark ones, black on white: white or yellow letters with a
 *   dark outline (meme captions, subtitles) over any picture; a light background far from
 *   any outline drops out;
 * - `plain`: grey, thresholded at its mean, dark side black: plain text on a flat background,
 *   either way round (light text on a dark ground is inverted first).
 */
export async function prepareCaptionFrame(bytes: Buffer, page: number): Promise<Buffer[]> {
  const frame = sharp(bytes, { page, limitInputPixels: maxFramePixels });
  const meta = await frame.metadata();
  const width = Math.min(Math.max(meta.width ?? readWidth, readWidth), 960);
  const { data, info } = await frame
    .flatten({ background: '#808080' })
    .resize({ width })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const grey = new Uint8Array(n);
  for (let i = 0; i < n; i++) grey[i] = data[i * info.channels]!;
  const dark = new Uint8Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    dark[i] = grey[i]! < 80 ? 1 : 0;
    sum += grey[i]!;
  }
  const mean = sum / n;
  const nearDark = dilate(dark, info.width, info.height, Math.round(info.width / 80));
  const outlined = Buffer.alloc(n, 255);
  for (let i = 0; i < n; i++) if (grey[i]! > 190 && nearDark[i]) outlined[i] = 0;
  // Text is the minority: on a dark ground (mean below the middle) the light side is the text.
  const isDarkGround = mean < 128;
  const plain = Buffer.alloc(n, 255);
  for (let i = 0; i < n; i++) {
    const isDarkSide = grey[i]! < mean;
    if (isDarkSide !== isDarkGround) plain[i] = 0;
  }
  const raw = { width: info.width, height: info.height, channels: 1 } as const;
  return Promise.all(
    [outlined, plain].map((pixels) =>
      sharp(pixels, { raw }).png({ compressionLevel: 1 }).toBuffer(),
    ),
  );
}
