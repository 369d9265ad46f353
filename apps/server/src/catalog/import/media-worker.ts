/**
 * A child process that inspects and renders one file at a time for media-processor.ts.
 * Decoders and encoders run here, not in the server: a file that hangs or crashes libvips or
 * ffmpeg costs this process (killed and replaced), never the server or the CLI. It starts with
 * a minimal environment (no secrets, no DATABASE_URL) and a hard memory limit.
 */
import sharp from 'sharp';
import { describeDecodeError, inspectMedia } from './inspect-media.ts';
import type { ImportLimits, MediaInfo } from './inspect-media.ts';
import { MediaRenderer } from './render-renditions.ts';
import type { RenderedFile } from './render-renditions.ts';
import type { RenderPhase } from './rendition-plan.ts';

export interface WorkerTask {
  id: number;
  bytes: Uint8Array;
  limits: ImportLimits;
  outputDir: string;
  /** `auto`: as the file is (a transparent pixel in its first frame), for uploads of no type. */
  isTransparent: boolean | 'auto';
  ffmpegPath: string | undefined;
  phase: RenderPhase;
  /** Renditions the item has (`name.format`): not made again. */
  existing?: string[];
  /** Hard memory ceiling of each encoder process. */
  videoMemoryBytes: number;
}

export type WorkerMessage =
  | { id: 0; kind: 'ready' }
  | { id: number; kind: 'inspected'; info: MediaInfo }
  | {
      id: number;
      kind: 'rendered';
      info: MediaInfo;
      files: RenderedFile[];
      /** What the renditions were made as (the task's choice, or what `auto` found). */
      isTransparent: boolean;
    }
  | { id: number; kind: 'rejected'; reason: string }
  | { id: number; kind: 'failed'; message: string };

const threads = Number(process.env.STICKY_SHARP_CONCURRENCY) || 1;
/**
 * The ready tier's renditions two at a time (render-renditions.ts): while another worker is
 * busy they share its cores, and when it has nothing left (an import's last, longest file) this
 * one uses both; docs/catalog.md, "Import". The other phases try sizes one after another
 * (`downsized`, `preview`) and stay sequential.
 */
const READY_PARALLELISM = 2;
sharp.cache(false);
sharp.concurrency(threads);

/** Encoders running now: they go with this process, whatever ends it. */
const encoders = new Set<number>();

function stopEncoders(): void {
  for (const pid of encoders) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  encoders.clear();
}

function reply(message: WorkerMessage): void {
  process.send?.(message);
}

/** Whether every pixel of the first frame is opaque (an alpha channel alone says nothing). */
async function hasOpaqueFirstFrame(bytes: Buffer): Promise<boolean> {
  const stats = await sharp(bytes, { pages: 1, limitInputPixels: false }).stats();
  return stats.isOpaque;
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
    const isTransparent =
      task.isTransparent === 'auto'
        ? inspection.info.hasAlpha && !(await hasOpaqueFirstFrame(bytes))
        : task.isTransparent;
    const renderer = new MediaRenderer(bytes, {
      info: inspection.info,
      outputDir: task.outputDir,
      isTransparent,
      ffmpegPath: task.ffmpegPath,
      phase: task.phase,
      existing: task.existing,
      threads,
      videoMemoryBytes: task.videoMemoryBytes,
      encoderPids: encoders,
      parallelism: task.phase === 'ready' ? READY_PARALLELISM : 1,
    });
    const files = await renderer.render();
    reply({ id: task.id, kind: 'rendered', info: inspection.info, files, isTransparent });
  } catch (error) {
    const isOurs =
      (error as NodeJS.ErrnoException).code !== undefined ||
      /^ffmpeg could not/.test((error as Error)?.message ?? '');
    reply(
      isOurs
        ? { id: task.id, kind: 'failed', message: (error as Error).message }
        : { id: task.id, kind: 'rejected', reason: describeDecodeError(error) },
    );
  } finally {
    stopEncoders();
  }
}

process.on('message', (task: WorkerTask) => {
  handle(task).catch((error: unknown) => {
    reply({ id: task.id, kind: 'failed', message: (error as Error)?.message ?? String(error) });
  });
});
// The parent is gone (or closed the pool): nothing left to do, and no encoder outlives us.
process.on('disconnect', () => {
  stopEncoders();
  process.exit(0);
});
reply({ id: 0, kind: 'ready' });
