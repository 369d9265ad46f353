import fs from 'node:fs/promises';
import path from 'node:path';
import type { StoredRenditionName } from '@sticky/contracts';
import { hashContent } from '../../storage/media-paths.ts';
import type { MediaFormat } from '../../storage/media-paths.ts';
import type { Size } from './rendition-sizes.ts';

export interface RenderedFile {
  name: StoredRenditionName;
  format: MediaFormat;
  width: number;
  height: number;
  /** Frames in the file (a video's frames at its constant rate). */
  frames: number;
  bytes: number;
  sha256: string;
  /** Absolute path of the staged file (inside the import's temporary folder). */
  file: string;
}

/**
 * An import's staging folder: each rendition is written there and flushed to disk in the
 * background while the next one is made; `settle` waits for every flush before the folder is
 * handed on.
 */
export class StagingFolder {
  /** Files staged and being flushed; each settles to undefined or its error. */
  private readonly syncs: Array<Promise<unknown>> = [];

  constructor(private readonly outputDir: string) {}

  /** Where a rendition's file goes in the folder. */
  pathOf(name: StoredRenditionName, format: MediaFormat): string {
    return path.join(this.outputDir, `${name}.${format}`);
  }

  /** Writes a rendition into the folder (flushed to disk before `settle` returns). */
  async stage(
    name: StoredRenditionName,
    format: MediaFormat,
    data: Buffer,
    size: Size,
    frames: number,
  ): Promise<RenderedFile> {
    const file = this.pathOf(name, format);
    await fs.writeFile(file, data, { flag: 'wx', mode: 0o644 });
    this.flushLater(file);
    return {
      name,
      format,
      width: size.width,
      height: size.height,
      frames,
      bytes: data.length,
      sha256: hashContent(data),
      file,
    };
  }

  /** The same bytes under another rendition name (content addressing stores them once). */
  async copy(file: RenderedFile, name: StoredRenditionName): Promise<RenderedFile> {
    if (file.name === name) return file;
    const target = this.pathOf(name, file.format);
    await fs.copyFile(file.file, target);
    this.flushLater(target);
    return { ...file, name, file: target };
  }

  /** Removes a staged candidate that was not kept. */
  async remove(file: RenderedFile): Promise<void> {
    await fs.rm(file.file, { force: true });
  }

  /** Waits for every flush started so far: each one's error, or undefined. */
  settle(): Promise<unknown[]> {
    return Promise.all(this.syncs.splice(0));
  }

  /**
   * Flushes a staged file to disk, in the background, so the next rendition is made meanwhile
   * (docs/catalog.md, "Rendition settings").
   */
  private flushLater(file: string): void {
    this.syncs.push(
      (async () => {
        const handle = await fs.open(file, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      })().then(
        () => undefined,
        // Kept, not thrown here: the renderer throws it once every rendition is done. A
        // candidate removed meanwhile has nothing left to flush.
        (error: unknown) =>
          (error as NodeJS.ErrnoException)?.code === 'ENOENT'
            ? undefined
            : (error ?? new Error(`could not flush ${file}`)),
      ),
    );
  }
}
