import { crc32 } from 'node:zlib';
import { sniffFormat } from './inspect-media.ts';

/** A cleaned file, or why the file cannot be cleaned (and so is refused). */
export type StripOutcome = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/**
 * Keeps only what a file needs to be shown (docs/uploads.md, "Cleaned originals"): every
 * segment, chunk or block is walked and copied only when it is on the format's allow-list, so
 * EXIF (with GPS), XMP, IPTC, comments, text, C2PA, previews and whatever follows the end
 * marker never reach the store, wherever in the file they sit. Pixels and animation are copied
 * byte for byte: re-encoding would cost quality and, for GIFs, often bytes. A still's EXIF
 * orientation is kept, rebuilt as the one tag, so it stays upright. Fails closed: a file whose
 * structure cannot be followed is refused with a reason, never kept as sent. Written here
 * because no maintained library walks all four containers without re-encoding.
 */
export function stripMetadata(bytes: Buffer): StripOutcome {
  try {
    switch (sniffFormat(bytes)) {
      case 'gif':
        return stripGif(bytes);
      case 'png':
        return stripPng(bytes);
      case 'jpeg':
        return stripJpeg(bytes);
      case 'webp':
        return stripWebp(bytes);
      default:
        return refuse('it is not a GIF, WebP, PNG or JPEG image');
    }
  } catch (error) {
    // Every read below is bounds-checked; a RangeError here still means a file cut short.
    if (error instanceof RangeError) return refuse('the file is cut short');
    throw error;
  }
}

const refuse = (reason: string): StripOutcome => ({ ok: false, reason });
const keep = (parts: Buffer[]): StripOutcome => ({ ok: true, bytes: Buffer.concat(parts) });

// ---------------------------------------------------------------------------------------------
// Orientation: the one EXIF tag that changes how a still is shown (render-renditions.ts turns
// stills upright by it, and so do browsers). It is read from the sender's EXIF and written back
// alone, in a TIFF block built here, so nothing else of that EXIF survives.

