import { createHash } from 'node:crypto';
import path from 'node:path';
import type { RenditionFormat } from '@sticky/contracts';

/** Media formats we store; the extension of a content-addressed file names its format. */
export type MediaFormat = RenditionFormat;

export const mediaExtensions: Record<MediaFormat, string> = {
  gif: 'gif',
  webp: 'webp',
  png: 'png',
  jpeg: 'jpg',
  mp4: 'mp4',
  webm: 'webm',
};

export const mediaContentTypes: Record<string, string> = {
  gif: 'image/gif',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** Where imports stage their files before moving them into place; never served. */
export const MEDIA_TEMP_DIR = '.incoming';

const contentAddressedName =
  /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.(gif|webp|png|jpg|mp4|webm)$/;

/** The SHA-256 (hex) a file's content-addressed name is made of. */
export function hashContent(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 a content-addressed path names: what its file must hash to. */
export function contentHashOf(relativePath: string): string {
  return path.basename(relativePath, path.extname(relativePath));
}

/** `ab/cd/<sha256>.<ext>`: the path, relative to the media folder, of a file with that content. */
export function contentAddressedPath(sha256: string, format: MediaFormat): string {
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}.${mediaExtensions[format]}`;
}

/** True for the paths contentAddressedPath makes, and only those. */
export function isContentAddressedPath(relativePath: string): boolean {
  return contentAddressedName.test(relativePath);
}

/** The absolute file for a stored relative path (always inside mediaDir). */
export function resolveMediaPath(mediaDir: string, relativePath: string): string {
  if (!isContentAddressedPath(relativePath)) {
    throw new Error(`not a content-addressed media path: ${JSON.stringify(relativePath)}`);
  }
  return path.join(mediaDir, relativePath);
}
