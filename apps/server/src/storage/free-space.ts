import fs from 'node:fs/promises';
import type { AppConfig } from '../config/env.ts';
import { AppError } from '../lib/app-error.ts';

/** Free bytes for an unprivileged writer on the file system holding `directory`. */
export async function readFreeBytes(directory: string): Promise<number> {
  const stats = await fs.statfs(directory);
  return stats.bavail * stats.bsize;
}

export interface FreeSpace {
  freeBytes: number;
  floorBytes: number;
  /** Under the floor: nothing new may be written. */
  isLow: boolean;
}

/**
 * The free-space floor, MIN_FREE_DISK_MB: below it nothing new is written (uploads, imports,
 * animated text), so the disk never fills to where PostgreSQL and the media files stop
 * working (docs/uploads.md, "Receiving"; docs/catalog.md, "Animated text"). 0 turns it off.
 */
export async function readFreeSpace(
  config: Pick<AppConfig, 'minFreeDiskBytes'>,
  directory: string,
): Promise<FreeSpace> {
  const floorBytes = config.minFreeDiskBytes;
  if (floorBytes <= 0) return { freeBytes: Number.POSITIVE_INFINITY, floorBytes, isLow: false };
  const freeBytes = await readFreeBytes(directory);
  return { freeBytes, floorBytes, isLow: freeBytes < floorBytes };
}

/**
 * Refuses (503) what would write under the floor, saying so and what still works:
 * `consequence` ends "The server is low on disk space, so …" (e.g. "no new uploads are taken
 * right now.").
 */
export async function ensureFreeSpace(
  config: Pick<AppConfig, 'minFreeDiskBytes'>,
  directory: string,
  consequence: string,
): Promise<void> {
  const space = await readFreeSpace(config, directory);
  if (space.isLow) {
    throw new AppError('unavailable', `The server is low on disk space, so ${consequence}`, {
      freeBytes: space.freeBytes,
      floorBytes: space.floorBytes,
    });
  }
}

/** Bytes as whole megabytes, for messages. */
export const formatWholeMegabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;