/** The orientation (2 to 8) in a TIFF block (EXIF's body), or undefined when upright or absent. */
function readOrientation(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const isLittle = order === 'II';
  const read16 = (at: number) => (isLittle ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const read32 = (at: number) => (isLittle ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = read32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = read16(ifd);
  for (let index = 0; index < count; index += 1) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) return undefined;
    // Tag 0x0112, type SHORT (3), one value: TIFF 6.0 "Orientation".
    if (read16(entry) === 0x0112 && read16(entry + 2) === 3) {
      const value = read16(entry + 8);
      return value >= 2 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** A TIFF block holding only an orientation tag. */
function buildOrientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 follows the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  // Bytes 20..25: the value's padding and a zero "next IFD" offset.
  return tiff;
}

// ---------------------------------------------------------------------------------------------
// JPEG (ITU T.81, B.1): markers 0xFFxx; most carry a 2-byte length; a scan's entropy-coded data
// runs until the next marker that is neither a stuffed 0xFF00 nor a restart RST0-7.

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const ICC_HEADER = Buffer.from('ICC_PROFILE\0', 'latin1');

/** Markers kept as they are: frame headers, tables, restart interval, scans. */
function isKeptJpegMarker(marker: number): boolean {
  const isFrameHeader =
    marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
  // DHT, DAC (arithmetic coding tables), DQT, DNL, DRI.
  return isFrameHeader || [0xc4, 0xcc, 0xdb, 0xdc, 0xdd].includes(marker);
}

/** Markers that are dropped: application data (APP0-15), comments. */
const isDroppedJpegMarker = (marker: number) =>
  (marker >= 0xe0 && marker <= 0xef) || marker === 0xfe;

const formatMarker = (marker: number) =>
  `0xFF${marker.toString(16).toUpperCase().padStart(2, '0')}`;

/** A JPEG segment: marker, 2-byte length, data. */
function buildJpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** The end of a scan's entropy-coded data starting at `at`: the offset of the next marker. */
function findScanEnd(bytes: Buffer, at: number): number | undefined {
  let position = at;
  for (;;) {
    position = bytes.indexOf(0xff, position);
    if (position === -1 || position + 1 >= bytes.length) return undefined;
    const next = bytes[position + 1]!;
    // A stuffed 0xFF00 or a restart marker is part of the data; 0xFFFF is fill before a marker.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) position += 2;
    else if (next === 0xff) position += 1;
    else return position;
  }
}

function stripJpeg(bytes: Buffer): StripOutcome {
  const kept: Buffer[] = [Buffer.from([0xff, 0xd8])];
  let jfif: Buffer | undefined;
  let orientation: number | undefined;
  let hasExif = false;
  let position = 2;
  for (;;) {
    if (position + 2 > bytes.length) return refuse('the JPEG is cut short (it has no end marker)');
    if (bytes[position] !== 0xff) {
      return refuse(`the JPEG is damaged: stray bytes where a marker should be (at ${position})`);
    }
    const marker = bytes[position + 1]!;
    if (marker === 0xff) {
      position += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      // End of image: anything after it (MPF previews, Motion Photo videos, junk) is dropped.
      kept.push(Buffer.from([0xff, 0xd9]));
      break;
    }
    if (marker >= 0xd0 && marker <= 0xd7) {
      kept.push(bytes.subarray(position, position + 2));
      position += 2;
      continue;
    }
    if (marker === 0x01 || marker === 0x00 || marker === 0xd8) {
      return refuse(
        `the JPEG is damaged: unexpected marker ${formatMarker(marker)} (at ${position})`,
      );
    }
    if (position + 4 > bytes.length) return refuse('the JPEG is cut short (in a segment header)');
    const length = bytes.readUInt16BE(position + 2);
    const end = position + 2 + length;
    if (length < 2) return refuse(`the JPEG is damaged: a segment of length ${length}`);
    if (end > bytes.length)
      return refuse(`the JPEG is cut short (in a ${formatMarker(marker)} segment)`);
    const data = bytes.subarray(position + 4, end);
    if (marker === 0xda) {
      const scanEnd = findScanEnd(bytes, end);
      if (scanEnd === undefined) return refuse('the JPEG is cut short (in its image data)');
      kept.push(bytes.subarray(position, scanEnd));
      position = scanEnd;
      continue;
    }
    if (isKeptJpegMarker(marker)) {
      kept.push(bytes.subarray(position, end));
    } else if (marker === 0xe0 && data.toString('latin1', 0, 5) === 'JFIF\0' && data.length >= 14) {
      // JFIF version, density unit and densities; its thumbnail (a second picture) is not kept.
      if (!jfif) jfif = Buffer.concat([data.subarray(0, 12), Buffer.from([0, 0])]);
    } else if (marker === 0xe1 && data.subarray(0, 6).equals(EXIF_HEADER)) {
      if (!hasExif) orientation = readOrientation(data.subarray(6));
      hasExif = true;
    } else if (marker === 0xe2 && data.subarray(0, 12).equals(ICC_HEADER)) {
      kept.push(bytes.subarray(position, end)); // the color profile the pixels are in
    } else if (marker === 0xee && data.toString('latin1', 0, 5) === 'Adobe') {
      kept.push(bytes.subarray(position, end)); // says whether the pixels are RGB, YCbCr or YCCK
    } else if (!isDroppedJpegMarker(marker)) {
      return refuse(`the JPEG has a segment of unknown kind (${formatMarker(marker)})`);
    }
    position = end;
  }
  // JFIF's segment comes first, then EXIF's (JFIF 1.02, EXIF 2.3 4.5.4: readers take either).
  const head: Buffer[] = [];
  if (jfif) head.push(buildJpegSegment(0xe0, jfif));
  if (orientation) {
    head.push(
      buildJpegSegment(0xe1, Buffer.concat([EXIF_HEADER, buildOrientationTiff(orientation)])),
    );
  }
  return keep([kept[0]!, ...head, ...kept.slice(1)]);
}

// ---------------------------------------------------------------------------------------------
// PNG (W3C PNG 3rd edition, 5.3): length, type, data, CRC; the file ends with IEND.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Chunks that shape the pixels, their colors or the animation; every other one is dropped. */
const keptPngChunks = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'cICP',
  'sBIT',
  'pHYs',
  'bKGD',
  'acTL',
  'fcTL',
  'fdAT',
]);

function buildPngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

