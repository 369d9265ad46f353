/**
 * Downloads a media file as a blob and saves it under `fileBase` with the extension its
 * type calls for (`.webp` for WebP, else `.gif`). A blob, not a navigation: the media host
 * may be another origin, where `<a download>` alone would just open the image.
 */
export async function downloadMedia(url: string, fileBase: string): Promise<string> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`Download failed (HTTP ${response.status})`);
  const blob = await response.blob();
  const isWebp = blob.type === 'image/webp' || /\.webp($|\?)/i.test(new URL(url).pathname);
  const fileName = `${fileBase}.${isWebp ? 'webp' : 'gif'}`;
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked on the next tick: the click has started the download by then.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
  return fileName;
}
