import { sniffFormat } from './inspect-media.ts';

/**
 * Removes what a file says about its maker rather than what it shows (docs/uploads.md,
 * "Cleaned originals"): EXIF (with GPS), XMP, IPTC, text and comment blocks. The pixels and
 * the animation are copied byte for byte, so the original stays the original: re-encoding a
 * GIF or a JPEG to drop its metadata would cost quality and, for GIFs, often bytes. Written
 * here because the container formats are simple and no maintained library strips all four
 * without re-encoding. A file whose structure cannot be followed is given back unchanged (the
 * decoder then decides whether it is an image at all), and bytes after a format's end marker
 * are dropped: nothing may hide behind the image.
 */
export function stripMetadata(bytes: Buffer): Buffer {
  switch (sniffFormat(bytes)) {
    case 'gif':
      return stripGif(bytes) ?? bytes;
    case 'png':
      return stripPng(bytes) ?? bytes;
    case 'jpeg':
      return stripJpeg(bytes) ?? bytes;
    case 'webp':
      return stripWebp(bytes) ?? bytes;
    default:
      return bytes;
  }
}

/** GIF application extensions that change how the image plays; any other one is dropped. */
const keptGifApplications = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);

/** The end of a run of GIF data sub-blocks starting at `at`, or undefined if cut short. */
function skipSubBlocks(bytes: Buffer, at: number): number | undefined {
  let position = at;
  while (position < bytes.length) {
    const size = bytes[position]!;
    position += 1 + size;
    if (size === 0) return position;
  }
  return undefined;
}

function stripGif(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 13) return undefined;
  const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  let position = 13 + colorTableBytes(bytes[10]!);
  const kept: Buffer[] = [bytes.subarray(0, position)];
  let frames = 0;
  while (position < bytes.length) {
    const introducer = bytes[position]!;
    if (introducer === 0x3b) {
      kept.push(bytes.subarray(position, position + 1));
      return Buffer.concat(kept);
    }
    if (introducer === 0x21) {
      const label = bytes[position + 1];
      const end = skipSubBlocks(bytes, position + 2);
      if (label === undefined || end === undefined) break;
      const isComment = label === 0xfe;
      const identifier =
        label === 0xff && bytes[position + 2] === 11
          ? bytes.toString('latin1', position + 3, position + 14)
          : undefined;
      const isOtherApplication =
        label === 0xff && !(identifier && keptGifApplications.has(identifier));
      if (!isComment && !isOtherApplication) kept.push(bytes.subarray(position, end));
      position = end;
      continue;
    }
    if (introducer === 0x2c) {
      if (position + 11 > bytes.length) break;
      const dataStart = position + 10 + colorTableBytes(bytes[position + 9]!) + 1;
      const end = skipSubBlocks(bytes, dataStart);
      if (end === undefined) break;
      kept.push(bytes.subarray(position, end));
      frames += 1;
      position = end;
      continue;
    }
    break;
  }
  // Cut short or followed by junk: keep the whole frames read so far, and end the file there.
  if (frames === 0) return undefined;
  kept.push(Buffer.from([0x3b]));
  return Buffer.concat(kept);
}

/** PNG chunks that carry words or camera data, never pixels. */
const droppedPngChunks = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function stripPng(bytes: Buffer): Buffer | undefined {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let position = 8;
  while (position + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(position);
    const type = bytes.toString('latin1', position + 4, position + 8);
    const end = position + 12 + length;
    if (end > bytes.length) return undefined;
    if (!droppedPngChunks.has(type)) kept.push(bytes.subarray(position, end));
    position = end;
    if (type === 'IEND') return Buffer.concat(kept);
  }
  return undefined;
}

/** JPEG segments kept before the image data: JFIF, ICC colour, Adobe's colour transform. */
const keptJpegMarkers = new Set([0xe0, 0xe2, 0xee]);

function stripJpeg(bytes: Buffer): Buffer | undefined {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let position = 2;
  while (position + 4 <= bytes.length) {
    if (bytes[position] !== 0xff) return undefined;
    const marker = bytes[position + 1]!;
    if (marker === 0xff) {
      position += 1; // fill byte
      continue;
    }
    const length = bytes.readUInt16BE(position + 2);
    const end = position + 2 + length;
    if (length < 2 || end > bytes.length) return undefined;
    if (marker === 0xda) {
      // Start of scan: the entropy-coded data and the rest of the frame follow as they are.
      kept.push(bytes.subarray(position));
      return Buffer.concat(kept);
    }
    const isApplication = marker >= 0xe0 && marker <= 0xef;
    const isComment = marker === 0xfe;
    if (!(isApplication && !keptJpegMarkers.has(marker)) && !isComment) {
      kept.push(bytes.subarray(position, end));
    }
    position = end;
  }
  return undefined;
}

/** VP8X flags of the chunks dropped below. */
const WEBP_EXIF_FLAG = 0x08;
const WEBP_XMP_FLAG = 0x04;

function stripWebp(bytes: Buffer): Buffer | undefined {
  const riffEnd = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  const kept: Buffer[] = [];
  let position = 12;
  while (position + 8 <= riffEnd) {
    const fourcc = bytes.toString('latin1', position, position + 4);
    const size = bytes.readUInt32LE(position + 4);
    const end = position + 8 + size + (size % 2);
    if (position + 8 + size > riffEnd) return undefined;
    if (fourcc === 'VP8X') {
      const chunk = Buffer.from(bytes.subarray(position, Math.min(end, riffEnd)));
      chunk[8] = chunk[8]! & ~(WEBP_EXIF_FLAG | WEBP_XMP_FLAG);
      kept.push(chunk);
    } else if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      kept.push(bytes.subarray(position, Math.min(end, riffEnd)));
    }
    position = end;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.from(bytes.subarray(0, 12));
  header.writeUInt32LE(body.length + 4, 4);
  return Buffer.concat([header, body]);
}