function stripPng(bytes: Buffer): StripOutcome {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return refuse('the PNG signature is damaged');
  const kept: Buffer[] = [PNG_SIGNATURE];
  let orientation: number | undefined;
  let position = 8;
  for (;;) {
    if (position + 12 > bytes.length) return refuse('the PNG is cut short (it has no IEND chunk)');
    const length = bytes.readUInt32BE(position);
    const type = bytes.toString('latin1', position + 4, position + 8);
    const end = position + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type)) return refuse('the PNG is damaged: a chunk has no valid type');
    if (length > 0x7fffffff || end > bytes.length) {
      return refuse(`the PNG is cut short (in a ${type} chunk)`);
    }
    const isKept = keptPngChunks.has(type);
    // A chunk whose type starts upper-case is critical: it cannot be shown without it.
    const isCritical = type.charCodeAt(0) < 0x61;
    if (isCritical && !isKept)
      return refuse(`the PNG has a critical chunk of unknown kind (${type})`);
    if (isKept && bytes.readUInt32BE(end - 4) !== crc32(bytes.subarray(position + 4, end - 4))) {
      return refuse(`the PNG is damaged: its ${type} chunk fails its checksum`);
    }
    if (type === 'eXIf' && orientation === undefined) {
      orientation = readOrientation(bytes.subarray(position + 8, end - 4)) ?? 0;
    }
    if (isKept) kept.push(bytes.subarray(position, end));
    position = end;
    if (type === 'IEND') break;
  }
  if (orientation) {
    // Right after IHDR, before the image data (PNG 3rd edition, 11.3.6 eXIf).
    kept.splice(2, 0, buildPngChunk('eXIf', buildOrientationTiff(orientation)));
  }
  return keep(kept);
}

// ---------------------------------------------------------------------------------------------
// WebP (RFC 9649): a RIFF file of chunks (FourCC, 32-bit little-endian size, data padded to
// even); an animation frame (ANMF) holds chunks of its own.

/** Top-level chunks that carry the picture, its alpha, animation and color profile. */
const keptWebpChunks = new Set(['VP8X', 'VP8 ', 'VP8L', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
/** Chunks an ANMF frame may hold that are its picture (RFC 9649, 2.7.1.1 "Frame Data"). */
const keptWebpFrameChunks = new Set(['VP8 ', 'VP8L', 'ALPH']);

/** VP8X flags (RFC 9649, 2.7): ICC profile, alpha, EXIF, XMP, animation. */
const WEBP_ICC_FLAG = 0x20;
const WEBP_ALPHA_FLAG = 0x10;
const WEBP_EXIF_FLAG = 0x08;
const WEBP_ANIMATION_FLAG = 0x02;

interface RiffChunk {
  fourcc: string;
  data: Buffer;
}

/** The chunks between `start` and `end`, or the reason they cannot be read. */
function readRiffChunks(bytes: Buffer, start: number, end: number): RiffChunk[] | string {
  const chunks: RiffChunk[] = [];
  let position = start;
  while (position < end) {
    if (position + 8 > end) return 'the WebP is cut short (in a chunk header)';
    const fourcc = bytes.toString('latin1', position, position + 4);
    const size = bytes.readUInt32LE(position + 4);
    if (position + 8 + size > end) return `the WebP is cut short (in a ${fourcc.trim()} chunk)`;
    chunks.push({ fourcc, data: bytes.subarray(position + 8, position + 8 + size) });
    // The padding byte of an odd-sized chunk may be missing at the very end.
    position = Math.min(end, position + 8 + size + (size % 2));
  }
  return chunks;
}

function buildRiffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat(data.length % 2 ? [head, data, Buffer.alloc(1)] : [head, data]);
}

function stripWebp(bytes: Buffer): StripOutcome {
  if (bytes.length < 12) return refuse('the WebP is cut short (in its header)');
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length) return refuse('the WebP is cut short (shorter than its header says)');
  const chunks = readRiffChunks(bytes, 12, riffEnd);
  if (typeof chunks === 'string') return refuse(chunks);

  let orientation: number | undefined;
  const kept: Buffer[] = [];
  for (const { fourcc, data } of chunks) {
    if (fourcc === 'EXIF' && orientation === undefined) {
      // Some writers put EXIF's "Exif\0\0" header before the TIFF block.
      const tiff = data.subarray(0, 6).equals(EXIF_HEADER) ? data.subarray(6) : data;
      orientation = readOrientation(tiff) ?? 0;
    }
    if (!keptWebpChunks.has(fourcc)) continue;
    if (fourcc === 'ANMF') {
      if (data.length < 16) return refuse('the WebP is damaged: an animation frame is cut short');
      const inner = readRiffChunks(data, 16, data.length);
      if (typeof inner === 'string') return refuse(inner);
      const frame = inner
        .filter((chunk) => keptWebpFrameChunks.has(chunk.fourcc))
        .map((chunk) => buildRiffChunk(chunk.fourcc, chunk.data));
      kept.push(buildRiffChunk('ANMF', Buffer.concat([data.subarray(0, 16), ...frame])));
    } else {
      kept.push(buildRiffChunk(fourcc, data));
    }
  }

  const extended = chunks.find((chunk) => chunk.fourcc === 'VP8X');
  if (extended) {
    if (extended.data.length < 10) return refuse('the WebP is damaged: its VP8X chunk is short');
    // Flags say what follows: only what is kept (RFC 9649, 2.7 "Extended File Format").
    const hasIcc = chunks.some((chunk) => chunk.fourcc === 'ICCP');
    const flags =
      (extended.data[0]! & (WEBP_ALPHA_FLAG | WEBP_ANIMATION_FLAG)) |
      (hasIcc ? WEBP_ICC_FLAG : 0) |
      (orientation ? WEBP_EXIF_FLAG : 0);
    const header = Buffer.concat([Buffer.from([flags, 0, 0, 0]), extended.data.subarray(4, 10)]);
    kept[kept.findIndex((chunk) => chunk.toString('latin1', 0, 4) === 'VP8X')] = buildRiffChunk(
      'VP8X',
      header,
    );
    // The EXIF chunk comes last (RFC 9649, 2.7 "Extended File Format", chunk order).
    if (orientation) kept.push(buildRiffChunk('EXIF', buildOrientationTiff(orientation)));
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return keep([header, body]);
}

// ---------------------------------------------------------------------------------------------
// GIF (GIF89a specification): header, logical screen, optional color table, then blocks:
// extensions (0x21), images (0x2C) and the trailer (0x3B). Extensions and images end with a
// run of sub-blocks closed by a zero-length one.

/** Application extensions whose only job is the loop count (GIF89a, 26; Netscape's and Adobe's). */
const loopApplications = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

/** The end of a run of data sub-blocks starting at `at`, or undefined if cut short. */
function skipSubBlocks(bytes: Buffer, at: number): number | undefined {
  let position = at;
  while (position < bytes.length) {
    const size = bytes[position]!;
    position += 1 + size;
    if (size === 0) return position <= bytes.length ? position : undefined;
  }
  return undefined;
}

const countColorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);

