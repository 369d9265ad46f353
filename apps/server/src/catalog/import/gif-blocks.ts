/**
 * GIF read at the level of its blocks (GIF89a's header, extensions and image descriptors),
 * never its pixels: what the renderer can learn, or copy, without decoding. Anything it does not
 * expect (a truncated file, an unknown block, a malformed extension) answers "don't know", and
 * the caller decodes the pixels as usual.
 */

type Block =
  | { kind: 'control'; start: number; end: number; disposal: number }
  | { kind: 'extension'; start: number; end: number }
  | {
      kind: 'image';
      start: number;
      end: number;
      left: number;
      top: number;
      width: number;
      height: number;
    };

const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * (2 << (packed & 7)) : 0);
const readUint16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);

/** The header, logical screen descriptor and global colour table: where the blocks start. */
function readScreen(bytes: Uint8Array): { width: number; height: number; end: number } | undefined {
  if (bytes.length < 13) return undefined;
  const signature = String.fromCharCode(...bytes.subarray(0, 6));
  if (signature !== 'GIF89a' && signature !== 'GIF87a') return undefined;
  const end = 13 + colourTableBytes(bytes[10]!);
  if (end > bytes.length) return undefined;
  return { width: readUint16(bytes, 6), height: readUint16(bytes, 8), end };
}

/**
 * Every block after the screen, in order, until the trailer or the end of the data; undefined
 * when one cannot be read whole.
 */
function readBlocks(bytes: Uint8Array, from: number): Block[] | undefined {
  const length = bytes.length;
  /** Skips a chain of data sub-blocks: the position after its terminator, or -1. */
  const skipSubBlocks = (at: number): number => {
    let position = at;
    while (position < length) {
      const size = bytes[position]!;
      position += 1 + size;
      if (size === 0) return position <= length ? position : -1;
    }
    return -1;
  };
  const blocks: Block[] = [];
  let position = from;
  while (position < length) {
    const start = position;
    const introducer = bytes[position]!;
    if (introducer === 0x3b) return blocks;
    if (introducer === 0x21) {
      if (position + 2 >= length) return undefined;
      const isControl = bytes[position + 1] === 0xf9;
      // A graphic control extension's one sub-block: packed fields, delay, transparent index.
      if (isControl && (bytes[position + 2] !== 4 || position + 7 >= length)) return undefined;
      position = skipSubBlocks(position + 2);
      if (position < 0) return undefined;
      blocks.push(
        isControl
          ? { kind: 'control', start, end: position, disposal: (bytes[start + 3]! >> 2) & 7 }
          : { kind: 'extension', start, end: position },
      );
    } else if (introducer === 0x2c) {
      // Image descriptor: 10 bytes, its local colour table, the LZW minimum code size, data.
      if (position + 10 >= length) return undefined;
      const left = readUint16(bytes, position + 1);
      const top = readUint16(bytes, position + 3);
      const width = readUint16(bytes, position + 5);
      const height = readUint16(bytes, position + 7);
      position += 10 + colourTableBytes(bytes[position + 9]!) + 1;
      position = skipSubBlocks(position);
      if (position < 0) return undefined;
      blocks.push({ kind: 'image', start, end: position, left, top, width, height });
    } else {
      return undefined;
    }
  }
  // No trailer: decoders stop at the end of the data.
  return blocks;
}

/**
 * Whether a GIF never clears what its frames drew: every frame is disposed of as "unspecified"
 * or "leave in place" (GIF89a, 23. Graphic Control Extension), never "restore to background" or
 * "restore to previous". Its canvas then only ever gains pixels: when the first frame covers it
 * opaquely, every frame is opaque, whatever transparency the frames declare to leave pixels
 * unchanged (a screen recording's usual encoding).
 */
export function isGifNeverCleared(bytes: Uint8Array): boolean {
  const screen = readScreen(bytes);
  const blocks = screen && readBlocks(bytes, screen.end);
  if (!blocks) return false;
  return blocks.every((block) => block.kind !== 'control' || block.disposal <= 1);
}

/**
 * A GIF's first frame as a GIF of its own, its bytes copied as they are (the header, screen
 * and colour tables, the frame's graphic control and image): GIPHY's `original_still` without
 * decoding and quantising the frame again, which cost a 1200 × 600 recording 90 ms. Only when
 * the first frame covers the whole screen (else it shows over the background, which a copy
 * would not keep); undefined otherwise, or when the file cannot be read this way.
 */
export function extractFirstGifFrame(bytes: Uint8Array): Buffer | undefined {
  const screen = readScreen(bytes);
  const blocks = screen && readBlocks(bytes, screen.end);
  if (!screen || !blocks) return undefined;
  const imageIndex = blocks.findIndex((block) => block.kind === 'image');
  const image = blocks[imageIndex];
  if (!image || image.kind !== 'image') return undefined;
  const isFullScreen =
    image.left === 0 &&
    image.top === 0 &&
    image.width === screen.width &&
    image.height === screen.height;
  if (!isFullScreen) return undefined;
  // The control extension that applies to this frame: the last one before it.
  const control = blocks
    .slice(0, imageIndex)
    .reverse()
    .find((block) => block.kind === 'control');
  const parts = [Buffer.from(bytes.subarray(0, screen.end))];
  // GIF89a for the control extension; the version is the first thing a decoder reads.
  parts[0]!.write('GIF89a', 0, 'latin1');
  if (control) parts.push(Buffer.from(bytes.subarray(control.start, control.end)));
  parts.push(Buffer.from(bytes.subarray(image.start, image.end)), Buffer.from([0x3b]));
  return Buffer.concat(parts);
}
