/**
 * Whether a GIF never clears what its frames drew: every frame is disposed of as "unspecified"
 * or "leave in place" (GIF89a, 23. Graphic Control Extension), never "restore to background" or
 * "restore to previous". Its canvas then only ever gains pixels: when the first frame covers it
 * opaquely, every frame is opaque, whatever transparency the frames declare to leave pixels
 * unchanged (a screen recording's usual encoding).
 *
 * Reads block headers only, never pixels. Anything it does not expect (a truncated file, an
 * unknown block, a malformed extension) answers false: the caller then checks the decoded pixels.
 */
export function isGifNeverCleared(bytes: Uint8Array): boolean {
  const length = bytes.length;
  if (length < 13) return false;
  const signature = String.fromCharCode(...bytes.subarray(0, 6));
  if (signature !== 'GIF89a' && signature !== 'GIF87a') return false;
  const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * (2 << (packed & 7)) : 0);
  let position = 13 + colourTableBytes(bytes[10]!);
  /** Skips a chain of data sub-blocks; the position after its terminator, or -1. */
  const skipSubBlocks = (from: number): number => {
    let at = from;
    while (at < length) {
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return at;
    }
    return -1;
  };
  while (position < length) {
    const introducer = bytes[position]!;
    if (introducer === 0x3b) return true;
    if (introducer === 0x21) {
      if (position + 2 >= length) return false;
      const label = bytes[position + 1]!;
      if (label === 0xf9) {
        // Block size 4: packed fields, delay (2 bytes), transparent index, then a terminator.
        if (bytes[position + 2] !== 4 || position + 7 >= length) return false;
        const disposal = (bytes[position + 3]! >> 2) & 7;
        if (disposal > 1) return false;
      }
      position = skipSubBlocks(position + 2);
      if (position < 0) return false;
    } else if (introducer === 0x2c) {
      // Image descriptor: 10 bytes, its local colour table, the LZW minimum code size, data.
      if (position + 10 >= length) return false;
      position += 10 + colourTableBytes(bytes[position + 9]!) + 1;
      position = skipSubBlocks(position);
      if (position < 0) return false;
    } else {
      return false;
    }
  }
  // No trailer: decoders stop at the end of the data; every frame seen was left in place.
  return true;
}