/** A looping extension rebuilt from its loop count alone (nothing else of the block is kept). */
function buildLoopExtension(loops: number): Buffer {
  const block = Buffer.from([0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0]);
  block.writeUInt16LE(loops, 16);
  return block;
}

function stripGif(bytes: Buffer): StripOutcome {
  if (bytes.length < 13) return refuse('the file is truncated (no GIF header)');
  let position = 13 + countColorTableBytes(bytes[10]!);
  if (position > bytes.length) return refuse('the GIF is cut short (in its color table)');
  const kept: Buffer[] = [bytes.subarray(0, position)];
  let isLoopKept = false;
  while (position < bytes.length) {
    const introducer = bytes[position]!;
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      const label = bytes[position + 1];
      const end = skipSubBlocks(bytes, position + 2);
      if (label === undefined || end === undefined) break;
      const first = bytes[position + 2]!;
      if (label === 0xf9 && first === 4) {
        // Graphic control: delay, disposal, transparency; rebuilt from its four bytes alone.
        kept.push(Buffer.concat([bytes.subarray(position, position + 7), Buffer.from([0])]));
      } else if (label === 0xff && first === 11 && !isLoopKept) {
        const identifier = bytes.toString('latin1', position + 3, position + 14);
        const loop = position + 14;
        // The loop sub-block: size 3, id 1, count (little-endian).
        if (loopApplications.has(identifier) && bytes[loop] === 3 && bytes[loop + 1] === 1) {
          kept.push(buildLoopExtension(bytes.readUInt16LE(loop + 2)));
          isLoopKept = true;
        }
      }
      // Comments, plain text, XMP, C2PA, ICC and every other extension are dropped.
      position = end;
      continue;
    }
    if (introducer === 0x2c) {
      if (position + 10 > bytes.length) break;
      const dataStart = position + 10 + countColorTableBytes(bytes[position + 9]!) + 1;
      const end = skipSubBlocks(bytes, dataStart);
      if (end === undefined) break;
      kept.push(bytes.subarray(position, end));
      position = end;
      continue;
    }
    break;
  }
  // Cut short or followed by junk: the frames read whole are kept (as browsers show them) and
  // the file ends there; nothing that was not walked is kept. With no whole frame left, the
  // decoder refuses it in its own words (docs/uploads.md, "Processing").
  kept.push(Buffer.from([0x3b]));
  return keep(kept);
}
