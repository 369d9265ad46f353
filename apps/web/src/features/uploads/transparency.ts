export interface FirstFrame {
  /** False when the browser could not decode the file: it is no image, whatever its name says. */
  isImage: boolean;
  /** A see-through pixel: the file is proposed as a sticker (the server decides alike). */
  hasTransparency: boolean;
  /** The first frame as a PNG object URL, shown instead of the file under reduced motion. */
  stillUrl: string | null;
}

/** What the upload page reads from a file's first frame; nothing when it cannot decode it. */
export async function readFirstFrame(file: File): Promise<FirstFrame> {
  // Without the canvas APIs nothing can be told: the file goes, and the server decides.
  const none = { isImage: true, hasTransparency: false, stillUrl: null };
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return none;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ...none, isImage: false };
  }
  try {
    const scale = Math.min(1, 256 / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return none;
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const { data } = context.getImageData(0, 0, width, height);
    let hasTransparency = false;
    for (let index = 3; index < data.length && !hasTransparency; index += 4) {
      hasTransparency = data[index]! < 255;
    }
    const still = await canvas.convertToBlob({ type: 'image/png' });
    return { isImage: true, hasTransparency, stillUrl: URL.createObjectURL(still) };
  } catch {
    return none;
  }
}
