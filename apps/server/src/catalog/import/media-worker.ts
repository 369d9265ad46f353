/**
 * A child process that inspects and renders one file at a time for media-processor.ts.
 * Decoders run here, not in the server: a file that hangs or crashes libvips costs this
 * process (killed and replaced), never the server or the CLI.
 */
import sharp from 'sharp';
import { describeDecodeError, inspectMedia } from './inspect-media.ts';
import type { ImportLimits, MediaInfo } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import type { RenderedFile } from './render-renditions.ts';

export interface WorkerTask {
  id: number;
  bytes: Uint8Array;
  limits: ImportLimits;
  outputDir: string;
  isSticker: boolean;
  ffmpegPath: string | undefined;
}

export type WorkerMessage =
  | { id: 0; kind: 'ready' }
  | { id: number; kind: 'inspected'; info: MediaInfo }
  | { id: number; kind: 'rendered'; info: MediaInfo; files: RenderedFile[] }
  | { id: number; kind: 'rejected'; reason: string }
  | { id: number; kind: 'failed'; message: string };

sharp.cache(false);
sharp.concurrency(Number(process.env.STICKY_SHARP_CONCURRENCY) || 1);

function reply(message: WorkerMessage): void {
  process.send?.(message);
}

async function handle(task: WorkerTask): Promise<void> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const inspection = await inspectMedia(bytes, task.limits);
  if (!inspection.ok) {
    reply({ id: task.id, kind: 'rejected', reason: inspection.reason });
    return;
  }
  reply({ id: task.id, kind: 'inspected', info: inspection.info });
  try {
    const renderer = new MediaRenderer(bytes, {
      info: inspection.info,
      outputDir: task.outputDir,
      isSticker: task.isSticker,
      ffmpegPath: task.ffmpegPath,
    });
    const files = await renderer.renderAll();
    reply({ id: task.id, kind: 'rendered', info: inspection.info, files });
  } catch (error) {
    const isOurs = (error as NodeJS.ErrnoException).code !== undefined;
    reply(
      isOurs
        ? { id: task.id, kind: 'failed', message: (error as Error).message }
        : { id: task.id, kind: 'rejected', reason: describeDecodeError(error) },
    );
  }
}

process.on('message', (task: WorkerTask) => {
  handle(task).catch((error: unknown) => {
    reply({ id: task.id, kind: 'failed', message: (error as Error)?.message ?? String(error) });
  });
});
// The parent is gone (or closed the pool): nothing left to do.
process.on('disconnect', () => process.exit(0));
reply({ id: 0, kind: 'ready' });
