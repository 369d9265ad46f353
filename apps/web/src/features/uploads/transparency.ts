/**
 * Whether an image's first frame has a see-through pixel: such a file is proposed as a sticker
 * (the server decides the same way when no type is sent). Unknown (undecodable here) is false.
 */
export async function hasTransparency(file: File): Promise<boolean> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function')
    return false;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 256 / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return false;
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const { data } = context.getImageData(0, 0, width, height);
    for (let index = 3; index < data.length; index += 4) if (data[index]! < 255) return true;
    return false;
  } catch {
    return false;
  }
}
