/** Bytes read to find a PNG's animation control chunk: it must come before the first frame. */
const pngHeadBytes = 1024 * 1024;

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// jsdom's Blob has no arrayBuffer(): FileReader works in browsers and tests alike.
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * An APNG has an `acTL` chunk before its first `IDAT` (APNG specification, "Structure"); a PNG
 * without one, read up to its image data, is a single picture.
 */
function isStillPng(bytes: Uint8Array): boolean {
  if (!pngSignature.every((byte, index) => bytes[index] === byte)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 8; offset + 8 <= bytes.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (type === 'acTL') return false;
    if (type === 'IDAT') return true;
    offset += 12 + length;
  }
  // The image data was not reached: it may still be animated.
  return false;
}

/**
 * Whether a chosen file is a still picture (a JPEG, or a PNG that is no APNG), so the upload
 * page asks what it is instead of calling it a GIF (docs/web.md, "Upload"). Written here rather
 * than taken from a package: the one rule needed is the PNG chunk order above.
 */
export async function readIsStill(file: File): Promise<boolean> {
  if (file.type === 'image/jpeg') return true;
  if (file.type !== 'image/png') return false;
  try {
    return isStillPng(await readBytes(file.slice(0, pngHeadBytes)));
  } catch {
    return false;
  }
}
